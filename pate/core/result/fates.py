"""What the turns' events say of ships, merchants, trade and troops (docs/rules/result.md).

A ship's id names its state and type (rule 2.2), and a prize takes a new id under
its captor's state (rule 7.8), so every fate is read from the event that removed
the ship; the world's ship counts are checked against them afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pate.core.events import Event
from pate.core.world.diplomacy import Diplomacy
from pate.core.world.ships import ShipType, parse_ship_id

# How a ship left its navy.  Battle losses are credited to the enemy present.
SUNK = "sunk"  # sunk in battle, destroyed in port (rule 2.6), lost en route home (EiA 12.2.6.1.9.1)
SEA = "sea"  # foundered or wrecked (storms): no enemy earns it
SCUTTLED = "scuttled"  # by her own side (rule 4.10)
TAKEN = "taken"  # a prize (rule 7.8, rule 2.6, EiA 12.2.6.1.9, 12.2.8.2)

_SUNK_KINDS = frozenset({"sunk", "lost_en_route", "inactive_destroyed"})
_SEA_KINDS = frozenset({"foundered", "wrecked"})
_TAKEN_KINDS = frozenset({"captured", "inactive_captured"})


@dataclass(frozen=True, slots=True)
class ShipFate:
    turn: int
    ship: str
    state: str
    type: ShipType
    how: str  # SUNK | SEA | SCUTTLED | TAKEN
    by: str | None  # the state credited with it; None when no enemy earned it
    prize: str = ""  # TAKEN: the prize's new id


@dataclass(frozen=True, slots=True)
class Regrouped:
    """A transport group gone into another, or made out of one (rule 2.5): no loss, no gain."""

    state: str
    change: int  # -1 combined into another, +1 divided out


@dataclass(frozen=True, slots=True)
class Merchants:
    victim: str
    raider: str
    taken: int


@dataclass(frozen=True, slots=True)
class Trade:
    state: str
    sailed: int
    arrived: int


@dataclass(frozen=True, slots=True)
class Troops:
    state: str  # the units' state
    units: tuple[str, ...]
    landed: bool  # True: put ashore; False: lost at sea
    port: str = ""


@dataclass(frozen=True, slots=True)
class Ledger:
    fates: tuple[ShipFate, ...]
    regrouped: tuple[Regrouped, ...]
    merchants: tuple[Merchants, ...]
    trade: tuple[Trade, ...]
    troops: tuple[Troops, ...]


def _state_type(ship: str) -> tuple[str, ShipType] | None:
    parsed = parse_ship_id(ship)
    return (parsed[0], parsed[2]) if parsed else None


def _credit(e: Event, loser: str, diplomacy: Diplomacy) -> str | None:
    """The enemy state with most ships among those that took part in or saw the
    loss (ties by code); None when no enemy was there."""
    count: dict[str, int] = {}
    for sid in sorted(e.observers):
        found = _state_type(sid)
        if found and diplomacy.hostile(loser, found[0]):
            count[found[0]] = count.get(found[0], 0) + 1
    return min(count, key=lambda s: (-count[s], s)) if count else None


def _fate(turn: int, e: Event, diplomacy: Diplomacy) -> ShipFate | None:
    if not e.ships:
        return None
    found = _state_type(e.ships[0])
    if found is None:
        return None
    state, type_ = found
    sid = e.ships[0]
    hulk = e.kind == "hulk_port_changed"
    if e.kind in _TAKEN_KINDS or (hulk and e.data.get("fate") == "transferred"):
        prize = str(e.data.get("prize") or e.data.get("to") or "")
        captor = _state_type(prize)
        return ShipFate(turn, sid, state, type_, TAKEN, captor[0] if captor else None, prize)
    if e.kind in _SUNK_KINDS or (hulk and e.data.get("fate") == "destroyed"):
        to = str(e.data.get("to", ""))
        by = to if hulk and diplomacy.hostile(state, to) else _credit(e, state, diplomacy)
        return ShipFate(turn, sid, state, type_, SUNK, by)
    if e.kind in _SEA_KINDS:
        return ShipFate(turn, sid, state, type_, SEA, None)
    if e.kind == "scuttled":
        return ShipFate(turn, sid, state, type_, SCUTTLED, None)
    return None


def _regrouped(e: Event) -> Regrouped | None:
    if e.kind not in ("groups_combined", "group_divided") or not e.ships:
        return None
    found = _state_type(e.ships[0])
    if found is None:
        return None
    return Regrouped(found[0], -1 if e.kind == "groups_combined" else +1)


def _merchants(e: Event) -> Merchants | None:
    d = e.data
    if e.kind == "merchant_prizes":  # rule 4.8, PATE's commerce
        return Merchants(str(d["victim"]), str(d["state"]), int(d["prizes"]))
    if e.kind == "trade_ships_taken":  # the EiA operations' trade ships
        return Merchants(str(d["state"]), str(d["by"]), int(d["taken"]))
    return None


def _trade(e: Event) -> Trade | None:
    d = e.data
    if e.kind == "trade_summary":
        return Trade(str(d["state"]), int(d["merchants"]), int(d["arrived"]))
    if e.kind == "treasury":
        return Trade(str(d["state"]), int(d["ships"]), int(d["arrived"]))
    return None


def _troops(e: Event, unit_state: Mapping[str, str]) -> list[Troops]:
    d = e.data
    if e.kind == "transfer_completed" and d.get("direction") == "unload" and not d.get("cancelled"):
        units: Sequence[str] = d.get("units", ())
        landed = True
    elif e.kind in ("cargo_lost", "cargo_captured", "scuttled"):
        units, landed = d.get("units", ()), False
    else:
        return []
    by_state: dict[str, list[str]] = {}
    for u in units:
        by_state.setdefault(unit_state.get(u, u[:2]), []).append(u)
    port = str(d.get("port", ""))
    return [Troops(s, tuple(us), landed, port) for s, us in sorted(by_state.items())]


def read_ledger(
    turns: Mapping[int, Sequence[Event]], diplomacy: Diplomacy, unit_state: Mapping[str, str]
) -> Ledger:
    """Every turn's events in turn order, each turn's in the order they happened."""
    fates: list[ShipFate] = []
    regrouped: list[Regrouped] = []
    merchants: list[Merchants] = []
    trade: list[Trade] = []
    troops: list[Troops] = []
    for turn in sorted(turns):
        for e in turns[turn]:
            _add(fates, _fate(turn, e, diplomacy))
            _add(regrouped, _regrouped(e))
            _add(merchants, _merchants(e))
            _add(trade, _trade(e))
            troops.extend(_troops(e, unit_state))
    return Ledger(tuple(fates), tuple(regrouped), tuple(merchants), tuple(trade), tuple(troops))


def _add(into: list[Any], item: Any) -> None:
    if item is not None:
        into.append(item)


def events_by_turn(pairs: Iterable[tuple[int, Sequence[Event]]]) -> dict[int, tuple[Event, ...]]:
    return {turn: tuple(events) for turn, events in pairs}
