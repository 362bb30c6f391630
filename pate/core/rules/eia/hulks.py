"""Hulks (rule 12.2.8 of the EiA advanced naval rules).

A disabled ship that reached port is a hulk: inactive, in the harbor, with
``Ship.hulk`` set.  It fights only in port raids (12.2.8.1, in the engine);
it is destroyed when an enemy land force takes its port, and rolled for when
the port changes hands otherwise (12.2.8.2, :func:`hulks_when_port_changes`,
called by ``garrison.capture_port``); the naval minister's
"reactivate" order refits it (12.2.8.3): ``refit_turns`` campaign turns and
``refit_stores`` of the port's stores, PATE's measure for EiA's "$5 and 1
manpower" and "three months" (docs/rules/eia.md).
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eia.params import EiaRules
from pate.core.world.ships import InPort, Ship, ship_id


def hulks_in(ts: TurnState, port: str) -> list[Ship]:
    return sorted(
        (
            s
            for s in ts.world.ships.values()
            if s.hulk and isinstance(s.location, InPort) and s.location.port == port
        ),
        key=lambda s: s.id,
    )


def destroy_taken_hulks(ts: TurnState, port: str, captor: str, phase: Phase) -> TurnState:
    """12.2.8.2: "If any enemy land force occupies a port with hulks in it, all such are destroyed." """
    doomed = [s for s in hulks_in(ts, port) if not ts.world.diplomacy.allied(s.state, captor)]
    if not doomed:
        return ts
    events = [
        Event(
            phase,
            "hulk_port_changed",
            (s.id,),
            port,
            (),
            {"fate": "destroyed", "to": captor, "rule": "12.2.8.2"},
        )
        for s in doomed
    ]
    world = ts.world.with_ships({}, tuple(s.id for s in doomed))
    return replace(ts, world=world, orders={k: v for k, v in ts.orders.items() if k not in world.ships}).emit(
        *events
    )


def hulks_change_hands(
    ts: TurnState,
    rules: EiaRules,
    port: str,
    new_owner: str,
    *,
    friends_garrison: bool,
    phase: Phase,
    rng: Rng,
    only: str | None = None,
) -> TurnState:
    """12.2.8.2: a port changing hands by cession, or a broken alliance: one
    die per hulk, 1-3 destroyed, 4-6 to the port's new owner (sunk instead
    when friendly troops garrison the port)."""
    changed: dict[str, Ship] = {}
    removed: list[str] = []
    events: list[Event] = []
    used = set(ts.world.ships)
    for s in hulks_in(ts, port):
        if ts.world.diplomacy.allied(s.state, new_owner) or (only is not None and s.id != only):
            continue
        roll = rng.randint(1, 6)
        removed.append(s.id)
        if roll <= rules.hulk_destroyed_upto or friends_garrison:
            events.append(
                Event(phase, "hulk_port_changed", (s.id,), port, (), {"fate": "destroyed", "roll": roll})
            )
            continue
        n = 1
        while ship_id(new_owner, n, s.type) in used:
            n += 1
        new = replace(
            s, id=ship_id(new_owner, n, s.type), state=new_owner, number=n, commander=None, deputy=None
        )
        used.add(new.id)
        changed[new.id] = new
        events.append(
            Event(
                phase,
                "hulk_port_changed",
                (s.id, new.id),
                port,
                (),
                {"fate": "transferred", "roll": roll, "to": new.id},
            )
        )
    return replace(ts, world=ts.world.with_ships(changed, tuple(removed))).emit(*events)


def hulks_when_port_changes(
    ctx: TurnContext,
    ts: TurnState,
    port: str,
    new_owner: str,
    *,
    occupied: bool,
    phase: Phase,
    rng: Rng | None,
) -> TurnState:
    """12.2.8.2, both sentences, for a port passing to ``new_owner``.

    ``occupied``: a land force of the new owner took it (PATE's garrison
    battle, or GITM's land game reporting the city held): "If any enemy land
    force occupies a port with hulks in it, all such are destroyed."
    Otherwise (conquest or cession, a broken alliance: the port changes hands
    with no enemy troops in it) one die per hulk, ``rng`` required; hulks are
    "sunk" instead of transferred while troops friendly to the hulks' state
    garrison the port.  No hulks (every PATE campaign): nothing happens.
    """
    hulks = hulks_in(ts, port)
    if not hulks:
        return ts
    if occupied:
        return destroy_taken_hulks(ts, port, new_owner, phase)
    if rng is None:
        raise ValueError("a port changing hands without occupation rolls for its hulks: rng required")
    world = ts.world
    garrison = {world.unit_state(u) for u in world.ports[port].garrison} if port in world.ports else set()
    for s in hulks:  # one roll each, in id order; the garrison question is asked per hulk
        friends = any(world.diplomacy.allied(g, s.state) and g != new_owner for g in garrison)
        ts = hulks_change_hands(
            ts,
            EiaRules.from_rules(ctx.rules),
            port,
            new_owner,
            friends_garrison=friends,
            phase=phase,
            rng=rng,
            only=s.id,
        )
    return ts


def refit(ctx: TurnContext, ts: TurnState, ship: Ship, ready_turn: int, phase: Phase) -> TurnState:
    """12.2.8.3: refitted in a friendly port; the cost is taken from the port's
    stores, and the hulk becomes a ship again from ``ready_turn``."""
    rules = EiaRules.from_rules(ctx.rules)
    assert isinstance(ship.location, InPort)
    name = ship.location.port
    port = ts.world.ports.get(name)
    if port is None or not ts.world.diplomacy.allied(ship.state, port.controller):
        ev = Event(
            phase,
            "refit_refused",
            (ship.id,),
            name,
            (),
            {"reason": "not a friendly port", "rule": "12.2.8.3"},
        )
        return ts.emit(ev)
    if port.stores < rules.refit_stores:
        data = {"reason": "not enough stores", "needed": rules.refit_stores, "rule": "12.2.8.3"}
        return ts.emit(Event(phase, "refit_refused", (ship.id,), name, (), data))
    crew_needed = ctx.rules.ship_class(ship.type).min_crew
    if ship.crew < crew_needed:
        # "and 1 manpower unit": the men to make her seaworthy (docs/rules/eia.md)
        data = {"reason": "not enough crew", "needed": crew_needed, "rule": "12.2.8.3"}
        return ts.emit(Event(phase, "refit_refused", (ship.id,), name, (), data))
    world = replace(
        ts.world, ports={**ts.world.ports, name: replace(port, stores=port.stores - rules.refit_stores)}
    )
    world = world.with_ships({ship.id: replace(ship, reactivates_turn=ready_turn)})
    data = {"ready_turn": ready_turn, "stores": rules.refit_stores, "rule": "12.2.8.3"}
    return replace(ts, world=world).emit(Event(phase, "refit_begun", (ship.id,), name, (), data))
