"""Random orders from the state of a campaign, as players could send them.

Every order kind of docs/formats/orders.md is drawn from what the world offers
the ship (adjacent sea areas, ports it can reach, ships alongside, units in the
port), and with chance ``odd`` one part of the order is made implausible: a
target that is the ship itself, elsewhere, of another state or no ship at all,
a sea area far away, numbers out of range.  The order desk must refuse those,
never fail on them.  Under the EiA new naval rules lead ships declare naval
operations (``tests.fuzz.operations``).  Naval ministers also move stores (3.5) and assign
officers (2.3); they, an administrator and other players order ships already
ordered by their commanders (4.1 precedence).  All draws come from one
``random.Random``, so a campaign is repeated exactly from its seed.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pate.core.orders.model import (
    AdminKind,
    AdminOrder,
    Aim,
    Amphibious,
    Combat,
    CombatStance,
    Commerce,
    Contact,
    ContactMode,
    FleeTo,
    Gauge,
    Line,
    Movement,
    Range,
    ShipOrder,
    StoresMove,
)
from pate.core.orders.refusal import Actor, authority
from pate.core.rules.validation.assign import Assignment
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Ship, ShipType, contact_key
from pate.core.world.state import Player, Role, WorldState
from tests.fuzz.operations import OperationMaker

GHOSTS = ("FR99SL", "BR77FR", "SP40TR", "XX1FL")  # well-formed ids of no ship
HUGE = 999_999_999  # the largest number the order file format takes


@dataclass
class Submission:
    """What one player sends in a turn."""

    actor: Actor
    orders: list[ShipOrder] = field(default_factory=list)
    stores_moves: list[StoresMove] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)


class OrderMaker:
    """The orders of one turn, drawn from the world at its start."""

    def __init__(
        self,
        rng: random.Random,
        world: WorldState,
        wmap: WorldMap,
        odd: float = 0.15,
        operations: OperationMaker | None = None,
    ) -> None:
        self.rng, self.world, self.map, self.odd = rng, world, wmap, odd
        self.operations = operations  # a lead ship's naval operation (eia-operations)
        self.eia = world.naval_rules == "eia-operations"
        self.ids = sorted(world.ships)
        self.places: dict[object, list[Ship]] = defaultdict(list)
        for sid in self.ids:
            ship = world.ships[sid]
            self.places[contact_key(ship.location)].append(ship)

    def turn(self) -> list[Submission]:
        return [self.for_player(self.world.players[pid]) for pid in sorted(self.world.players)]

    def for_player(self, player: Player) -> Submission:
        actor = Actor.of(player)
        r = self.rng
        sub = Submission(actor)
        mine = [self.world.ships[s] for s in self.ids if self.world.ships[s].commander == player.id]
        mine += [
            self.world.ships[s]
            for s in self.ids
            if self.world.ships[s].deputy == player.id and r.random() < 0.3
        ]
        if actor.admin or Role.NAVAL_MINISTER in actor.roles:
            ordered = [self.world.ships[s] for s in self.ids if authority(actor, self.world.ships[s])]
            mine += r.sample(ordered, min(len(ordered), r.randint(0, 4)))
        if self.ids and r.random() < 0.2:  # someone else's ship: refused, or ordered twice
            mine.append(self.world.ships[r.choice(self.ids)])
        sub.orders = [self.ship_order(s) for s in mine if r.random() < 0.85]
        if r.random() < 0.05:
            sub.orders.append(ShipOrder(r.choice(GHOSTS)))
        if Role.NAVAL_MINISTER in actor.roles and player.state is not None:
            sub.stores_moves = [self.stores_move(player.state) for _ in range(r.choice((0, 0, 1, 2)))]
            sub.assignments = [self.assignment(player.state) for _ in range(r.choice((0, 0, 0, 1)))]
        return sub

    # -- one ship ---------------------------------------------------------

    def ship_order(self, ship: Ship) -> ShipOrder:
        r = self.rng
        if not ship.active:
            if r.random() < 0.8:
                return ShipOrder(ship.id, admin=(AdminOrder(AdminKind.REACTIVATE),))
            return ShipOrder(ship.id, movement=self.movement(ship))
        contact = self.contact()
        commerce = r.choice(list(Commerce)) if r.random() < 0.3 else Commerce.IGNORE
        if commerce is not Commerce.IGNORE and r.random() < 0.9:  # the recovered rule on raiders and convoys
            mode = ContactMode.PURSUE if commerce is Commerce.RAID else ContactMode.ACCEPT
            contact = replace(contact, mode=mode, join_allies=True, pursue_into_ports=True)
            contact = contact if mode is ContactMode.PURSUE else replace(contact, minimum=None, maximum=None)
        order = ShipOrder(
            ship.id,
            movement=self.movement(ship) if r.random() < 0.6 else Movement(),
            contact=contact,
            combat=self.combat(),
            commerce=commerce,
            stores=self.stores(ship),
            amphibious=self.amphibious(ship) if ship.type is ShipType.TR else Amphibious(),
            admin=self.admin(ship),
        )
        if any(a.kind in (AdminKind.SCUTTLE, AdminKind.INACTIVATE) for a in order.admin):
            order = replace(order, movement=Movement())  # 2.6, 4.10: such a ship stays
        order = self.attachment(order, ship)
        if (
            self.operations is not None
            and ship.attached_to is None
            and r.random() < (0.3 if self.eia else 0.01)
        ):
            return self.operations.declare(order, self.odd if self.eia else 1.0)  # none under PATE's rules
        return self.oddity(order, ship) if r.random() < self.odd else order

    def movement(self, ship: Ship) -> Movement:
        r, loc = self.rng, ship.location
        if isinstance(loc, InPort):
            port = self.map.ports.get(loc.port)
            if port is None or r.random() < 0.15:
                return Movement(port=loc.port, harbor=not loc.harbor)  # shift (6.1)
            areas = [r.choice(port.reachable_sea_areas)]
        elif isinstance(loc, AtSea):
            areas = [r.choice(sorted(self.map.sea_areas[loc.area].adjacent | {loc.area}))]
        else:
            return Movement(sea_areas=(r.choice(sorted(self.map.sea_areas)),))
        if r.random() < 0.5:
            areas.append(r.choice(sorted(self.map.sea_areas[areas[-1]].adjacent)))
        ports = self.map.ports_reachable_from(areas[-1])
        into = r.choice(ports) if ports and r.random() < 0.35 else None
        enemy = into is None and r.random() < 0.05
        harbor = into is not None and r.random() < 0.5
        return Movement(tuple(areas), into, enemy, harbor=harbor, sail_alone=r.random() < 0.1)

    def contact(self) -> Contact:
        r = self.rng
        mode = r.choice(list(ContactMode))

        def count() -> int | None:
            return None if mode is ContactMode.ACCEPT or r.random() < 0.6 else r.randint(0, 12)

        return Contact(
            mode=mode,
            minimum=count(),
            maximum=count(),
            join_allies=mode is not ContactMode.EVADE and r.random() < 0.8,
            gauge=r.choice(list(Gauge)),
            pursue_into_ports=mode is not ContactMode.PURSUE or r.random() < 0.7,
        )

    def combat(self) -> Combat:
        r = self.rng
        return Combat(
            r.choice(list(CombatStance)),
            r.choice(list(Range)),
            r.choice(list(Line)),
            r.choice(list(Aim)),
            r.choice(list(FleeTo)),
        )

    def stores(self, ship: Ship) -> int | None:
        r = self.rng
        if r.random() < 0.6:
            return None
        return r.randint(0, 60 if ship.type is ShipType.TR else 24)

    def attachment(self, order: ShipOrder, ship: Ship) -> ShipOrder:
        r = self.rng
        roll = r.random()
        if roll < 0.15:
            alongside = [s for s in self.places[contact_key(ship.location)] if s.id != ship.id]
            leads = [s for s in alongside if s.attached_to is None and s.active]
            alongside = leads if leads and r.random() < 0.9 else alongside  # a lead is what 4.4 wants
            if alongside:
                return replace(order, attach_to=r.choice(alongside).id)
        if roll > 0.95 and ship.attached_to is not None:
            return replace(order, detach=True)
        return order

    def amphibious(self, ship: Ship) -> Amphibious:
        r, loc = self.rng, ship.location
        if not isinstance(loc, InPort) or r.random() < 0.6:
            return Amphibious()
        port = self.world.ports.get(loc.port)
        quay = list(port.garrison) if port is not None else []
        if (ship.cargo.units or ship.cargo.supplies) and r.random() < 0.6:
            units = r.sample(list(ship.cargo.units), r.randint(0, len(ship.cargo.units)))
            return Amphibious(unload_units=tuple(units), unload_supplies=r.randint(0, ship.cargo.supplies))
        supplies = port.supplies if port is not None else 0
        units = r.sample(quay, min(len(quay), r.randint(0, 2)))
        return Amphibious(load_units=tuple(units), load_supplies=r.randint(0, supplies))

    def admin(self, ship: Ship) -> tuple[AdminOrder, ...]:
        r = self.rng
        roll = r.random()
        alongside = [
            s for s in self.places[contact_key(ship.location)] if s.id != ship.id and s.state == ship.state
        ]
        if ship.type is ShipType.TR:
            groups = [s for s in alongside if s.type is ShipType.TR]
            if roll < 0.12 and ship.capacity >= 4000:
                return (AdminOrder(AdminKind.DIVIDE, amount=r.randint(2000, ship.capacity - 2000)),)
            if roll < 0.3 and groups:
                return (AdminOrder(AdminKind.COMBINE, target=r.choice(groups).id),)
            return ()
        crews = [s for s in alongside if s.type is not ShipType.TR]
        if roll < 0.06 and crews:
            transfer = AdminOrder(AdminKind.TRANSFER_CREW, target=r.choice(crews).id, amount=r.randint(1, 40))
            return (transfer, AdminOrder(AdminKind.SCUTTLE)) if r.random() < 0.2 else (transfer,)
        if roll < 0.07:
            return (AdminOrder(AdminKind.SCUTTLE),)
        if roll < 0.09 and isinstance(ship.location, InPort):
            return (AdminOrder(AdminKind.INACTIVATE),)
        return ()

    # -- implausible orders ------------------------------------------------

    def oddity(self, order: ShipOrder, ship: Ship) -> ShipOrder:
        """One part of the order made implausible."""
        r = self.rng
        anyone = r.choice(self.ids) if self.ids else ship.id
        far = r.choice(sorted(self.map.sea_areas))
        port = r.choice(sorted(self.map.ports))
        choices = (
            lambda: replace(order, attach_to=ship.id),
            lambda: replace(order, attach_to=anyone),
            lambda: replace(order, attach_to=r.choice(GHOSTS)),
            lambda: replace(order, attach_to=anyone, detach=True),
            lambda: replace(order, movement=Movement((far, far, far))),
            lambda: replace(order, movement=Movement((far,), port, harbor=True)),
            lambda: replace(order, movement=Movement(("ZZZ",), "Atlantis")),
            lambda: replace(order, movement=Movement(any_enemy_port=True, port=port)),
            lambda: replace(order, stores=r.choice((-1, 25, 61, HUGE))),
            lambda: replace(order, contact=Contact(ContactMode.EVADE, HUGE, -1, join_allies=True)),
            lambda: replace(order, contact=Contact(ContactMode.ACCEPT, 1, 2, pursue_into_ports=False)),
            lambda: replace(
                order, commerce=Commerce.RAID, contact=Contact(ContactMode.EVADE, join_allies=False)
            ),
            lambda: replace(order, admin=self.odd_admin(ship, anyone)),
            lambda: replace(order, amphibious=self.odd_amphibious(ship)),
        )
        return r.choice(choices)()

    def odd_admin(self, ship: Ship, anyone: str) -> tuple[AdminOrder, ...]:
        r = self.rng
        kind = r.choice(list(AdminKind))
        target = r.choice((ship.id, anyone, r.choice(GHOSTS), None))
        amount = r.choice((0, -5, 1000, ship.capacity, ship.capacity + 1, HUGE, r.randint(1, 300)))
        first = AdminOrder(kind, target, amount)
        if r.random() < 0.3:
            return (first, AdminOrder(r.choice(list(AdminKind)), anyone, amount))
        return (first,)

    def odd_amphibious(self, ship: Ship) -> Amphibious:
        r = self.rng
        unit = r.choice(("BR1IN", "FR2IN", "no such unit", "X" * 40))
        return r.choice(
            (
                Amphibious(load_units=(unit, unit)),
                Amphibious(load_units=(unit,), unload_units=(unit,)),
                Amphibious(unload_units=(unit,), unload_supplies=HUGE),
                Amphibious(load_supplies=-3, unload_supplies=2),
                Amphibious(load_units=("FR9IN",), load_supplies=HUGE),
            )
        )

    # -- the naval minister's orders ---------------------------------------

    def stores_move(self, state: str) -> StoresMove:
        r = self.rng
        held = sorted(n for n, p in self.world.ports.items() if p.controller == state) or sorted(
            self.world.ports
        )
        origin = r.choice(held)
        near = self._ports_near(origin)
        destination = r.choice(near) if near and r.random() < 0.8 else r.choice(sorted(self.map.ports))
        amount = r.randint(1, 60) if r.random() < 0.8 else r.choice((0, -1, 61, HUGE))
        if r.random() < 0.05:
            origin, destination = r.choice((("Atlantis", destination), (origin, origin)))
        return StoresMove(state, origin, destination, amount)

    def _ports_near(self, name: str) -> Sequence[str]:
        port = self.map.ports.get(name)
        if port is None:
            return ()
        areas = self.map.sea_areas[port.sea_area].adjacent | {port.sea_area}
        return sorted(p for a in sorted(areas) for p in self.map.connected_ports(a) if p != name)

    def assignment(self, state: str) -> Assignment:
        r = self.rng
        own = [s for s in self.ids if self.world.ships[s].state == state] or self.ids
        players = sorted(self.world.players)
        ours = [p for p in players if self.world.players[p].state == state]

        def pick() -> str | None:
            return r.choice((None, *ours, *ours, r.choice(players), "nobody"))

        ship = r.choice(own) if r.random() < 0.9 else r.choice((*self.ids, "FR99SL"))
        return Assignment(ship, pick(), pick())
