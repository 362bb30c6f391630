"""The event report (rule 3.11): each observed event as a sentence in the
rule book's words (sailed, held by the wind, met the enemy, pursued,
battle, damage taken, sunk, taken as a prize, storm, arrived...).

``PHRASES`` holds the words for every event kind the resolver emits, keyed
by kind.  A kind it does not know is still told, from its name and its
detail, so that no observed event is ever dropped from a report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.intel.model import ObservedEvent, PlayerKnowledge
from pate.core.world.geography import WorldMap
from pate.core.world.ships import parse_ship_id
from pate.reports import ashore, battle, cargo, eia, intel, operations, phrases, storms, supply, why
from pate.reports.phrases import Phrase
from pate.reports.telling import Telling, known_names, sentence
from pate.reports.words import ids_text

PHRASES: dict[str, Phrase] = {
    **phrases.PHRASES,
    **storms.PHRASES,
    **cargo.PHRASES,
    **supply.PHRASES,
    **battle.PHRASES,
    **ashore.PHRASES,
    **intel.PHRASES,
    **eia.PHRASES,
    **operations.PHRASES,
}

# Detail the fallback leaves out: bookkeeping, not news.
QUIET = frozenset({"names", "station", "step", "orders", "ship_chances"})


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
        if key in QUIET:
            continue
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


def fallback(t: Telling) -> str:
    """A kind without words of its own: its name and its detail."""
    who = t.subject if t.ships else "Our ships"
    extra = details(t.data)
    text = f"{who} {_words(t.kind)} {t.at()}"
    return f"{text} ({extra})" if extra else text


def telling(
    k: PlayerKnowledge,
    ev: ObservedEvent,
    world_map: WorldMap | None = None,
    names: Mapping[str, str] | None = None,
) -> Telling:
    known = known_names(k) if names is None else names
    return Telling(
        k, world_map, ev.kind, ev.phase.value, ev.location, ev.ships, ev.data, known, own_ids(k, known)
    )


def own_ids(k: PlayerKnowledge, names: Mapping[str, str]) -> frozenset[str]:
    """The player's ships: those he has now and those lost in the turn."""
    return frozenset(names) | frozenset(k.lost) | frozenset(r.id for r in k.ships)


def event_sentence(
    k: PlayerKnowledge,
    ev: ObservedEvent,
    world_map: WorldMap | None = None,
    names: Mapping[str, str] | None = None,
) -> str:
    """The event in the rule book's words (own ships in full, others as seen)."""
    t = telling(k, ev, world_map, names)
    return sentence(PHRASES.get(ev.kind, fallback)(t))


def event_details(
    k: PlayerKnowledge,
    ev: ObservedEvent,
    world_map: WorldMap | None = None,
    names: Mapping[str, str] | None = None,
) -> list[str]:
    """Further lines under an event: the damage each own ship took in a
    battle, then why the player's ships came out as they did (why.py)."""
    t = telling(k, ev, world_map, names)
    lines = battle.own_ship_lines(t) if ev.kind == "battle" else []
    return [sentence(line) for line in (*lines, *why.why_lines(t))]


@dataclass(frozen=True, slots=True)
class Told:
    """One line of the event report: an event, or a run of like events."""

    first: int
    last: int
    phase: str
    kind: str
    text: str
    details: tuple[str, ...] = ()
    # what the line is about, whoever tells it: the all-sides replay tells an event once
    # though its players' reports word it differently (pate/reports/replay.py)
    location: str = ""
    ships: tuple[str, ...] = ()
    ours: bool = False  # about the player's own ships: told in full

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


SINGLE = frozenset({"battle", "captured"})  # told one by one whatever their likeness


def _alike(a: ObservedEvent, b: ObservedEvent) -> bool:
    """Events that read as one: the same thing happening to single ships at
    the same place in the same way (four ships escaping to the same harbor)."""
    if a.kind in SINGLE or (a.kind, a.phase, a.location) != (b.kind, b.phase, b.location):
        return False
    quiet = {"names", *PER_SHIP}
    same = all(_per_ship(a, key) == _per_ship(b, key) for key in PER_SHIP)
    return same and {k: v for k, v in a.data.items() if k not in quiet} == {
        k: v for k, v in b.data.items() if k not in quiet
    }


# Detail given ship by ship (whose order, her own chance): like events of two
# ships alike in all else are told as one line when these read the same too.
PER_SHIP = ("orders", "ship_chances")


