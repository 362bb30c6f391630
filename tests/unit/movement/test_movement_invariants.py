"""Whole-phase invariants on random worlds: the phase never loses a ship
without saying so, keeps every location valid, and is deterministic."""

from __future__ import annotations

import random

import pytest

from pate.core.codec import canonical_json, to_plain
from pate.core.orders.model import Commerce, Contact, ContactMode, Gauge, Movement, ShipOrder
from pate.core.world.geography import Direction, WindStrength
from pate.core.world.ships import AtSea, InAtlantic, InPort, Ship
from pate.core.world.state import TurnKind, Wind
from tests.unit.movement.maps import CTX, DIPLOMACY, TOY_MAP, run, ship, world

STATES = ("BR", "FR", "SP", "PO")
TYPES = ("SL", "FR", "TR", "FL")


def _random_world(seed: int, n: int, kind: TurnKind = TurnKind.CAMPAIGN) -> tuple[object, list[ShipOrder]]:
    r = random.Random(seed)
    areas = sorted(TOY_MAP.sea_areas)
    ports = sorted(TOY_MAP.ports)
    ships: list[Ship] = []
    orders: list[ShipOrder] = []
    for i in range(n):
        sid = f"{r.choice(STATES)}{i + 1}{r.choice(TYPES)}"
        if r.random() < 0.5:
            loc: AtSea | InPort = AtSea(r.choice(areas), r.randint(1, 4))
        else:
            loc = InPort(r.choice(ports), r.random() < 0.5)
        ships.append(
            ship(sid, loc, base=r.choice(ports), hull=r.choice((0, 0, 1, 3)), rigging=r.choice((0, 0, 2)))
        )
        here = loc.area if isinstance(loc, AtSea) else TOY_MAP.ports[loc.port].sea_area
        first = r.choice(sorted(TOY_MAP.sea_areas[here].adjacent))
        second = r.choice(sorted(TOY_MAP.sea_areas[first].adjacent) + areas)
        mv = r.choice(
            [
                Movement(),
                Movement(sea_areas=(first,)),
                Movement(sea_areas=(first, second)),
                Movement(sea_areas=(first,), port=r.choice(ports), harbor=r.random() < 0.5),
                Movement(port=r.choice(ports), harbor=True),
                Movement(any_enemy_port=True),
            ]
        )
        contact = Contact(
            mode=r.choice(list(ContactMode)),
            minimum=r.choice((None, 1, 3)),
            maximum=r.choice((None, 2, 5)),
            join_allies=r.random() < 0.7,
            gauge=r.choice(list(Gauge)),
            pursue_into_ports=r.random() < 0.7,
        )
        orders.append(ShipOrder(sid, movement=mv, contact=contact, commerce=r.choice(list(Commerce))))
    wind = {a: Wind(r.choice(list(Direction)), r.choice(list(WindStrength))) for a in areas}
    return world(ships, wind, kind=kind), orders


def _valid(loc: object) -> bool:
    if isinstance(loc, AtSea):
        return (
            loc.area in TOY_MAP.sea_areas and 1 <= loc.tactical <= TOY_MAP.sea_areas[loc.area].tactical_areas
        )
    if isinstance(loc, InPort):
        return loc.port in TOY_MAP.ports
    return isinstance(loc, InAtlantic) and loc.destination in TOY_MAP.sea_areas


@pytest.mark.parametrize("seed", range(12))
def test_random_turns_keep_the_world_whole(seed: int) -> None:
    w, orders = _random_world(seed, 80)
    ts = run(w, orders, seed=seed)  # type: ignore[arg-type]
    sunk = {s for e in ts.events if e.kind == "foundered" for s in e.ships}
    assert set(ts.world.ships) == set(w.ships) - sunk  # type: ignore[attr-defined]
    for s in ts.world.ships.values():
        assert _valid(s.location), s
        assert 0 <= s.hull < 5 and 0 <= s.rigging <= 5
    for loc in {s.location for s in ts.world.ships.values() if not isinstance(s.location, InAtlantic)}:
        stations = sorted({s.station for s in ts.world.ships.values() if s.location == loc})
        assert stations == list(range(len(stations)))
    assert set(ts.world.winds) == set(TOY_MAP.sea_areas)


@pytest.mark.parametrize("seed", range(12))
def test_only_ships_with_join_allies_join(seed: int) -> None:
    """Rule 6.9 (and 4.6 "More Details"): Join Allies is each ship's own box;
    no ship without it (or ordered to evade) is ever reported joined, even in
    a group whose lead joins (a crowded world, so mixed groups are common)."""
    w, orders = _random_world(seed, 300)
    ts = run(w, orders, seed=seed)  # type: ignore[arg-type]
    by_id = {o.ship_id: o.contact for o in orders}
    joined = [sid for e in ts.events if e.kind == "joined_allies" for sid in e.ships]
    assert joined, "the random worlds should exercise joining"
    for sid in joined:
        assert by_id[sid].join_allies and by_id[sid].mode is not ContactMode.EVADE, sid


@pytest.mark.parametrize("seed", range(4))
def test_same_inputs_same_bytes(seed: int) -> None:
    w, orders = _random_world(seed, 60)
    a = run(w, orders, seed=seed)  # type: ignore[arg-type]
    b = run(w, orders, seed=seed)  # type: ignore[arg-type]
    assert canonical_json(to_plain(a.world)) == canonical_json(to_plain(b.world))
    assert canonical_json(to_plain(a.events)) == canonical_json(to_plain(b.events))


@pytest.mark.parametrize("seed", range(4))
def test_peace_turns_keep_the_world_whole(seed: int) -> None:
    w, orders = _random_world(seed, 60, kind=TurnKind.PEACE)
    ts = run(w, orders, seed=seed)  # type: ignore[arg-type]
    assert set(ts.world.ships) == set(w.ships)  # type: ignore[attr-defined]
    assert all(_valid(s.location) for s in ts.world.ships.values())


def test_events_name_only_known_ships() -> None:
    w, orders = _random_world(99, 80)
    ts = run(w, orders, seed=3)  # type: ignore[arg-type]
    known = set(w.ships)  # type: ignore[attr-defined]
    for e in ts.events:
        assert set(e.ships) <= known and set(e.witnesses) <= known
        assert not set(e.ships) & set(e.witnesses)
    assert DIPLOMACY is w.diplomacy  # type: ignore[attr-defined]
    assert CTX.map is TOY_MAP
