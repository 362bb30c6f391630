"""The event report (rule 3.11): each observed event as a sentence in the
rule book's words (sighted, pursued, engaged, damage, prizes, storm, arrived).

Events come from every phase of the resolver; a kind this table does not know
is still told, from its name and its detail, so that no observed event is
ever dropped from a report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pate.core.intel.model import ObservedEvent, PlayerKnowledge
from pate.core.world.ships import parse_ship_id
from pate.reports.words import fleet_text, ids_text

VERBS = {
    "sailed": "sailed",
    "moved": "sailed",
    "held_by_wind": "could not sail: the wind would not allow it",
    "held": "could not sail",
    "held_in_harbor": "could not leave the harbor",
    "storm": "were caught in a storm",
    "storm_damage": "were damaged by a storm",
    "scattered": "were scattered by a storm",
    "sighted": "sighted other ships",
    "encounter": "met other ships",
    "encountered": "met other ships",
    "met_enemy": "met enemy ships",
    "joined": "joined allied ships",
    "pursued": "pursued",
    "pursuit": "pursued",
    "evaded": "evaded",
    "escaped": "escaped",
    "engaged": "engaged the enemy",
    "sunk": "sank",
    "captured": "were taken as prizes",
    "prize": "took a prize",
    "entered_atlantic": "sailed into the Atlantic Ocean",
    "atlantic": "sailed into the Atlantic Ocean",
    "arrived": "arrived",
    "entered_port": "entered port",
    "repaired": "repaired",
    "loaded_stores": "loaded stores",
    "unloaded_stores": "returned stores ashore",
    "starving": "ran out of stores and lost crew",
    "loaded": "began loading",
    "unloaded": "unloaded",
    "inactivated": "were laid up",
    "reactivated": "were recommissioned",
    "scuttled": "were scuttled",
    "crew_transferred": "transferred crew",
}
BATTLE_KINDS = frozenset({"battle", "combat", "engagement"})


def _words(key: str) -> str:
    return key.replace("_", " ")


def _value(v: Any) -> str | None:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int | str):
        return str(v)
    if isinstance(v, list | tuple):
        if len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            return f"{v[0]} → {v[1]}"
        if all(isinstance(x, str | int) and not isinstance(x, bool) for x in v):
            texts = [str(x) for x in v]
            return ids_text(texts) if all(parse_ship_id(t) for t in texts) else ", ".join(texts)
    return None


def details(data: Mapping[str, Any]) -> str:
    """The simple values of an event's detail, as "key value" pairs."""
    parts: list[str] = []
    for key in sorted(data):
        v = data[key]
        if isinstance(v, Mapping):
            inner = [
                f"{_words(str(k2))} {t}" for k2, v2 in sorted(v.items()) if (t := _value(v2)) is not None
            ]
            if inner:
                parts.append(f"{_words(key)}: {', '.join(inner)}")
            continue
        text = _value(v)
        if text is not None and text != "":
            parts.append(f"{_words(key)} {text}")
    return "; ".join(parts)


def _sides(k: PlayerKnowledge, ids: Iterable[str]) -> tuple[list[str], list[str]]:
    ours: list[str] = []
    theirs: list[str] = []
    friends = set(k.allies) or ({k.state} if k.state else set())
    for sid in ids:
        parsed = parse_ship_id(sid)
        (ours if parsed and parsed[0] in friends else theirs).append(sid)
    return ours, theirs


def battle_sentence(k: PlayerKnowledge, ev: ObservedEvent) -> str:
    """Strength as the player could judge it: the ships on each side, by type."""
    ours, theirs = _sides(k, ev.ships)
    text = f"Battle at {ev.location}: our {fleet_text(ours)} ({ids_text(ours)})"
    text += f" engaged the enemy's {fleet_text(theirs)} ({ids_text(theirs)})" if theirs else ""
    return text


def event_sentence(k: PlayerKnowledge, ev: ObservedEvent) -> str:
    if ev.kind in BATTLE_KINDS:
        text = battle_sentence(k, ev)
    else:
        verb = VERBS.get(ev.kind, _words(ev.kind))
        who = ids_text(ev.ships) if ev.ships else "Our ships"
        text = f"{ev.location}: {who} {verb}"
        if not ev.ships:
            text = f"{ev.location}: {verb[0].upper()}{verb[1:]}"
    extra = details(ev.data)
    return f"{text} ({extra})." if extra else f"{text}."


def event_lines(k: PlayerKnowledge) -> list[str]:
    """The event report, in the order the events happened (3.11)."""
    return [f"{ev.index}. [{_words(ev.phase.value)}] {event_sentence(k, ev)}" for ev in k.events]
