"""Random naval operations (EiA new naval rules, docs/rules/eia-operations.md) for a lead ship,
as a player could write them in its order block (``operation ...``, docs/formats/orders.md).

Plausible ones are drawn from what the fleet may declare (a kind it may choose where it is, the
nearest ports and sea areas, the corps aboard, a chain from its port's sea areas); odd ones name a
ghost corps, a destination off the map or out of range, a chain that skips borders or runs too
long, a kind a fleet at sea may not choose, or come from an attached ship or with a ``move`` line.
Either may carry column orders (``column ...`` lines): plausible ones split the fleet as the
text allows; odd ones leave a column empty, name a ghost ship or admiral, or overrun a limit.
The desk must refuse the odd ones and the phase resolve the rest, never fail.
"""

from __future__ import annotations

import random
from dataclasses import replace

from pate.core.orders.model import Movement, ShipOrder
from pate.core.orders.operation import (
    AT_SEA_KINDS,
    ATTACK_TARGETS,
    WITH_CHAIN,
    WITH_CORPS,
    Column,
    ColumnAction,
    ColumnStep,
    Condition,
    Operation,
    OpKind,
)
from pate.core.rules.eiaops.declare import fleet_of
from pate.core.rules.eiaops.model import Fleet
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.steps import distances
from pate.core.world.geography import WorldMap
from pate.core.world.ships import ShipType
from pate.core.world.state import WorldState

GHOST_CORPS = ("FR99IN", "no-such-corps", "X" * 32)


