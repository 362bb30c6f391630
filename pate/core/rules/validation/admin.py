"""Administrative orders: inactivate and reactivate (2.6), transfer crew (2.7),
divide and combine transport groups (2.5), scuttle (4.10, recovered).

The rule book left these to the game administrator or to "later"; the desk
takes them as part of a ship's order and checks them against the situation at
the start of the turn.  The resolver carries them out and re-checks what other
orders of the same turn may change (e.g. the friendly ship that must stay when
a ship is scuttled in a sea area).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pate.core.orders.limits import OrderLimits
from pate.core.orders.model import AdminKind, AdminOrder, ShipOrder, default_order
from pate.core.orders.refusal import DENIED, INVALID, PRECONDITION, Actor, Refusal
from pate.core.ruledata import RuleData
from pate.core.rules.detection import enemies_in_contact
from pate.core.rules.validation.sight import known_ships, knows, missing
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InAtlantic, InPort, Location, Ship, ShipType
from pate.core.world.state import WorldState

# Two administrative orders may go together only as crew transfer then
# scuttling: rule 2.7 lets a transfer strip a ship below its minimum crew
# "unless the ship is immediately scuttled".
_COMPATIBLE = frozenset({AdminKind.TRANSFER_CREW, AdminKind.SCUTTLE})
_TAKES_TARGET = frozenset({AdminKind.TRANSFER_CREW, AdminKind.COMBINE})
_TAKES_AMOUNT = frozenset({AdminKind.TRANSFER_CREW, AdminKind.DIVIDE})
_RULE = {
    AdminKind.INACTIVATE: "2.6",
    AdminKind.REACTIVATE: "2.6",
    AdminKind.TRANSFER_CREW: "2.7",
    AdminKind.DIVIDE: "2.5",
    AdminKind.COMBINE: "2.5",
    AdminKind.SCUTTLE: "4.10",
}


def tactical_key(loc: Location) -> tuple[str, str, int] | None:
    """The tactical location (1.2): a tactical area of a sea area, or the
    harbor or the coastal waters of a port."""
    if isinstance(loc, AtSea):
        return ("sea", loc.area, loc.tactical)
    if isinstance(loc, InPort):
        return ("port", loc.port, 1 if loc.harbor else 0)
    return None


def hostile_in_contact(world: WorldState, ship: Ship) -> tuple[Ship, ...]:
    return enemies_in_contact(world, ship)  # rule 5.1's contact, one implementation


def hostile_alongside(world: WorldState, ship: Ship) -> list[Ship]:
    """Hostile ships in the same tactical location (harbor and coastal waters
    of one port are different locations)."""
    key = tactical_key(ship.location)
    return [s for s in hostile_in_contact(world, ship) if tactical_key(s.location) == key]


@dataclass(frozen=True, slots=True)
class AdminCheck:
    """Everything an administrative order is checked against."""

    order: ShipOrder
    ship: Ship
    actor: Actor
    world: WorldState
    world_map: WorldMap
    rules: RuleData
    limits: OrderLimits
    # the turn's orders of every ship, known to the resolver only (at the desk
    # other orders may still come or change until the turn is resolved)
    orders: Mapping[str, ShipOrder] | None = None

    @property
    def scuttling(self) -> bool:
        return any(a.kind is AdminKind.SCUTTLE for a in self.order.admin)


def check_admin(c: AdminCheck) -> list[Refusal]:
    out = _combination(c.order)
    if out:
        return out
    for i, adm in enumerate(c.order.admin):
        field = f"admin[{i}]"
        shape = _shape(field, adm)
        if shape:
            out += shape
        elif adm.kind in (AdminKind.INACTIVATE, AdminKind.REACTIVATE) and not (
            c.actor.minister_of(c.ship.state) or c.actor.admin
        ):
            # decision: laying up or recommissioning a ship is the naval
            # minister's, as assigning its commanders is (2.3)
            msg = f"only the naval minister of {c.ship.state} or an administrator may {adm.kind} a ship"
            out.append(Refusal(f"{field}.kind", "2.6", msg, DENIED))
        else:
            out += _CHECKS[adm.kind](c, field, adm)
    return out


def _combination(order: ShipOrder) -> list[Refusal]:
    out: list[Refusal] = []
    seen: dict[AdminKind, int] = {}
    for i, adm in enumerate(order.admin):
        rule = _RULE[adm.kind]
        if adm.kind in seen:
            out.append(Refusal(f"admin[{i}].kind", rule, f"one {adm.kind} order per turn", INVALID))
        elif seen and not {adm.kind, *seen} <= _COMPATIBLE:
            first = next(iter(seen))
            out.append(Refusal(f"admin[{i}].kind", rule, f"{adm.kind} cannot go with {first}", INVALID))
        seen.setdefault(adm.kind, i)
        if adm.kind in (AdminKind.INACTIVATE, AdminKind.SCUTTLE) and order.movement.moves:
            out.append(Refusal("movement", rule, f"a ship ordered to {adm.kind} cannot also move", INVALID))
    return out


def _shape(field: str, adm: AdminOrder) -> list[Refusal]:
    rule = _RULE[adm.kind]
    out: list[Refusal] = []
    if adm.kind in _TAKES_TARGET and not adm.target:
        out.append(Refusal(f"{field}.target", rule, f"{adm.kind} needs the other ship's id", INVALID))
    if adm.kind not in _TAKES_TARGET and adm.target is not None:
        out.append(Refusal(f"{field}.target", rule, f"{adm.kind} names no other ship", INVALID))
    if adm.kind in _TAKES_AMOUNT and adm.amount <= 0:
        out.append(Refusal(f"{field}.amount", rule, f"{adm.kind} needs an amount above 0", INVALID))
    if adm.kind not in _TAKES_AMOUNT and adm.amount != 0:
        out.append(Refusal(f"{field}.amount", rule, f"{adm.kind} takes no amount", INVALID))
    return out


def _target(c: AdminCheck, field: str, adm: AdminOrder) -> Ship | Refusal:
    rule = _RULE[adm.kind]
    sid = adm.target or ""
    other = c.world.ships.get(sid)
    if sid == c.ship.id:
        return Refusal(f"{field}.target", rule, f"{adm.kind} needs a ship other than {sid}", INVALID)
    if other is None or not knows(c.actor, c.world, sid):
        return missing(f"{field}.target", rule, sid)  # the fog of war: as for no ship at all
    if not other.active or isinstance(other.location, InAtlantic):
        return Refusal(f"{field}.target", rule, f"{sid} is not on the map", PRECONDITION)
    return other


def _apart(c: AdminCheck, field: str, adm: AdminOrder, other: Ship) -> list[Refusal]:
    """The two must lie together: one tactical area at sea, one part of one port (1.2).  Checked
    after what the other ship is (its type, its state), which decides first."""
    if tactical_key(other.location) == tactical_key(c.ship.location):
        return []
    where = (
        "in one tactical area"
        if c.ship.at_sea
        else "in one port, both in the harbor or both in the coastal waters"
    )
    msg = f"{other.id} and {c.ship.id} must be {where}"
    return [Refusal(f"{field}.target", _RULE[adm.kind], msg, PRECONDITION)]


def _inactivate(c: AdminCheck, field: str, adm: AdminOrder) -> list[Refusal]:
    """Rule 2.6: not transport groups; only in an on-map port of the home
    nation controlled by the home state; not with hostile ships present."""
    f = f"{field}.kind"
    ship, loc = c.ship, c.ship.location
    if ship.type is ShipType.TR:
        return [Refusal(f, "2.6", "transport groups cannot be inactivated", INVALID)]
    if not isinstance(loc, InPort) or loc.port not in c.world_map.ports:
        return [Refusal(f, "2.6", "ships can be inactivated only in port", PRECONDITION)]
    port = c.world_map.ports[loc.port]
    state = c.world.diplomacy.states.get(ship.state)
    held = c.world.ports.get(loc.port)
    controller = held.controller if held is not None else port.controller
    if state is None or port.nation != state.nation:
        msg = f"{port.name} is not a port of the home nation of {ship.state}"
        return [Refusal(f, "2.6", msg, PRECONDITION)]
    if controller != ship.state:
        return [Refusal(f, "2.6", f"{port.name} is not controlled by {ship.state}", PRECONDITION)]
    if not port.on_gitm_map:
        return [Refusal(f, "2.6", f"{port.name} is an off-map port", PRECONDITION)]
    if hostile_in_contact(c.world, ship):
        return [Refusal(f, "2.6", "ships cannot inactivate with hostile ships present", PRECONDITION)]
    return []


def _reactivate(c: AdminCheck, field: str, adm: AdminOrder) -> list[Refusal]:
    ship = c.ship
    if ship.active:
        return [Refusal(f"{field}.kind", "2.6", f"{ship.id} is active", PRECONDITION)]
    if ship.reactivates_turn is not None:
        msg = f"{ship.id} is already reactivating (ready on turn {ship.reactivates_turn})"
        return [Refusal(f"{field}.kind", "2.6", msg, PRECONDITION)]
    return []


def _transfer_crew(c: AdminCheck, field: str, adm: AdminOrder) -> list[Refusal]:
    """Rule 2.7."""
    ship = c.ship
    if not ship.type.of_the_line:
        msg = "crew cannot be transferred from frigates or transport groups"
        return [Refusal(f"{field}.kind", "2.7", msg, INVALID)]
    other = _target(c, field, adm)
    if isinstance(other, Refusal):
        return [other]
    if other.type is ShipType.TR:
        msg = "crew goes only to flagships, ships of the line and frigates"
        return [Refusal(f"{field}.target", "2.7", msg, INVALID)]
    if other.state != ship.state:
        # decision: a crew is its state's manpower (4.10 returns it to the pool)
        msg = f"crew moves only between ships of one state; {other.id} is not {ship.state}"
        return [Refusal(f"{field}.target", "2.7", msg, PRECONDITION)]
    if apart := _apart(c, field, adm, other):
        return apart
    if hostile_alongside(c.world, ship):
        return [Refusal(f"{field}.kind", "2.7", "no enemy ships may be present", PRECONDITION)]
    f = f"{field}.amount"
    least = c.rules.ship_class(ship.type).min_crew
    most = c.rules.ship_class(other.type).max_crew
    if adm.amount > ship.crew:
        return [Refusal(f, "2.7", f"{ship.id} has only {ship.crew} crew", PRECONDITION)]
    out = []  # both ends of the transfer, each told when it breaks its limit
    if ship.crew - adm.amount < least and not c.scuttling:
        msg = f"{ship.id} would keep {ship.crew - adm.amount} crew, below {least}, and is not scuttled"
        out.append(Refusal(f, "2.7", msg, PRECONDITION))
    if other.crew + adm.amount > most:
        msg = f"{other.id} would have {other.crew + adm.amount} crew, above its limit of {most}"
        out.append(Refusal(f, "2.7", msg, PRECONDITION))
    return out


def _capacity(c: AdminCheck, field: str, parts: tuple[int, ...]) -> list[Refusal]:
    lo, hi = c.limits.transport_capacity_min, c.limits.transport_capacity_max
    for part in parts:
        if not lo <= part <= hi:
            msg = f"a group of {part} capacity is outside {lo} to {hi}"
            return [Refusal(f"{field}.amount", "2.5", msg, PRECONDITION)]
    return []


def _divide(c: AdminCheck, field: str, adm: AdminOrder) -> list[Refusal]:
    """Rule 2.5 and the recovered help page: name the capacity to split off."""
    if c.ship.type is not ShipType.TR:
        return [Refusal(f"{field}.kind", "2.5", "only transport groups can be divided", INVALID)]
    if adm.amount >= c.ship.capacity:
        msg = f"{c.ship.id} has {c.ship.capacity} capacity, not more than {adm.amount}"
        return [Refusal(f"{field}.amount", "2.5", msg, PRECONDITION)]
    return _capacity(c, field, (adm.amount, c.ship.capacity - adm.amount))


def _combine(c: AdminCheck, field: str, adm: AdminOrder) -> list[Refusal]:
    """Rule 2.5: same state (allies cannot combine), same tactical location."""
    if c.ship.type is not ShipType.TR:
        return [Refusal(f"{field}.kind", "2.5", "only transport groups can be combined", INVALID)]
    other = _target(c, field, adm)
    if isinstance(other, Refusal):
        return [other]
    if other.type is not ShipType.TR:
        return [Refusal(f"{field}.target", "2.5", f"{other.id} is not a transport group", INVALID)]
    if other.state != c.ship.state:
        msg = f"{other.id} is not of {c.ship.state}; allies cannot combine transport groups"
        return [Refusal(f"{field}.target", "2.5", msg, PRECONDITION)]
    if apart := _apart(c, field, adm, other):
        return apart
    total = c.ship.capacity + other.capacity
    lo, hi = c.limits.transport_capacity_min, c.limits.transport_capacity_max
    if not lo <= total <= hi:
        msg = f"the combined group would have {total} capacity, outside {lo} to {hi}"
        return [Refusal(f"{field}.target", "2.5", msg, PRECONDITION)]
    return []


def _scuttle(c: AdminCheck, field: str, adm: AdminOrder) -> list[Refusal]:
    """Rule 4.10 (recovered): not alongside enemy ships; a ship in a sea area
    only if a friendly ship stays there (transport groups need none)."""
    f = f"{field}.kind"
    ship, loc = c.ship, c.ship.location
    if hostile_alongside(c.world, ship):
        return [Refusal(f, "4.10", "ships cannot be scuttled alongside enemy ships", PRECONDITION)]
    if not isinstance(loc, AtSea) or ship.type is ShipType.TR:
        return []
    friends = friends_in_area(c.world, ship)
    # the fog of war: only a friend the player knows of may be counted on
    # at the desk (an allied ship in another tactical area is unseen);
    # the resolver's re-check knows them all
    known = known_ships(c.actor, c.world) if friends else None
    if known is not None:
        friends = [s for s in friends if s.id in known]
    area = c.world_map.sea_areas[loc.area].called if loc.area in c.world_map.sea_areas else loc.area
    if c.orders is not None and friends and not staying(friends, c.orders):
        msg = (
            f"a ship may be scuttled in {area} only if a friendly ship stays there;"
            f" {_going(ship, friends)} away this turn"
        )
        return [Refusal(f, "4.10", msg, PRECONDITION)]
    if not friends:
        msg = f"a ship may be scuttled in {area} only if a friendly ship stays there"
        return [Refusal(f, "4.10", msg, PRECONDITION)]
    return []


def friends_in_area(world: WorldState, ship: Ship) -> list[Ship]:
    """Same-side or allied warships in the sea area of ``ship`` (any tactical
    area), in id order: those that may stay when it is scuttled (4.10)."""
    loc = ship.location
    assert isinstance(loc, AtSea)
    return [
        s
        for _, s in sorted(world.ships.items())
        if s.id != ship.id
        and s.active
        and s.type.is_warship
        and isinstance(s.location, AtSea)
        and s.location.area == loc.area
        and world.diplomacy.allied(ship.state, s.state)
    ]


def _going(ship: Ship, friends: list[Ship]) -> str:
    """ "BR2FL sails", "BR2FL and an allied ship sail": the player's own
    state's ships by id; an ally's, perhaps in another tactical area and
    unseen (5.1), only as allied ships."""
    parts = [s.id for s in friends if s.state == ship.state]
    allies = len(friends) - len(parts)
    if allies:
        parts.append("an allied ship" if allies == 1 else "allied ships")
    names = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    return f"{names} {'sails' if len(friends) == 1 else 'sail'}"


def staying(friends: list[Ship], orders: Mapping[str, ShipOrder]) -> list[Ship]:
    """Rule 4.10: a friend ordered to sail away this turn does not "stay".
    Known only once every order of the turn is in, so only the resolver
    passes ``orders``; a friend without an order keeps its place (4.11)."""
    return [s for s in friends if not (orders.get(s.id) or default_order(s.id)).movement.moves]


_CHECKS: dict[AdminKind, Callable[[AdminCheck, str, AdminOrder], list[Refusal]]] = {
    AdminKind.INACTIVATE: _inactivate,
    AdminKind.REACTIVATE: _reactivate,
    AdminKind.TRANSFER_CREW: _transfer_crew,
    AdminKind.DIVIDE: _divide,
    AdminKind.COMBINE: _combine,
    AdminKind.SCUTTLE: _scuttle,
}
