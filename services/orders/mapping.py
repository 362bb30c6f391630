"""Translation between the protobuf order form and the core's ShipOrder.

Enumerated words are checked here so that a malformed request is refused with
the field named, before any rule is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TypeVar

from pate.core.orders import model as m
from pate.core.orders.column_check import column_limits
from pate.core.orders.lexer import SEA_CODE
from pate.core.orders.operation import (
    ADMIRAL_MAX,
    COLUMN_SHIPS_MAX,
    COLUMNS_MAX,
    DECLARE_AT_MAX,
    PLAN_MAX,
    WITH_CHAIN,
    WITH_CORPS,
    Column,
    ColumnAction,
    ColumnStep,
    Condition,
    Operation,
    OpKind,
)
from pate.core.orders.operation_text import CHAIN_MAX, CORPS, NAME_MAX
from pate.v1 import common_pb2 as pb

E = TypeVar("E", bound=StrEnum)


class MappingError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _enum(cls: type[E], text: str, default: E | None, field: str) -> E:
    """The enum value named by ``text``; an empty text takes ``default`` (None: required)."""
    if not text:
        if default is None:
            raise MappingError(field, "is required")
        return default
    try:
        return cls(text)
    except ValueError:
        allowed = " | ".join(e.value for e in cls)
        raise MappingError(field, f"{text!r} is not one of {allowed}") from None


def _count(value: int, field: str) -> int:
    if value < 0:
        raise MappingError(field, "must not be negative")
    return value


def order_from_pb(o: pb.ShipOrder, where: str = "orders[0]") -> m.ShipOrder:
    if not o.ship_id:
        raise MappingError(f"{where}.ship_id", "is required")
    mv = o.movement
    if len(mv.sea_areas) > 2:
        raise MappingError(f"{where}.movement.sea_areas", "names at most two sea areas (rule 6.1)")
    c = o.contact
    k = o.combat
    return m.ShipOrder(
        ship_id=o.ship_id,
        attach_to=o.attach_to or None,
        detach=o.detach,
        movement=m.Movement(
            sea_areas=tuple(mv.sea_areas),
            port=mv.port or None,
            any_enemy_port=mv.any_enemy_port,
            harbor=mv.harbor,
            sail_alone=mv.sail_alone,
        ),
        contact=m.Contact(
            mode=_enum(m.ContactMode, c.mode, m.ContactMode.ACCEPT, f"{where}.contact.mode"),
            minimum=_count(c.minimum, f"{where}.contact.minimum") if c.HasField("minimum") else None,
            maximum=_count(c.maximum, f"{where}.contact.maximum") if c.HasField("maximum") else None,
            join_allies=c.join_allies if c.HasField("join_allies") else True,
            gauge=_enum(m.Gauge, c.gauge, m.Gauge.LEEWARD, f"{where}.contact.gauge"),
        ),
        combat=m.Combat(
            stance=_enum(m.CombatStance, k.stance, m.CombatStance.ACCEPT, f"{where}.combat.stance"),
            range=_enum(m.Range, k.range, m.Range.RANGE, f"{where}.combat.range"),
            line=_enum(m.Line, k.line, m.Line.LINE_AHEAD, f"{where}.combat.line"),
            aim=_enum(m.Aim, k.aim, m.Aim.RIGGING, f"{where}.combat.aim"),
            flee_to=_enum(m.FleeTo, k.flee_to, m.FleeTo.HARBOR, f"{where}.combat.flee_to"),
            closing_shift=k.closing_shift if k.HasField("closing_shift") else None,
        ),
        commerce=_enum(m.Commerce, o.commerce, m.Commerce.IGNORE, f"{where}.commerce"),
        stores=_count(o.stores, f"{where}.stores") if o.HasField("stores") else None,
        amphibious=m.Amphibious(
            load_units=tuple(o.amphibious.load_units),
            unload_units=tuple(o.amphibious.unload_units),
            load_supplies=_count(o.amphibious.load_supplies, f"{where}.amphibious.load_supplies"),
            unload_supplies=_count(o.amphibious.unload_supplies, f"{where}.amphibious.unload_supplies"),
        ),
        admin=tuple(
            m.AdminOrder(
                kind=_enum(m.AdminKind, a.kind, None, f"{where}.admin[{i}].kind"),
                target=a.target or None,
                amount=_count(a.amount, f"{where}.admin[{i}].amount"),
            )
            for i, a in enumerate(o.admin)
        ),
        operation=operation_from_pb(o.operation, f"{where}.operation") if o.HasField("operation") else None,
    )


def operation_from_pb(p: pb.Operation, where: str) -> Operation:
    """A fleet's operation (docs/rules/eia-operations.md), its limits checked
    before anything is built: the order line's (operation_text)."""
    kind = _enum(OpKind, p.kind, None, f"{where}.kind")
    if len(p.chain) > CHAIN_MAX:
        raise MappingError(f"{where}.chain", f"names at most {CHAIN_MAX} sea zones")
    for i, code in enumerate(p.chain):
        if not SEA_CODE.fullmatch(code):
            raise MappingError(f"{where}.chain[{i}]", "give a three-letter sea area code")
    if p.corps and not CORPS.fullmatch(p.corps):
        raise MappingError(f"{where}.corps", "a GITM unit id of at most 32 letters, digits, _ and -")
    if len(p.to) > NAME_MAX:
        raise MappingError(f"{where}.to", f"at most {NAME_MAX} characters")
    needs = {"corps": kind in WITH_CORPS, "to": kind in WITH_CORPS or kind is OpKind.REBASE}
    for name, needed in needs.items():
        if needed and not getattr(p, name):
            raise MappingError(f"{where}.{name}", f"is required for {kind.value}")
    if kind in WITH_CHAIN and not p.chain:
        raise MappingError(f"{where}.chain", f"is required for {kind.value}")
    if p.declare_at > DECLARE_AT_MAX:
        raise MappingError(f"{where}.declare_at", f"a place in the round of 1 to {DECLARE_AT_MAX} (0: last)")
    columns = columns_from_pb(p.columns, f"{where}.columns")
    return Operation(
        kind,
        p.corps or None,
        p.to or None,
        p.blockade,
        tuple(p.chain),
        p.return_to_base,
        p.declare_at,
        columns,
    )