class OperationMaker:
    """Operations for the lead ships of one turn's world."""

    def __init__(self, rng: random.Random, world: WorldState, wmap: WorldMap, rules: OpsRules) -> None:
        self.rng, self.world, self.map, self.rules = rng, world, wmap, rules
        self.areas = sorted(wmap.sea_areas)
        self.ports = sorted(wmap.ports)

    def declare(self, order: ShipOrder, odd: float) -> ShipOrder:
        """``order`` with an operation instead of its movement: a plausible one, or with chance
        ``odd`` (or when the ship leads no fleet) an implausible one."""
        ship = self.world.ships.get(order.ship_id)
        fleet = fleet_of(self.world, ship) if ship is not None and ship.attached_to is None else None
        if fleet is not None and self.rng.random() >= odd:
            op = self.plausible(fleet)
            if self.rng.random() < 0.5:
                op = replace(op, columns=self.columns(fleet))
            return replace(order, movement=Movement(), attach_to=None, detach=False, operation=op)
        return self.odd(order)

    def columns(self, fleet: Fleet) -> tuple[Column, ...]:
        """Column orders for the fleet: its ships split at random, transport groups last in one
        column, an admiral of the fleet's at the head of one; plans of any steps."""
        r = self.rng
        ships = [s for s in fleet.ships if s in self.world.ships]
        carrying = [s for s in ships if self.world.ships[s].type is ShipType.TR]
        warships = [s for s in ships if s not in carrying]
        n = r.randint(1, max(1, min(len(warships), self.rules.max_columns)))
        cols: list[list[str]] = [[] for _ in range(n)]
        for i, s in enumerate(warships):
            cols[i if i < n else r.randrange(n)].append(s)
        r.choice(cols).extend(carrying)
        admirals = sorted({c for s in ships if (c := self.world.ships[s].commander) in self.world.admirals})
        lead = r.randrange(n) if admirals else -1
        return tuple(
            Column(tuple(c), r.choice(admirals) if i == lead else None, self._plan(n))
            for i, c in enumerate(cols)
            if c
        )

    def _plan(self, n: int) -> tuple[ColumnStep, ...]:
        r = self.rng
        steps = []
        for _ in range(r.choice((0, 1, 2, 3))):
            action = r.choice(list(ColumnAction))
            if action is ColumnAction.ATTACK:
                target = r.choice((*sorted(ATTACK_TARGETS), "1", "2", "6"))
            elif action is ColumnAction.PROTECT:
                target = r.choice(("carrying", *(str(i) for i in range(1, n + 1))))
            else:
                target = ""
            steps.append(ColumnStep(action, target, r.choice(list(Condition))))
        return tuple(steps)

    def odd_columns(self, order: ShipOrder) -> tuple[Column, ...]:
        """Column orders the desk refuses: an empty column, a ghost ship or admiral, a ship twice,
        too many columns or steps, a target that is none."""
        r = self.rng
        sid = order.ship_id
        return r.choice(
            (
                lambda: (Column(()),),
                lambda: (Column((sid, "ZZ99SL")),),
                lambda: (Column((sid,), admiral=r.choice(("nobody", "x" * 41, ""))),),
                lambda: (Column((sid,)), Column((sid,))),
                lambda: tuple(Column((sid,)) for _ in range(r.choice((7, 50)))),
                lambda: (Column((sid,), plan=(ColumnStep(ColumnAction.EVADE),) * 7),),
                lambda: (
                    Column(
                        (sid,), plan=(ColumnStep(ColumnAction.PROTECT, r.choice(("9", "0", "facing", "1"))),)
                    ),
                ),
                lambda: (
                    Column(
                        (sid,), plan=(ColumnStep(ColumnAction.ATTACK, r.choice(("", "10", "carrying "))),)
                    ),
                ),
                lambda: (Column(("not a ship",)),),
            )
        )()

    def plausible(self, fleet: Fleet) -> Operation:
        """A kind the fleet may choose where it is, with its nearest destinations, its corps and a
        chain from its port: mostly legal, the desk judging the rest. (``legal_operations``,
        which checks every candidate, would cost more than the rest of the turn.)"""
        r = self.rng
        kind = r.choice(sorted(AT_SEA_KINDS if fleet.at_sea else OpKind))
        near = distances(self.map, fleet.place, self.rules.rebase_steps)
        by_distance = sorted(near, key=lambda n: (near[n], n))
        ports = [n for n in by_distance if n in self.map.ports and n != fleet.place]
        areas = [n for n in by_distance if n in self.map.sea_areas]
        corps = [c for s in fleet.ships if s in self.world.ships for c in self.world.ships[s].cargo.units]
        if corps and not fleet.at_sea and r.random() < 0.5:  # a fleet with corps aboard mostly uses them
            kind = r.choice((OpKind.TRANSPORT, OpKind.INVASION, OpKind.SUPPLY))
        port = self.map.ports.get(fleet.place)
        if kind is OpKind.REBASE:
            blockade = bool(ports) and r.random() < 0.3
            places = ports[:16] if blockade or not areas or r.random() < 0.6 else areas[:4]
            return Operation(kind, to=r.choice(places or [fleet.place]), blockade=blockade)
        if kind in WITH_CORPS and corps and ports:
            steps = self.rules.transport_steps if kind is OpKind.TRANSPORT else self.rules.invasion_steps
            ports = [p for p in ports if near[p] <= steps] or ports  # within the kind's own reach
            friendly = [p for p in ports[:24] if self._friendly(fleet.state, p)]
            wanted = friendly if kind is OpKind.TRANSPORT else [p for p in ports[:24] if p not in friendly]
            return Operation(
                kind,
                corps=r.choice(corps),
                to=r.choice(wanted if wanted and r.random() < 0.9 else ports),
                return_to_base=r.random() < 0.3,
            )
        if kind in WITH_CHAIN and port is not None:
            chain = [r.choice(port.reachable_sea_areas)]
            while r.random() < 0.4:
                chain.append(r.choice(sorted(self.map.sea_areas[chain[-1]].adjacent)))
            return Operation(kind, chain=tuple(chain))
        return Operation(kind if kind not in WITH_CORPS | WITH_CHAIN else OpKind.PATROL)

    def odd(self, order: ShipOrder) -> ShipOrder:
        r = self.rng
        far, port = r.choice(self.areas), r.choice(self.ports)
        chain = tuple(r.choice(self.areas) for _ in range(r.choice((2, 5, 29))))
        kind = r.choice(list(OpKind))
        choices = (
            lambda: Operation(kind),  # without what the kind needs, or a kind the fleet may not choose
            lambda: Operation(OpKind.REBASE, to=r.choice((far, port, "Atlantis", "ZZZ"))),
            lambda: Operation(OpKind.REBASE, to=port, blockade=True),
            lambda: Operation(OpKind.REBASE, to=far, blockade=True),
            lambda: Operation(
                r.choice((OpKind.TRANSPORT, OpKind.INVASION)), corps=r.choice(GHOST_CORPS), to=port
            ),
            lambda: Operation(OpKind.INVASION, corps=self._any_corps(), to=far),
            lambda: Operation(r.choice((OpKind.PROTECT_TRADE, OpKind.SUPPLY)), chain=chain),
            lambda: Operation(OpKind.SUPPLY, chain=()),
            lambda: Operation(OpKind.PATROL, corps=self._any_corps(), to=far, chain=(far,)),
            # going home, or a place in the round of declaring, where the kind or the state has none
            lambda: Operation(kind, return_to_base=True, declare_at=r.choice((0, 1, 9, 10, 2**31))),
        )
        operation = r.choice(choices)()
        if r.random() < 0.3:
            operation = replace(operation, columns=self.odd_columns(order))
        roll = r.random()
        if roll < 0.15:  # beside a move line
            return replace(order, operation=operation)
        if roll < 0.25:  # from a ship attached to another
            others = [s for s in sorted(self.world.ships) if s != order.ship_id]
            if others:
                return replace(order, movement=Movement(), attach_to=r.choice(others), operation=operation)
        return replace(order, movement=Movement(), operation=operation)

    def _friendly(self, state: str, port: str) -> bool:
        held = self.world.ports.get(port)
        return held is not None and self.world.diplomacy.allied(state, held.controller)

    def _any_corps(self) -> str:
        units = sorted(self.world.land_units)
        return self.rng.choice(units) if units and self.rng.random() < 0.7 else self.rng.choice(GHOST_CORPS)
