"""The order form of rule 4.3 in HTML: the choices it offers and how its
fields become the ShipOrder of pate.v1.

The choices come from the core's map (``WorldMap``: adjacent sea areas, ports
reachable from a sea area, the strait rule 6.3): the form offers only what the
map allows, and the order desk still checks every rule and names the field it
refuses.  The fields of ship number ``i`` on a page are named ``<i>.<field>``
so that a squadron (a lead and its attached ships, rule 4.4) is one form and
one request: accepted whole or refused whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pate.core.orders import model as m
from pate.engine.context import turn_context
from pate.v1 import common_pb2, desk_pb2
from services.web import operation_form, wording

# The words of each enumerated field, from the core's order model (rules 4.6 to 4.8).
CHOICES: dict[str, tuple[str, ...]] = {
    "mode": tuple(e.value for e in m.ContactMode),
    "gauge": tuple(e.value for e in m.Gauge),
    "stance": tuple(e.value for e in m.CombatStance),
    "range": tuple(e.value for e in m.Range),
    "line": tuple(e.value for e in m.Line),
    "aim": tuple(e.value for e in m.Aim),
    "flee_to": tuple(e.value for e in m.FleeTo),
    "commerce": tuple(e.value for e in m.Commerce),
}

# The form's inputs a refusal's field path points at (rule sections 4.4 to 4.9).
_INPUT_OF = (
    (re.compile(r"^movement\.sea_areas\[0\]"), "sea1"),
    (re.compile(r"^movement\.sea_areas\[1\]"), "sea2"),
    (re.compile(r"^movement\.sea_areas"), "sea1"),
    (re.compile(r"^movement\.port"), "port"),
    (re.compile(r"^movement\.any_enemy_port"), "any_enemy_port"),
    (re.compile(r"^movement\.harbor"), "harbor"),
    (re.compile(r"^movement\.sail_alone"), "sail_alone"),
    (re.compile(r"^movement"), "sea1"),
    (re.compile(r"^contact\.(minimum|maximum|join_allies|mode|gauge)"), ""),
    (re.compile(r"^contact"), "mode"),
    (re.compile(r"^combat\.(stance|range|line|aim|flee_to)"), ""),
    (re.compile(r"^combat"), "stance"),
    (re.compile(r"^amphibious\.(load_units|unload_units|load_supplies|unload_supplies)"), ""),
    (re.compile(r"^amphibious"), "load_units"),
    (re.compile(r"^(attach_to|detach|commerce|stores)"), ""),
    *operation_form.INPUTS,
)
_ORDER_INDEX = re.compile(r"orders\[(\d+)\]\.(.*)")


@dataclass(frozen=True, slots=True)
class Movement:
    """Where a ship may sail this turn, as the map knows it (rules 6.1, 6.3)."""

    first: tuple[str, ...]  # sea areas its movement may start with
    second: dict[str, tuple[str, ...]]  # for each first sea area, the ones beside it
    ports: dict[str, tuple[str, ...]]  # for each sea area, the ports reachable from it
    here_port: str  # the port it is in, or ""

    @property
    def all_second(self) -> tuple[str, ...]:
        return tuple(sorted({b for bs in self.second.values() for b in bs}))

    @property
    def all_ports(self) -> tuple[str, ...]:
        return tuple(sorted({p for ps in self.ports.values() for p in ps}))


def movement_choices(ship: desk_pb2.MyShip) -> Movement:
    wmap = turn_context().map
    first = tuple(ship.reachable_sea_areas)
    second = {a: tuple(sorted(wmap.sea_areas[a].adjacent)) for a in first}
    areas = set(first) | {b for bs in second.values() for b in bs}
    if ship.sea_area:
        areas.add(ship.sea_area)
    ports = {a: wmap.ports_reachable_from(a) for a in sorted(areas)}
    return Movement(first, second, ports, ship.port)


@dataclass
class FieldErrors:
    """Refusals by ship and by form input, and those no input shows."""

    by_input: dict[tuple[int, str], list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)

    def of(self, index: int, name: str) -> list[str]:
        return self.by_input.get((index, name), [])

    def __bool__(self) -> bool:
        return bool(self.by_input or self.general)


def place_refusals(
    refusals: Sequence[common_pb2.Refusal], fallback: str = "", ships: Sequence[str] = ()
) -> FieldErrors:
    """Each refusal beside the input it is about, with its rule number; any other
    by its ship and field in words (services.web.wording)."""
    out = FieldErrors()
    for r in refusals:
        found = _ORDER_INDEX.fullmatch(r.field)
        name = _input_for(found.group(2)) if found else ""
        if found and name:
            text = f"{r.message} (rule {r.rule})" if r.rule else r.message
            out.by_input.setdefault((int(found.group(1)), name), []).append(text)
        else:
            out.general.append(wording.refusal(r, ships))
    if not refusals and fallback:
        out.general.extend(wording.lines(fallback, ships))
    return out


def _input_for(path: str) -> str:
    for pattern, name in _INPUT_OF:
        found = pattern.match(path)
        if found:
            return name or found.group(1)
    return ""


class FormError(ValueError):
    """A field the form itself cannot read (not a number...)."""

    def __init__(self, index: int, name: str, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.name = name
        self.message = message


def _int(form: Mapping[str, str], key: str, index: int, name: str) -> int | None:
    text = form.get(key, "").strip()
    if not text:
        return None
    if not re.fullmatch(r"-?\d{1,6}", text):
        raise FormError(index, name, "a whole number, please")
    return int(text)


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", text.strip()) if w]


def order_from_form(form: Mapping[str, str], index: int, ship_id: str) -> common_pb2.ShipOrder:
    """The ShipOrder of ship number ``index`` on the page, as the player filled it in."""

    def get(name: str) -> str:
        return form.get(f"{index}.{name}", "").strip()

    def on(name: str) -> bool:
        return get(name) in ("on", "true", "1", "yes")

    order = common_pb2.ShipOrder(ship_id=ship_id)
    if get("attach_to"):
        order.attach_to = get("attach_to")
    order.detach = on("detach")
    seas = [a for a in (get("sea1"), get("sea2")) if a]
    order.movement.CopyFrom(
        common_pb2.Movement(
            sea_areas=seas,
            port=get("port"),
            any_enemy_port=on("any_enemy_port"),
            harbor=on("harbor"),
            sail_alone=on("sail_alone"),
        )
    )
    contact = common_pb2.Contact(mode=get("mode"), gauge=get("gauge"))
    for name in ("minimum", "maximum"):
        value = _int(form, f"{index}.{name}", index, name)
        if value is not None:
            setattr(contact, name, value)
    # rule 4.6: an evading ship joins no one, so the box (ticked by default) does not apply to evade
    contact.join_allies = on("join_allies") and get("mode") != m.ContactMode.EVADE.value
    order.contact.CopyFrom(contact)
    order.combat.CopyFrom(
        common_pb2.Combat(
            stance=get("stance"), range=get("range"), line=get("line"), aim=get("aim"), flee_to=get("flee_to")
        )
    )
    order.commerce = get("commerce")
    stores = _int(form, f"{index}.stores", index, "stores")
    if stores is not None:
        order.stores = stores
    if any(get(n) for n in ("load_units", "unload_units", "load_supplies", "unload_supplies")):
        order.amphibious.CopyFrom(
            common_pb2.Amphibious(
                load_units=_words(get("load_units")),
                unload_units=_words(get("unload_units")),
                load_supplies=_int(form, f"{index}.load_supplies", index, "load_supplies") or 0,
                unload_supplies=_int(form, f"{index}.unload_supplies", index, "unload_supplies") or 0,
            )
        )
    return order


def values_of(order: common_pb2.ShipOrder) -> dict[str, str]:
    """The form's values for an order (to show the effective order filled in)."""
    mv, ct, cb = order.movement, order.contact, order.combat
    seas = [*mv.sea_areas, "", ""]
    out = {
        "attach_to": order.attach_to,
        "detach": "on" if order.detach else "",
        "sea1": seas[0],
        "sea2": seas[1],
        "port": mv.port,
        "any_enemy_port": "on" if mv.any_enemy_port else "",
        "harbor": "on" if mv.harbor else "",
        "sail_alone": "on" if mv.sail_alone else "",
        "mode": ct.mode,
        "gauge": ct.gauge,
        "minimum": str(ct.minimum) if ct.HasField("minimum") else "",
        "maximum": str(ct.maximum) if ct.HasField("maximum") else "",
        "join_allies": "" if ct.HasField("join_allies") and not ct.join_allies else "on",
        "stance": cb.stance,
        "range": cb.range,
        "line": cb.line,
        "aim": cb.aim,
        "flee_to": cb.flee_to,
        "commerce": order.commerce,
        "stores": str(order.stores) if order.HasField("stores") else "",
        "load_units": " ".join(order.amphibious.load_units),
        "unload_units": " ".join(order.amphibious.unload_units),
        "load_supplies": str(order.amphibious.load_supplies or ""),
        "unload_supplies": str(order.amphibious.unload_supplies or ""),
        **operation_form.values_of(order),
    }
    return out


def describe_order(order: common_pb2.ShipOrder) -> str:
    """One readable line of an effective order."""
    mv = order.movement
    parts = []
    where = " → ".join(mv.sea_areas)
    if mv.port:
        where = f"{where} → {mv.port}" if where else mv.port
    if mv.any_enemy_port:
        where = f"{where} → any port with an enemy ship" if where else "any port with an enemy ship"
    parts.append(f"sail {where}" + (" (harbor)" if mv.harbor else "") if where else "stay")
    if mv.sail_alone:
        parts.append("alone")
    if order.attach_to:
        parts.append(f"attach to {order.attach_to}")
    if order.detach:
        parts.append("detach")
    parts.append(f"contact {order.contact.mode or 'accept'}")
    parts.append(f"combat {order.combat.stance or 'accept'}")
    if order.commerce and order.commerce != "ignore":
        parts.append(order.commerce)
    if order.HasField("operation"):
        parts.insert(0, "operation " + operation_form.describe(order.operation))
    return ", ".join(parts)
