"""The world of a case file (docs/formats/cases.md): a shipped scenario, a
scenario file beside the case, or the tables of a scenario written under
``[world]``; and the states' money (``[treasury]``) the case gives."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pate.core.rules.context import TurnContext
from pate.core.world.fields import DataError, Problems, Table
from pate.core.world.state import Player, Role, TurnKind, WorldState
from pate.engine.case_lines import locate

_RULESET_KEYS = ("naval_rules", "combat_rules")  # of the scenario header, written in [world]
WORLD_KEYS = (
    "states",
    "diplomacy",
    "players",
    "ports",
    "land_units",
    "ship_defaults",
    "ships",
    "squadrons",
    "admirals",
    *_RULESET_KEYS,
)
DEFAULT_SEED = 1
MAX_MONEY = 999_999


def case_world(
    path: Path,
    top: Table,
    ctx: TurnContext,
    problems: Problems,
    turns: int,
    seed: int | None,
    placement: str | None,
    given: tuple[TurnKind | None, ...],
    located: list[str],
) -> tuple[WorldState, bool] | None:
    """The world of the case: a shipped scenario or file (``scenario``), or
    scenario tables written under ``[world]``."""
    from pate.core.scenario.parse import parse_scenario
    from pate.datafiles import load_nations, load_scenario, scenario_path

    name = top.opt_str("scenario")
    inline = top.table("world")
    if (name is None) == (inline is None):
        problems.add("scenario", "give either scenario = NAME or a [world] table")
        return None
    is_file = False
    try:
        if name is not None:
            # a bare name is a shipped scenario; a file name is next to the case
            is_file = scenario_path(name) == Path(name)
            scenario = load_scenario(path.parent / name if is_file else name)
            world = scenario.world
            world = replace(world, seed=world.seed if seed is None else seed)
            placement = placement or scenario.placement
        else:
            assert inline is not None
            inline.check_keys(WORLD_KEYS)
            raw = _named_ships(dict(inline.data))
            seed = DEFAULT_SEED if seed is None else seed
            header = {k: raw.pop(k) for k in _RULESET_KEYS if k in raw}
            raw["scenario"] = {"format": 1, "name": "case", "seed": seed, "turns": turns, **header}
            world = parse_scenario(raw, ctx.map, ctx.rules, nations=load_nations()).world
            placement = placement or "as_given"
    except DataError as err:  # a missing scenario file is one too
        if name is not None and is_file:
            located += _in_file(path.parent / name, err.problems)
            return None
        prefix = "scenario: " if name is not None else "world."
        for item in err.problems:
            # a rule set written in [world] is checked as the header's
            problems.add("", prefix + (item.removeprefix("scenario.") if name is None else item))
        return None
    except FileNotFoundError as err:
        problems.add("scenario", f"no such scenario: {err.filename or err}")
        return None
    # rule 6.12: a turn's kind as the case says, else as the scenario says
    old = world.turn_kinds
    kinds = tuple(k or (old[i] if i < len(old) else TurnKind.CAMPAIGN) for i, k in enumerate(given))
    world = replace(world, turns=turns, turn_kinds=kinds, kind=kinds[0])
    return _with_accounts(world, top.table("treasury"), problems), placement == "random"


def _in_file(path: Path, items: list[str]) -> list[str]:
    """The problems of a scenario file beside the case, each by its line there."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return [f"{path}: {item}" for item in items]
    return [locate(path, text, item) for item in items]


def _named_ships(raw: dict[str, Any]) -> dict[str, Any]:
    """Ships of an inline world are named after their id unless named."""

    def named(ship: Any) -> Any:
        return {"name": ship["id"], **ship} if isinstance(ship, dict) and "id" in ship else ship

    if isinstance(raw.get("ships"), list):
        raw["ships"] = [named(s) for s in raw["ships"]]
    if isinstance(raw.get("squadrons"), list):
        raw["squadrons"] = [
            {**q, "ships": [named(s) for s in q["ships"]]}
            if isinstance(q, dict) and isinstance(q.get("ships"), list)
            else q
            for q in raw["squadrons"]
        ]
    return raw


def _with_accounts(world: WorldState, table: Table | None, problems: Problems) -> WorldState:
    """The states' money as ``[treasury]`` gives it (``FR = 3``), and, under
    the operations rules, a naval minister for every state of the case that
    has no player: the core gives trade and an account to the states that
    are played (pate.core.rules.eiaops.tradestep), and a case needs no
    players (the ministers read nothing unless a report statement asks)."""
    treasury = dict(world.treasury)
    if table is not None:
        for state in list(table.data):
            if state not in world.diplomacy.states:
                problems.add(table.where(state), f"no state {state!r} in the world")
                continue
            money = table.int_(state, lo=0, hi=MAX_MONEY)
            if money is not None:
                treasury[state] = money
    if world.naval_rules != "eia-operations":
        return replace(world, treasury=treasury)
    played = {p.state for p in world.players.values() if p.state}
    named = {s.state for s in world.ships.values()} | set(treasury)
    named |= {state for pair in world.diplomacy.wars | world.diplomacy.alliances for state in pair}
    players = dict(world.players)
    for state in sorted(named - played):
        pid = f"case_minister_{state.lower()}"
        if pid not in players:
            players[pid] = Player(pid, f"{state} naval minister", state, frozenset({Role.NAVAL_MINISTER}))
    return replace(world, treasury=treasury, players=players)
