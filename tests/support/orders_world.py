"""Small worlds on the real map for the order desk's tests.

Ships are built directly from the dataclasses; each state's players are
``<state>_cmd`` (commander of all its ships), ``<state>_dep`` (deputy) and
``<state>_min`` (naval minister); ``ga`` is a game administrator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from pate.core.orders.effective import Author, SubmittedOrder
from pate.core.orders.model import ShipOrder
from pate.core.rules.validation.orders import Actor, Refusal, validate_order
from pate.core.world.diplomacy import Diplomacy
from pate.core.world.ships import AtSea, InAtlantic, InPort, Location, Ship, ShipType, parse_ship_id
from pate.core.world.state import PortState, Role, TurnKind, WorldState
from pate.datafiles import load_nations, load_rule_data, load_world_map

MAP = load_world_map()
RULES = load_rule_data()
NATIONS = load_nations()

# 1805: Britain at war with France and Spain, who are actively allied.
WARS = (("BR", "FR"), ("BR", "SP"))
ALLIANCES = (("FR", "SP"),)

_CREW = {ShipType.FL: 800, ShipType.SL: 600, ShipType.FR: 225, ShipType.TR: 500}
_MARINES = {ShipType.FL: 200, ShipType.SL: 150, ShipType.FR: 25, ShipType.TR: 0}


def sea(area: str, tactical: int = 1) -> AtSea:
    return AtSea(area, tactical)


def harbor(port: str) -> InPort:
    return InPort(port, True)


def coastal(port: str) -> InPort:
    return InPort(port, False)


def atlantic(destination: str = "SWA", group: str = "g1") -> InAtlantic:
    return InAtlantic(destination, 3, group)


def ship(sid: str, loc: Location, **changes: object) -> Ship:
    parsed = parse_ship_id(sid)
    assert parsed is not None, sid
    state, number, type_ = parsed
    s = Ship(
        id=sid,
        state=state,
        type=type_,
        number=number,
        name=sid.title(),
        location=loc,
        base="Brest",
        crew=_CREW[type_],
        marines=_MARINES[type_],
        capacity=5000 if type_ is ShipType.TR else 0,
        commander=f"{state.lower()}_cmd",
        deputy=f"{state.lower()}_dep",
    )
    return replace(s, **changes)  # type: ignore[arg-type]


def world(
    ships: Iterable[Ship], *, kind: TurnKind = TurnKind.CAMPAIGN, controllers: dict[str, str] | None = None
) -> WorldState:
    """The ships on the real map in 1805; ``controllers`` changes who holds a port."""
    held = controllers or {}
    ports = {name: PortState(name, held.get(name, p.controller), p.stores) for name, p in MAP.ports.items()}
    return WorldState(
        campaign="test",
        turn=1,
        turns=15,
        seed=1,
        kind=kind,
        diplomacy=Diplomacy.build(dict(NATIONS.states), WARS, ALLIANCES),
        players={},
        ships={s.id: s for s in ships},
        ports=ports,
        winds={},
    )


def commander(state: str) -> Actor:
    return Actor(f"{state.lower()}_cmd", state, frozenset({Role.COMMANDER}))


def deputy(state: str) -> Actor:
    return Actor(f"{state.lower()}_dep", state, frozenset({Role.COMMANDER}))


def minister(state: str) -> Actor:
    return Actor(f"{state.lower()}_min", state, frozenset({Role.NAVAL_MINISTER}))


ADMIN = Actor("ga", None, frozenset({Role.ADMIN}))


# Set by tests/cases/orders/conftest.py to run the rule cases through the order
# service's own code on a real database (tests/support/desk_mode.py).
DESK: Callable[[ShipOrder, WorldState, Actor], list[Refusal]] | None = None


def check(order: ShipOrder, w: WorldState, actor: Actor | None = None) -> list[Refusal]:
    """The refusals of an order sent by the ship's commander (or ``actor``)."""
    if actor is None:
        state = w.ships[order.ship_id].state if order.ship_id in w.ships else "BR"
        actor = commander(state)
    if DESK is not None:
        return DESK(order, w, actor)
    return validate_order(order, actor, w, MAP, RULES)


def refusal(refusals: list[Refusal], field: str) -> Refusal:
    """The one refusal of ``field``; fails the test when there is none."""
    found = [r for r in refusals if r.field == field]
    assert found, f"no refusal of {field}; got {refusals}"
    return found[0]


def submitted(*entries: tuple[ShipOrder, Author]) -> list[SubmittedOrder]:
    """Orders in the order they reached the desk."""
    return [SubmittedOrder(order, author, seq) for seq, (order, author) in enumerate(entries)]
