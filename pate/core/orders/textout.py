"""Writing orders in the readable order format (docs/formats/orders.md).

Only what differs from the defaults of rule 4.11 is written.  Values the
format cannot carry (a ship id that is not one, a negative number) raise
ValueError rather than produce text that would read back differently.
"""

from __future__ import annotations

from collections.abc import Iterable

from pate.core.orders.column_text import format_columns
from pate.core.orders.lexer import (
    ANY_ENEMY,
    MOVE_FLAGS,
    NUMBER,
    SAIL_FLAGS,
    SEA_CODE,
    bare_word_ok,
    is_ship_id,
    keyword,
    quote,
)
from pate.core.orders.model import (
    AdminKind,
    AdminOrder,
    Aim,
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
)
from pate.core.orders.operation_text import format_operation

INDENT = "  "


def format_orders(orders: Iterable[ShipOrder]) -> str:
    """Several orders, one block each, separated by blank lines."""
    return "\n".join(format_order(o) for o in orders)


def format_order(order: ShipOrder) -> str:
    body: list[str] = []
    if order.attach_to is not None:
        body.append(f"attach {_ship(order.attach_to)}")
    if order.detach:
        body.append("detach")
    if order.movement != Movement():
        body.append(_move(order.movement))
    if order.contact != Contact():
        body.append(_contact(order.contact))
    if order.combat != Combat():
        body.append(_combat(order.combat))
    if order.commerce is not Commerce.IGNORE:
        body.append(f"commerce {order.commerce.value}")
    if order.stores is not None:
        body.append(f"stores {_num(order.stores)}")
    a = order.amphibious
    if a.load_units or a.load_supplies:
        body.append(_cargo("load", a.load_units, a.load_supplies))
    if a.unload_units or a.unload_supplies:
        body.append(_cargo("unload", a.unload_units, a.unload_supplies))
    body += [_admin(adm) for adm in order.admin]
    if order.operation is not None:
        body.append(format_operation(order.operation))
        body += format_columns(order.operation.columns)
    return "\n".join([f"order {_ship(order.ship_id)}", *(INDENT + line for line in body)]) + "\n"


def _ship(sid: str) -> str:
    if not is_ship_id(sid):
        raise ValueError(f"{sid!r} is not a ship id")
    return sid


def _num(n: int) -> str:
    text = str(n) if isinstance(n, int) and not isinstance(n, bool) else ""
    if not NUMBER.fullmatch(text):
        raise ValueError(f"{n!r} is not a whole number from 0 to 999999999")
    return text


def _move(mv: Movement) -> str:
    parts = ["move"]
    for code in mv.sea_areas:
        if not SEA_CODE.fullmatch(code):
            raise ValueError(f"{code!r} is not a three-letter sea area code")
        parts.append(code)
    if mv.any_enemy_port:
        parts += ["port", ANY_ENEMY]
    if mv.port is not None:
        parts += ["port", port_name(mv.port)]
    if mv.harbor:
        parts.append("harbor")
    if mv.sail_alone:
        parts.append("alone")
    return " ".join(parts)


def port_name(name: str) -> str:
    """The name bare when it reads back unchanged, else quoted."""
    words = name.split(" ")
    stops = MOVE_FLAGS.keys() | SAIL_FLAGS.keys()
    bare = (
        all(bare_word_ok(w) for w in words)
        and not any(keyword(w) in stops for w in words)
        and keyword(words[0]) != ANY_ENEMY
    )
    return name if bare else quote(name)


def _contact(c: Contact) -> str:
    parts = ["contact", c.mode.value]
    if c.minimum is not None:
        parts += ["min", _num(c.minimum)]
    if c.maximum is not None:
        parts += ["max", _num(c.maximum)]
    if c.join_allies != (c.mode is not ContactMode.EVADE):
        parts.append("join-allies" if c.join_allies else "separate")
    if c.gauge is not Gauge.LEEWARD:
        parts += ["gauge", c.gauge.value]
    if not c.pursue_into_ports:
        parts.append("not-into-ports")
    return " ".join(parts)


def _combat(c: Combat) -> str:
    parts = ["combat"]
    if c.stance is not CombatStance.ACCEPT:
        parts.append(c.stance.value.replace("_", "-"))
    if c.range is not Range.RANGE:
        parts.append(c.range.value)
    if c.line is not Line.LINE_AHEAD:
        parts.append(c.line.value.replace("_", "-"))
    if c.aim is not Aim.RIGGING:
        parts += ["aim", c.aim.value]
    if c.flee_to is not FleeTo.HARBOR:
        parts += ["flee", c.flee_to.value]
    if c.closing_shift is not None:
        parts += ["nelson", str(c.closing_shift)]
    return " ".join(parts)


def _cargo(word: str, units: tuple[str, ...], supplies: int) -> str:
    parts = [word]
    if units:
        parts.append("units")
        for unit in units:
            if not bare_word_ok(unit) or keyword(unit) == "supplies":
                raise ValueError(f"{unit!r} cannot be written as a unit id")
            parts.append(unit)
    if supplies:
        parts += ["supplies", _num(supplies)]
    return " ".join(parts)


def _admin(adm: AdminOrder) -> str:
    kind = adm.kind
    if kind is AdminKind.TRANSFER_CREW and adm.target is not None:
        return f"transfer-crew {_num(adm.amount)} to {_ship(adm.target)}"
    if kind is AdminKind.DIVIDE and adm.target is None:
        return f"divide {_num(adm.amount)}"
    if kind is AdminKind.COMBINE and adm.target is not None and adm.amount == 0:
        return f"combine {_ship(adm.target)}"
    simple = kind in (AdminKind.INACTIVATE, AdminKind.REACTIVATE, AdminKind.SCUTTLE)
    if simple and adm.target is None and adm.amount == 0:
        return kind.value
    raise ValueError(f"{adm!r} cannot be written in the order format")
