"""The admiral's naval operations under the EiA new naval rules (docs/rules/eia-operations.md).

Under ``naval_rules = "eia-operations"`` each fleet marker (a lead ship and what is attached to
it) takes one operation a turn, and PATE's movement orders are set aside.  Ships score under
these rules by taking trade ships (a Raid or Privateer that reaches an enemy route, N19-N22)
and by the battles of interceptions, so the admiral plays for that, from his own report, the
map and the rules data alone (docs/bots.md):

- a fleet in a friendly harbour with enemy trade within a raid's reach raids it (a lone
  frigate privateers, for the longer reach); one far from any enemy trade rebases to the
  friendly port nearest the enemy's routes; a cautious admiral raids only close by and
  otherwise protects his own trade or patrols;
- a transport group with a corps aboard carries it to another friendly port (Transport), or
  for an admiral who lands, into an enemy port where no enemy ship is known (Invasion);
- a fleet at sea or in coastal waters, which may only choose Naval Superiority or Rebase,
  rebases to the friendly port nearest the enemy's routes within the rule's steps (its base
  when it knows of no better), else into the sea area where it lies (always within reach).

Every fleet of two ships or more carries column orders for its battles (``pate.admiral.columns``).
An invading fleet goes home after landing (``return``): left in the enemy's sea area it would
meet his fleets alone; a transporting fleet stays in the friendly port it reached (the default).
Britain's place in the round of declaring (``declare N``) stays the default, last: orders are
simultaneous, so declaring earlier tells the admiral nothing, and an interceptor attacks
operations revealed before it or after alike (N40).

Naval Superiority costs money that only the naval minister sees and fights only other Naval
Superiority fleets (N36): the admiral leaves it to human players.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pate.admiral.columns import column_orders
from pate.admiral.cruisers import SAFE_WEIGHT
from pate.admiral.plan import Plan
from pate.admiral.squadrons import needs_home
from pate.admiral.view import OwnShip
from pate.core.orders.model import Commerce, Contact, ContactMode, Movement, ShipOrder
from pate.core.orders.operation import Operation, OpKind
from pate.core.rules.commerce import CommerceRules
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.steps import distances
from pate.core.world.state import EIA_OPERATIONS

OPERATIONS = EIA_OPERATIONS  # the naval rule set whose fleets declare operations
HUNT = Contact(mode=ContactMode.PURSUE, maximum=1)  # rule 4.6: a raider pursues; lone ships only
FAR = 99  # trade distance where no enemy route is within sight of the search
SEARCH = 14  # steps searched for enemy trade: beyond a privateer's best reach (3d6 averages 10.5)
RAID_REACH = 7  # a raid's 2d6 steps reach this far or more on seven rolls in twelve
CAUTIOUS_REACH = 4  # a cautious admiral raids only where a raid nearly always reaches
MOVE_GAIN = 2  # steps nearer the enemy's trade worth a turn spent rebasing


def with_operations(
    orders: list[ShipOrder], plan: Plan, rules: OpsRules, commerce: CommerceRules
) -> list[ShipOrder]:
    """``orders`` with an operation on every fleet marker's lead (a lead without an order of
    its own gets one that holds only the operation), no movement and no new attachment: under
    these rules a fleet moves by its operation alone, and more fleets make more raids.  A
    fleet sent to hunt merchants at sea raids commerce (rule 4.8) with every ship."""
    by_ship = {o.ship_id: replace(o, movement=Movement(), attach_to=None) for o in orders}
    view = plan.view
    ops = _Ops(plan, rules, commerce)
    leads = [s for s in view.ships if view.mine(s) and s.active and s.lead is None]
    for s in sorted(leads, key=lambda s: s.id):
        op = ops.operation(s)
        op = replace(op, columns=column_orders(ops.fleet(s), plan.level.blockade))
        if op.kind is OpKind.INVASION:
            op = replace(op, return_to_base=True)  # N18: "may stay", so it may go home
        by_ship[s.id] = replace(by_ship.get(s.id, ShipOrder(s.id)), operation=op)
        if op.kind is OpKind.REBASE and op.to in plan.map.sea_areas and ops.merchants(op.to) > 0:
            for t in ops.fleet(s):
                order = by_ship.get(t.id, ShipOrder(t.id))
                by_ship[t.id] = replace(order, commerce=Commerce.RAID, contact=HUNT)
    return [by_ship[k] for k in sorted(by_ship)]


@dataclass
class _Ops:
    plan: Plan
    rules: OpsRules
    commerce: CommerceRules
    trade_cache: dict[str, int] = field(default_factory=dict)
    merchant_cache: dict[str, float] = field(default_factory=dict)

    def operation(self, s: OwnShip) -> Operation:
        place = s.port if s.port is not None else s.area
        if any(needs_home(self.plan, t) for t in self.fleet(s)):
            home = self._home(s, place)
            if home is not None:
                return Operation(OpKind.REBASE, to=home)
        elif self._hunts_merchants(s):
            ground = self._hunting_ground(place)
            if ground is not None:
                return Operation(OpKind.REBASE, to=ground)
        if s.port is not None and s.harbor:
            return self._in_harbour(s)
        return self._at_sea(s)

    def _hunts_merchants(self, s: OwnShip) -> bool:
        """Frigates hunt merchants at sea (rule 4.8: their chance is the best); a bold
        admiral sends his ships of the line too."""
        fleet = self.fleet(s)
        if all(t.type == "FR" for t in fleet):
            return True
        return self.plan.level.blockade and any(t.type in ("SL", "FL") for t in fleet)

    def _hunting_ground(self, place: str) -> str | None:
        """The sea area within the Rebase steps with the most enemy merchants expected (then
        the nearest, then by code), where no enemy force above a frigate's match is known."""
        near = self._within(place)
        options = [
            (-self.merchants(a), d, a)
            for a, d in near.items()
            if a in self.plan.map.sea_areas and self.merchants(a) > 0 and self.plan.danger(a) <= SAFE_WEIGHT
        ]
        return min(options)[2] if options else None

    def _home(self, s: OwnShip, place: str) -> str | None:
        """Rules 3.3, 3.4: the base when it is a friendly port in reach, else the nearest."""
        friendly = self._friendly()
        near = self._within(place)
        if s.base in friendly and s.base in near:
            return s.base if s.base != place or not s.harbor else None
        ports = sorted((d, p) for p, d in near.items() if p in friendly)
        if not ports or (ports[0][1] == place and s.harbor):
            return None
        return ports[0][1]

    def merchants(self, area: str) -> float:
        """Enemy merchants expected in ``area`` (rule 4.8, data/rules/commerce.toml
        [spread]): each enemy state's trade shared evenly over the ports the map shows it
        holding."""
        if not self.merchant_cache:
            ports_of: dict[str, list[str]] = {}
            for p in self.plan.map.ports.values():
                if p.controller in self.plan.view.enemies:
                    ports_of.setdefault(p.controller, []).append(p.sea_area)
            for state, areas in sorted(ports_of.items()):
                share = self.commerce.trade_of(state) / len(areas)
                for a in areas:
                    self.merchant_cache[a] = self.merchant_cache.get(a, 0.0) + share
            self.merchant_cache.setdefault("", 0.0)
        return self.merchant_cache.get(area, 0.0)

    def _in_harbour(self, s: OwnShip) -> Operation:
        port = s.port or ""
        fleet = self.fleet(s)
        corps = [(c, t) for t in fleet for c in t.cargo]
        if corps:
            landing = self._corps_operation(port, corps[0][0])
            if landing is not None:
                return landing
        here = self.trade_distance(port)
        reach = RAID_REACH if self.plan.level.blockade else CAUTIOUS_REACH
        if here > reach:
            better = self._raiding_port(port)
            if better is not None and self.trade_distance(better) + MOVE_GAIN <= here:
                return Operation(OpKind.REBASE, to=better)
        if here <= reach or self.plan.level.blockade:
            lone_frigate = len(fleet) == 1 and s.type == "FR"
            return Operation(OpKind.PRIVATEER if lone_frigate else OpKind.RAID)
        own = self.plan.own_trade_areas
        guard = sorted(a for a in self.plan.map.ports[port].reachable_sea_areas if a in own)
        if guard:
            return Operation(OpKind.PROTECT_TRADE, chain=(guard[0],))  # rule N11-N13
        return Operation(OpKind.PATROL)

    def _at_sea(self, s: OwnShip) -> Operation:
        place = s.port if s.port is not None else s.area
        best = self._raiding_port(place)
        if best is None and s.base != place and s.base in self._friendly() and s.base in self._within(place):
            best = s.base
        return Operation(OpKind.REBASE, to=best) if best is not None else Operation(OpKind.REBASE, to=s.area)

    def fleet(self, s: OwnShip) -> list[OwnShip]:
        return [s] + [t for t in self.plan.view.ships if t.lead == s.id and t.active]

    def _corps_operation(self, port: str, corps: str) -> Operation | None:
        """Rule N15, N17: the nearest other friendly port within the Transport steps, or for
        an admiral who lands, the nearest enemy port within the Invasion steps where no enemy
        ship is known."""
        near = distances(self.plan.map, port, max(self.rules.transport_steps, self.rules.invasion_steps))
        if self.plan.level.land:
            targets = [
                (d, p)
                for p, d in near.items()
                if p in self.plan.enemy_held_ports
                and d <= self.rules.invasion_steps
                and self.plan.view.enemy_ports.get(p, 0.0) == 0.0
            ]
            if targets:
                return Operation(OpKind.INVASION, corps=corps, to=min(targets)[1])
        friendly = self._friendly()
        ports = [
            (d, p) for p, d in near.items() if p in friendly and p != port and d <= self.rules.transport_steps
        ]
        return Operation(OpKind.TRANSPORT, corps=corps, to=min(ports)[1]) if ports else None

    def _raiding_port(self, place: str) -> str | None:
        """The friendly port within the Rebase steps nearest the enemy's trade (then the
        nearest, then by name), if any enemy trade is in sight."""
        friendly = self._friendly()
        near = self._within(place)
        options = [(self.trade_distance(p), d, p) for p, d in near.items() if p in friendly and p != place]
        options = [o for o in options if o[0] < FAR]
        return min(options)[2] if options else None

    def _within(self, place: str) -> dict[str, int]:
        return distances(self.plan.map, place, self.rules.rebase_steps)

    def _friendly(self) -> frozenset[str]:
        """Ports the player can count on his side holding: a naval minister's own (his report
        lists them), where his own ships lie in harbour (a harbour is a friendly port's), and
        the map's holders among his allies, less any port where enemy ships are known."""
        view = self.plan.view
        held = set(self.plan.friendly_ports)
        if view.minister:
            held = {p for p in held if self.plan.map.ports[p].controller != view.state or p in view.own_ports}
        held |= {s.port for s in view.ships if s.port is not None and s.harbor}
        return frozenset(p for p in held if p in self.plan.map.ports)

    def trade_distance(self, place: str) -> int:
        """Steps from the sea areas of ``place`` to the nearest sea area where enemy trade
        sails: the sea areas of the enemy's ports and of his receiving ports (N44)."""
        if place not in self.trade_cache:
            targets = self._trade_areas()
            starts = (
                self.plan.map.ports[place].reachable_sea_areas if place in self.plan.map.ports else (place,)
            )
            best = FAR
            for a in starts:
                for node, d in distances(self.plan.map, a, SEARCH).items():
                    if node in targets and d < best:
                        best = d
            self.trade_cache[place] = best
        return self.trade_cache[place]

    def _trade_areas(self) -> frozenset[str]:
        m = self.plan.map
        ports = set(self.plan.enemy_held_ports)
        ports |= {self.rules.receiving_port(e) for e in self.plan.view.enemies}
        return frozenset(a for p in sorted(ports) if p in m.ports for a in m.ports[p].reachable_sea_areas)
