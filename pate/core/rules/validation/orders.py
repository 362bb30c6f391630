"""Validating one ship's order at the Ship Order Desk (rule section 4).

:func:`validate_order` returns every reason to refuse the order, each naming
the field and the rule; an empty list means the order is accepted.  It checks
the order against the world at the start of the turn as it stands when the
order arrives; what depends on other ships' orders of the same turn
(attachment chains, the friendly ship that must stay when one is scuttled) is
settled when the turn is resolved.
"""

from __future__ import annotations

import re
from dataclasses import fields

from pate.core.orders.limits import OrderLimits, stores_capacity
from pate.core.orders.model import AdminKind, Commerce, ContactMode, ShipOrder
from pate.core.orders.refusal import (
    DENIED,
    INVALID,
    PRECONDITION,
    Actor,
    Refusal,
    RefusalCode,
    authority,
)
from pate.core.orders.route import check_movement
from pate.core.ruledata import RuleData
from pate.core.rules.validation.admin import AdminCheck, check_admin
from pate.core.rules.validation.operation import check_operation
from pate.core.rules.validation.sight import knows, missing
from pate.core.world.geography import WorldMap
from pate.core.world.ships import InAtlantic, InPort, Ship, ShipType, contact_key
from pate.core.world.state import WorldState

__all__ = ["Actor", "Refusal", "RefusalCode", "authority", "validate_order"]

# GITM unit ids (FR2IN, SP16IN...): section 9 is lost, so any short token.
UNIT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


def validate_order(
    order: ShipOrder, actor: Actor, world: WorldState, world_map: WorldMap, rules: RuleData
) -> list[Refusal]:
    """Every refusal of this order, in the order of the form's sections."""
    ship = world.ships.get(order.ship_id)
    if ship is None:
        return [missing("ship_id", "4.3", order.ship_id)]
    author = authority(actor, ship)
    if author is None and not knows(actor, world, ship.id):
        return [missing("ship_id", "4.3", ship.id)]  # the fog of war: as for no ship at all
    if author is None:
        msg = f"you are not the commander or deputy commander of {ship.id}"
        return [Refusal("ship_id", "2.3", msg, DENIED)]
    if isinstance(ship.location, InAtlantic):
        msg = f"{ship.id} is crossing the Atlantic and takes no orders until it arrives"
        return [Refusal("ship_id", "6.11", msg, PRECONDITION)]
    limits = OrderLimits.from_rules(rules)
    check = AdminCheck(order, ship, actor, world, world_map, rules, limits)
    if not ship.active:
        return _inactive(check)
    return [
        *_attachment(order, ship, actor, world),
        *check_movement(order.movement, ship, world_map, limits, world.kind),
        *_contact(order, limits),
        *_closing_shift(order, ship, world),
        *_stores(order, ship, rules, limits),
        *_amphibious(order, ship),
        *check_admin(check),
        *check_operation(order, ship, world, world_map, rules),
    ]


def _inactive(c: AdminCheck) -> list[Refusal]:
    """Rule 2.6: an inactive ship takes only an order to reactivate."""
    order, ship = c.order, c.ship
    msg = f"{ship.id} is inactive: the only order it takes is reactivate"
    blank = ShipOrder(order.ship_id)
    out = [
        Refusal(f.name, "2.6", msg, PRECONDITION)
        for f in fields(ShipOrder)
        if f.name not in ("ship_id", "admin") and getattr(order, f.name) != getattr(blank, f.name)
    ]
    out += [
        Refusal(f"admin[{i}].kind", "2.6", msg, PRECONDITION)
        for i, adm in enumerate(order.admin)
        if adm.kind is not AdminKind.REACTIVATE
    ]
    if out:
        return out
    if not order.admin:
        return [Refusal("admin", "2.6", msg, PRECONDITION)]
    return check_admin(c)


def _attachment(order: ShipOrder, ship: Ship, actor: Actor, world: WorldState) -> list[Refusal]:
    """Rule 4.4.  Of a ship the player does not know of, nothing is said but
    that he knows of no such ship (pate.core.rules.validation.sight)."""
    if order.attach_to is None:
        return []
    out: list[Refusal] = []
    if order.detach:
        msg = "to move to another ship give attach alone; detach ends the attachment"
        out.append(Refusal("detach", "4.4", msg, INVALID))
    sid = order.attach_to
    target = world.ships.get(sid)
    if sid == ship.id:
        return [*out, Refusal("attach_to", "4.4", "a ship cannot attach to itself", INVALID)]
    if target is None or not knows(actor, world, sid):
        return [*out, missing("attach_to", "4.4", sid)]
    if not target.active or isinstance(target.location, InAtlantic):
        return [*out, Refusal("attach_to", "4.4", f"{sid} is not on the map", PRECONDITION)]
    if contact_key(target.location) != contact_key(ship.location):
        msg = f"{sid} is not in the same location as {ship.id}"
        return [*out, Refusal("attach_to", "4.4", msg, PRECONDITION)]
    if target.attached_to is not None:
        msg = f"{sid} is itself attached to {target.attached_to}: attach to {target.attached_to} instead"
        return [*out, Refusal("attach_to", "4.4", msg, PRECONDITION)]
    if world.diplomacy.hostile(ship.state, target.state):
        # decision: 4.4 allows other states' ships, but copying an enemy's orders is absurd
        msg = f"{sid} is an enemy ship"
        return [*out, Refusal("attach_to", "4.4", msg, PRECONDITION)]
    return out


