"""Worlds on the real map for the turn-sequence rule cases (rules 2.5 to 2.7,
3.1 to 3.6, 3.9, recovered section 9), resolved by the real
:func:`pate.core.rules.turn.resolve_turn`.

Ships come from ``tests.support.orders_world`` (1805: Britain at war with
France and Spain, France and Spain actively allied).  Winds are set so that
movement out of and into the ports used here is certain where a case needs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.model import AdminKind, AdminOrder, Amphibious, Movement, ShipOrder, StoresMove
from pate.core.rules.context import TurnContext
from pate.core.rules.turn import TurnResult, resolve_turn
from pate.core.world.geography import Direction, WindStrength
from pate.core.world.ships import Ship
from pate.core.world.state import Headquarters, LandUnit, Wind, WorldState
from pate.engine.context import turn_context
from tests.support.orders_world import coastal, harbor, sea, ship
from tests.support.orders_world import world as base_world

__all__ = ["coastal", "harbor", "sea", "ship"]

CTX: TurnContext = turn_context()
# An east wind everywhere: ships leave Brest (exit west) downwind.
EAST = Wind(Direction.EAST, WindStrength.MODERATE)


def world(
    ships: Iterable[Ship],
    *,
    ports: Mapping[str, Mapping[str, Any]] | None = None,
    units: Iterable[LandUnit] = (),
    **changes: Any,
) -> WorldState:
    w = base_world(ships)
    new_ports = dict(w.ports)
    for name, fields in (ports or {}).items():
        new_ports[name] = replace(new_ports[name], **fields)
    winds = {code: EAST for code in CTX.map.sea_areas}
    return replace(w, ports=new_ports, winds=winds, land_units={u.id: u for u in units}, **changes)


def run(
    w: WorldState,
    *orders: ShipOrder,
    moves: Sequence[StoresMove] = (),
    ctx: TurnContext | None = None,
) -> TurnResult:
    return resolve_turn(ctx or CTX, w, {o.ship_id: o for o in orders}, moves)


def events(result: TurnResult, kind: str, phase: Phase | None = None) -> list[Event]:
    return [e for e in result.events if e.kind == kind and (phase is None or e.phase is phase)]


def only(result: TurnResult, kind: str, phase: Phase | None = None) -> Event:
    found = events(result, kind, phase)
    assert len(found) == 1, f"{kind}: {found}"
    return found[0]


def infantry(uid: str, men: int, batteries: int = 0) -> LandUnit:
    return LandUnit(uid, uid[:2], infantry=men, batteries=batteries)


def cavalry(uid: str, men: int, batteries: int = 0) -> LandUnit:
    return LandUnit(uid, uid[:2], cavalry=men, batteries=batteries)


def artillery(uid: str, men: int) -> LandUnit:
    return LandUnit(uid, uid[:2], artillery=men)


def corps_hq(uid: str, supplies: int) -> LandUnit:
    return LandUnit(uid, uid[:2], headquarters=Headquarters.CORPS, supplies=supplies)


def load(sid: str, *units: str, supplies: int = 0, **kw: Any) -> ShipOrder:
    return ShipOrder(sid, amphibious=Amphibious(load_units=units, load_supplies=supplies), **kw)


def unload(sid: str, *units: str, supplies: int = 0, **kw: Any) -> ShipOrder:
    return ShipOrder(sid, amphibious=Amphibious(unload_units=units, unload_supplies=supplies), **kw)


def admin(sid: str, kind: AdminKind, target: str | None = None, amount: int = 0) -> ShipOrder:
    return ShipOrder(sid, admin=(AdminOrder(kind, target, amount),))


def move(sid: str, *areas: str, port: str | None = None, harbor: bool = False, **kw: Any) -> ShipOrder:
    return ShipOrder(sid, movement=Movement(sea_areas=areas, port=port, harbor=harbor), **kw)