def _per_ship(e: ObservedEvent, key: str) -> list[str]:
    value = e.data.get(key)
    return sorted(repr(v) for v in value.values()) if isinstance(value, Mapping) else []


# A storm's move of a ship, and her arrival where it set her down (section 8): one line, where
# she went and among whom, not the same move told twice (her own player, and anyone whose
# ships saw both her going and her coming).
STORM_MOVES = frozenset({"scattered", "blown_out_to_sea"})


def runs(events: tuple[ObservedEvent, ...], own: frozenset[str] = frozenset()) -> list[list[ObservedEvent]]:
    """Like events in a row told as one line: single ships (their ids listed together), or
    events seen from afar, which name no ship (5.1), told once with how many times; and an
    ship's storm move with her arrival (``STORM_MOVES``)."""
    out: list[list[ObservedEvent]] = []
    for ev in events:
        last = out[-1] if out else None
        if last is not None and (
            (_same_shape(last, ev) and _alike(last[0], ev)) or _arrival_of(last, ev, own)
        ):
            last.append(ev)
            continue
        out.append([ev])
    return out


def _arrival_of(run: list[ObservedEvent], ev: ObservedEvent, own: frozenset[str]) -> bool:
    move = run[0]
    return (
        len(run) == 1
        and move.kind in STORM_MOVES
        and ev.kind == "storm_arrived"
        and ev.ships == move.ships
        and bool(ev.ships)
        and (set(ev.ships) <= own or not set(ev.ships) & own)
    )


def _same_shape(run: list[ObservedEvent], ev: ObservedEvent) -> bool:
    return len(ev.ships) <= 1 and all(len(e.ships) == len(ev.ships) for e in run)


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


def _merged(run: list[ObservedEvent]) -> ObservedEvent:
    if len(run) == 1:
        return run[0]
    if run[-1].kind == "storm_arrived":  # the move told with whom she lies among (5.1)
        came = run[-1].data
        arrival = {
            "enemies": list(came.get("enemies", ())),
            "side": came.get("side", ""),
            "at": run[-1].location,
        }
        return replace(run[0], data={**run[0].data, "arrival": arrival})
    data = dict(run[0].data)
    for key in ("names", *PER_SHIP):
        merged: dict[str, Any] = {}
        for e in run:
            part = e.data.get(key)
            if isinstance(part, Mapping):
                merged.update(part)
        if merged:
            data[key] = merged
    return replace(run[0], ships=tuple(s for e in run for s in e.ships), data=data)


# Orders that came to nothing: a loading or unloading refused by PATE or by
# the land side.  Nothing happens that anyone could see (5.1: a player learns
# what his ships saw), so only the player whose ships were ordered is told.
UNSEEN = frozenset({"transfer_refused", "transfer_undone", "land_event"})


def _seen(k: PlayerKnowledge, own: frozenset[str]) -> tuple[ObservedEvent, ...]:
    """The events worth telling, renumbered 1..n as the knowledge numbers
    them, so that one left out leaves no gap in the report."""
    kept = [e for e in k.events if e.kind not in UNSEEN or set(e.ships) & own]
    return tuple(replace(e, index=n) for n, e in enumerate(kept, 1))


def told_events(k: PlayerKnowledge, world_map: WorldMap | None = None) -> list[Told]:
    """The event report, in the order the events happened (3.11)."""
    names = known_names(k)
    out: list[Told] = []
    own = own_ids(k, names)
    for run in runs(_seen(k, own), own):
        ev = _merged(run)
        out.append(
            Told(
                first=run[0].index,
                last=run[-1].index,
                phase=ev.phase.value,
                kind=ev.kind,
                text=_run_sentence(k, run, ev, world_map, names),
                details=tuple(event_details(k, ev, world_map, names)),
                location=ev.location,
                ships=ev.ships,
                ours=bool(set(ev.ships) & own),
            )
        )
    return out


def _run_sentence(
    k: PlayerKnowledge,
    run: list[ObservedEvent],
    ev: ObservedEvent,
    world_map: WorldMap | None,
    names: Mapping[str, str],
) -> str:
    text = event_sentence(k, ev, world_map, names)
    if len(run) > 1 and not ev.ships:  # the same sight from afar, again and again
        return f"{text.removesuffix('.')} ({_times(len(run))})."
    return text


def event_lines(k: PlayerKnowledge, world_map: WorldMap | None = None) -> list[str]:
    out: list[str] = []
    for told in told_events(k, world_map):
        out.append(f"{told.label}. [{_words(told.phase)}] {told.text}")
        out += [f"   - {line}" for line in told.details]
    return out