def _contact(order: ShipOrder, limits: OrderLimits) -> list[Refusal]:
    """Rule 4.6, and the recovered rule that raiding forces pursue and
    convoying forces accept (refused, not silently changed)."""
    c = order.contact
    out: list[Refusal] = []
    for name in ("minimum", "maximum"):
        value: int | None = getattr(c, name)
        if value is None:
            continue
        if c.mode is ContactMode.ACCEPT:
            msg = "a minimum or maximum number applies only to pursue or evade"
            out.append(Refusal(f"contact.{name}", "4.6", msg, INVALID))
        elif not 0 <= value <= limits.contact_count_max:
            msg = f"give a number of ships from 0 to {limits.contact_count_max}"
            out.append(Refusal(f"contact.{name}", "4.6", msg, INVALID))
    if c.mode is ContactMode.EVADE and c.join_allies:
        msg = "ships with evade may not join allies: they never approach the allied fleet"
        out.append(Refusal("contact.join_allies", "4.6", msg, INVALID))
    if not c.pursue_into_ports and c.mode is not ContactMode.PURSUE:
        msg = "not pursuing into ports applies only to pursue"
        out.append(Refusal("contact.pursue_into_ports", "6.10", msg, INVALID))
    forced = {Commerce.RAID: ContactMode.PURSUE, Commerce.CONVOY: ContactMode.ACCEPT}.get(order.commerce)
    if forced is not None and c.mode is not forced:
        msg = f"a ship ordered to {order.commerce} commerce must {forced} contact: give contact {forced}"
        out.append(Refusal("contact.mode", "4.6", msg, INVALID))
    return out


def _closing_shift(order: ShipOrder, ship: Ship, world: WorldState) -> list[Refusal]:
    """EiA 12.2.6.1.4.2: "A purely British naval force commanded by Nelson may
    subtract 1 or 2 from the die roll for closing at the option of the
    controlling player": 1 or 2, on a ship Nelson commands, under those rules."""
    shift = order.combat.closing_shift
    if shift is None:
        return []
    field_, rule = "combat.closing_shift", "12.2.6.1.4.2"
    if shift not in (1, 2):
        return [Refusal(field_, rule, f"Nelson subtracts 1 or 2 from the closing roll, not {shift}", INVALID)]
    if world.combat_rules == "pate":
        msg = "Nelson's closing shift belongs to the EiA advanced naval rules; this campaign fights by PATE's"
        return [Refusal(field_, rule, msg, PRECONDITION)]
    admiral = world.admirals.get(ship.commander or "")
    if admiral is None or not admiral.nelson:
        msg = f"only a ship Nelson commands may choose his closing shift, and {ship.id} is not his"
        return [Refusal(field_, rule, msg, PRECONDITION)]
    return []


def _stores(order: ShipOrder, ship: Ship, rules: RuleData, limits: OrderLimits) -> list[Refusal]:
    """Rules 3.4, 4.9: 0 to 24 stores; transport groups more, room permitting."""
    if order.stores is None:
        return []
    most = stores_capacity(ship, rules, limits)
    if not 0 <= order.stores <= most:
        msg = f"{ship.id} can carry 0 to {most} stores"
        return [Refusal("stores", "3.4", msg, INVALID)]
    return []


def _amphibious(order: ShipOrder, ship: Ship) -> list[Refusal]:
    """Rule 4.9: only transport groups load or unload GITM units and supplies;
    they begin in the initial amphibious phase (3.6), before any movement,
    so the group must be in a port."""
    a = order.amphibious
    if a.empty:
        return []
    if ship.type is not ShipType.TR:
        msg = "only transport groups load or unload units and supplies"
        return [Refusal("amphibious", "4.9", msg, INVALID)]
    out = _amphibious_shape(order)
    if out:
        return out
    if not isinstance(ship.location, InPort):
        msg = "units and supplies are loaded and unloaded only in a port"
        return [Refusal("amphibious", "4.9", msg, PRECONDITION)]
    for i, unit in enumerate(a.unload_units):
        if unit not in ship.cargo.units:
            out.append(Refusal(f"amphibious.unload_units[{i}]", "4.9", f"{unit} is not aboard", PRECONDITION))
    if a.unload_supplies > ship.cargo.supplies:
        msg = f"only {ship.cargo.supplies} supplies are aboard"
        out.append(Refusal("amphibious.unload_supplies", "4.9", msg, PRECONDITION))
    return out


def _amphibious_shape(order: ShipOrder) -> list[Refusal]:
    a = order.amphibious
    out: list[Refusal] = []
    for name in ("load_units", "unload_units"):
        units: tuple[str, ...] = getattr(a, name)
        for i, unit in enumerate(units):
            f = f"amphibious.{name}[{i}]"
            if not UNIT_ID.fullmatch(unit):
                out.append(Refusal(f, "4.9", f"{unit!r} is not a unit id", INVALID))
            elif unit in units[:i]:
                out.append(Refusal(f, "4.9", f"{unit} is named twice", INVALID))
            elif name == "unload_units" and unit in a.load_units:
                out.append(Refusal(f, "4.9", f"{unit} cannot be both loaded and unloaded", INVALID))
    for name in ("load_supplies", "unload_supplies"):
        if getattr(a, name) < 0:
            out.append(Refusal(f"amphibious.{name}", "4.9", "give a number of supplies, 0 or more", INVALID))
    if a.load_supplies > 0 and a.unload_supplies > 0:
        msg = "load supplies or unload them, not both"
        out.append(Refusal("amphibious.unload_supplies", "4.9", msg, INVALID))
    return out
