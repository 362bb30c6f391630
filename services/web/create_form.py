"""The forms that make a campaign (the server administrator's on the game master's page, a
player's solo campaign on his home page), checked as a whole: every error found at once, each
beside its input, in plain words (docs/web.md).  The orders service checks everything again and
its refusal, naming one field, is shown beside that field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from pate.core.world.state import COMBAT_RULESETS, NAVAL_RULESETS
from pate.datafiles import list_scenarios, load_nations, load_shipped_scenario
from pate.reports.seat_words import SEAT_NAMES_SHOWN, seat_words  # noqa: F401 (the solo form's words)

CAMPAIGN_ID = re.compile(r"[a-z0-9-]{1,40}")  # matched whole, as every id
PLAYER_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")  # as the desk's ID_PATTERN
MAX_TURN_HOURS = 24 * 30
MAX_SOLO_HUMANS = 8  # players who play themselves in a solo campaign (every other seat: the bot)
# Each input as its label names it: an error names the field in words, never by its form name.
LABELS = {
    "admin_token": "Server administrator token",
    "new_id": "Campaign id",
    "scenario": "Scenario",
    "seat": "Scenario and your seat",
    "combat_rules": "Combat rules",
    "naval_rules": "Naval rules",
    "first_deadline": "First turn's deadline",
    "turn_hours": "Hours for each later turn",
    "solo": "Solo players",
}


def said(name: str, why: str) -> str:
    """An error of the input ``name``, its label first: "Campaign id: 1 to 40 of a-z, 0-9 and -"."""
    return f"{LABELS.get(name, name)}: {why}"


def reworded(name: str, message: str) -> str:
    """A refusal of the orders service ("turn_seconds: ...") beside the input ``name``, the
    service's field name replaced by that input's label."""
    field, sep, why = message.partition(":")
    if sep and field.strip() and " " not in field.strip():
        return said(name, why.strip())
    return said(name, message)


def scenario_names() -> list[str]:
    return [path.stem for path in list_scenarios()]


def scenario_seats(scenario: str) -> dict[str, str]:
    """The players of a shipped scenario who have a state (public data): id -> state."""
    try:
        players = load_shipped_scenario(scenario).world.players
    except (FileNotFoundError, ValueError):
        return {}
    return {pid: p.state for pid, p in sorted(players.items()) if p.state}


def check_common(values: Mapping[str, str]) -> dict[str, str]:
    """The campaign id and the rule sets (both forms)."""
    errors: dict[str, str] = {}
    if not CAMPAIGN_ID.fullmatch(values.get("new_id", "")):
        errors["new_id"] = said("new_id", "1 to 40 of a-z, 0-9 and -")
    for name, known in (("combat_rules", COMBAT_RULESETS), ("naval_rules", NAVAL_RULESETS)):
        value = values.get(name, "")  # "" = the scenario's own
        if value and value not in known:
            errors[name] = said(name, f"{value[:64]!r} is not a known rule set ({', '.join(known)})")
    return errors


def _check_scenario(scenario: str) -> str:
    if not re.fullmatch(r"[a-z0-9_-]{1,40}", scenario):
        return said("scenario", "choose a shipped scenario from the list")
    if scenario not in scenario_names():
        return said("scenario", f"no scenario named {scenario!r}; choose one from the list")
    return ""


def check_create(values: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The server administrator's create form: (errors by input, the solo humans)."""
    errors = check_common(values)
    scenario = values.get("scenario", "")
    if wrong := _check_scenario(scenario):
        errors["scenario"] = wrong
    first = values.get("first_deadline", "")
    if first and not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d", first):
        errors["first_deadline"] = said("first_deadline", "give a date and time, YYYY-MM-DDTHH:MM (UTC)")
    hours = values.get("turn_hours", "")
    if hours and (not hours.isdigit() or not 0 < int(hours) <= MAX_TURN_HOURS):
        errors["turn_hours"] = said("turn_hours", f"1 to {MAX_TURN_HOURS} hours")
    humans = [h.strip() for h in values.get("solo", "").split(",") if h.strip()]
    if len(humans) > MAX_SOLO_HUMANS or not all(PLAYER_ID.fullmatch(h) for h in humans):
        errors["solo"] = said("solo", f"up to {MAX_SOLO_HUMANS} player ids, separated by commas")
    elif humans and "scenario" not in errors:
        unknown = sorted(set(humans) - set(load_shipped_scenario(scenario).world.players))
        if unknown:
            errors["solo"] = said("solo", f"no player {unknown[0]!r} in the scenario {scenario}")
    return errors, humans


def check_solo(values: Mapping[str, str]) -> tuple[dict[str, str], str, str]:
    """A player's solo form: (errors by input, scenario, seat); its ``seat`` is "scenario/player"."""
    errors = check_common(values)
    scenario, _, seat = values.get("seat", "").partition("/")
    if wrong := _check_scenario(scenario):
        why = "choose the scenario and the player you play" if not scenario else wrong.partition(": ")[2]
        errors["seat"] = said("seat", why)
    elif seat not in scenario_seats(scenario):
        errors["seat"] = said("seat", f"no player {seat[:64]!r} of a state in the scenario {scenario}")
    return errors, scenario, seat


@cache
def seat_choices() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """For the solo form: each shipped scenario with its seats (value, words).  Shipped
    scenarios do not change while the desk runs, so they are read once."""
    states = load_nations().states
    out = []
    for name in scenario_names():
        try:
            world = load_shipped_scenario(name).world
        except (FileNotFoundError, ValueError):
            continue
        seats = scenario_seats(name)
        out.append((name, tuple((f"{name}/{pid}", seat_words(world, pid, states)) for pid in seats)))
    return tuple(out)