def columns_from_pb(cols: Sequence[pb.Column], where: str) -> tuple[Column, ...]:
    """Column orders, their sizes bounded before anything is built; then the
    form's own checks (column_check.column_limits), by the same field."""
    if len(cols) > COLUMNS_MAX:
        raise MappingError(where, f"at most {COLUMNS_MAX} columns")
    for i, c in enumerate(cols):
        if len(c.ships) > COLUMN_SHIPS_MAX or len(c.plan) > PLAN_MAX or len(c.admiral) > ADMIRAL_MAX:
            raise MappingError(
                f"{where}[{i}]",
                f"at most {COLUMN_SHIPS_MAX} ships, {PLAN_MAX} plan steps,"
                f" an admiral of {ADMIRAL_MAX} characters",
            )
    out = tuple(
        Column(
            tuple(c.ships),
            c.admiral or None,
            tuple(
                ColumnStep(
                    _enum(ColumnAction, s.action, None, f"{where}[{i}].plan[{k}].action"),
                    s.target,
                    _enum(Condition, s.when, Condition.ALWAYS, f"{where}[{i}].plan[{k}].when"),
                )
                for k, s in enumerate(c.plan)
            ),
        )
        for i, c in enumerate(cols)
    )
    for refusal in column_limits(out):
        raise MappingError(refusal.field.replace("operation.columns", where, 1), refusal.message)
    return out


def columns_to_pb(columns: tuple[Column, ...]) -> list[pb.Column]:
    return [
        pb.Column(
            ships=list(c.ships),
            admiral=c.admiral or "",
            plan=[pb.ColumnStep(action=s.action.value, target=s.target, when=s.when.value) for s in c.plan],
        )
        for c in columns
    ]


def order_to_pb(o: m.ShipOrder) -> pb.ShipOrder:
    out = pb.ShipOrder(
        ship_id=o.ship_id,
        attach_to=o.attach_to or "",
        detach=o.detach,
        movement=pb.Movement(
            sea_areas=list(o.movement.sea_areas),
            port=o.movement.port or "",
            any_enemy_port=o.movement.any_enemy_port,
            harbor=o.movement.harbor,
            sail_alone=o.movement.sail_alone,
        ),
        contact=pb.Contact(
            mode=o.contact.mode.value, join_allies=o.contact.join_allies, gauge=o.contact.gauge.value
        ),
        combat=pb.Combat(
            stance=o.combat.stance.value,
            range=o.combat.range.value,
            line=o.combat.line.value,
            aim=o.combat.aim.value,
            flee_to=o.combat.flee_to.value,
            closing_shift=o.combat.closing_shift,
        ),
        commerce=o.commerce.value,
        amphibious=pb.Amphibious(
            load_units=list(o.amphibious.load_units),
            unload_units=list(o.amphibious.unload_units),
            load_supplies=o.amphibious.load_supplies,
            unload_supplies=o.amphibious.unload_supplies,
        ),
        admin=[pb.AdminOrder(kind=a.kind.value, target=a.target or "", amount=a.amount) for a in o.admin],
    )
    if o.contact.minimum is not None:
        out.contact.minimum = o.contact.minimum
    if o.contact.maximum is not None:
        out.contact.maximum = o.contact.maximum
    if o.stores is not None:
        out.stores = o.stores
    if o.operation is not None:
        out.operation.CopyFrom(operation_to_pb(o.operation))
    return out


def operation_to_pb(op: Operation) -> pb.Operation:
    return pb.Operation(
        kind=op.kind.value,
        corps=op.corps or "",
        to=op.to or "",
        blockade=op.blockade,
        chain=list(op.chain),
        return_to_base=op.return_to_base,
        declare_at=op.declare_at,
        columns=columns_to_pb(op.columns),
    )
