"""The order form's section for a fleet marker's naval operation (EiA new naval
rules, docs/rules/eia-operations.md): the choices it offers and how its fields
become the ``Operation`` of a ShipOrder.

The choices are the ones the orders service lists for the fleet's lead
(``MyShip.operations``: each an operation the desk's own check accepts as the
world stands), so the form offers only legal kinds, targets and corps.  A
Protect Trade or Supply chain may go on past the first sea zone offered; the
order desk checks the rest and its refusal is shown beside the chain field.
Field names follow the order form's: ``<i>.op_kind``, ``<i>.op_target``,
``<i>.op_corps``, ``<i>.op_chain``; and the orders of the text's "may":
``<i>.op_return`` (a Transport or Invasion fleet goes home after landing),
``<i>.op_declare`` (Britain's place in each round of declaring) and
``<i>.op_columns`` (the fleet's column orders, the order format's ``column``
lines, one a line, read by the core's own parser).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pate.core.orders.column_text import parse_column
from pate.core.orders.lexer import Cursor, Problem, bare_word_ok, quote, tokenize
from pate.core.orders.operation import DECLARE_AT_MAX
from pate.reports.operations import OP_WORDS  # the names the reports use, one list
from pate.v1 import common_pb2, desk_pb2

BLOCKADE = "blockade "  # a Rebase target into an enemy port's blockade box
CHAIN_LIMIT = 28  # sea zones a chain may name (steps.chain_total; the desk checks it again)
FIELD_MAX = 200  # characters read from one field before anything else is done
COLUMNS_FIELD_MAX = 2000  # characters read from the column orders (six lines of a column each)
MAY_RETURN = ("transport", "invasion")  # the kinds whose fleet may go home after landing
_SEA = re.compile(r"[A-Z]{3}")
# A refusal's field path (after ``orders[i].``) and the input it is shown beside.
INPUTS = (
    (re.compile(r"^operation\.kind"), "op_kind"),
    (re.compile(r"^operation\.(to|blockade)"), "op_target"),
    (re.compile(r"^operation\.corps"), "op_corps"),
    (re.compile(r"^operation\.chain"), "op_chain"),
    (re.compile(r"^operation\.return_to_base"), "op_return"),
    (re.compile(r"^operation\.declare_at"), "op_declare"),
    (re.compile(r"^operation\.columns"), "op_columns"),
    (re.compile(r"^operation"), "op_kind"),
)


@dataclass(frozen=True, slots=True)
class Target:
    value: str  # the form value
    label: str  # what the player reads


@dataclass(frozen=True, slots=True)
class Choices:
    """What the section offers one fleet: the kinds, and each kind's targets and corps."""

    kinds: tuple[tuple[str, str], ...]  # (kind, readable name)
    targets: dict[str, tuple[Target, ...]]  # by kind; empty for a kind that takes none
    corps: dict[str, tuple[str, ...]]  # by kind: the corps aboard it may carry

    def __bool__(self) -> bool:
        return bool(self.kinds)

    @property
    def all_corps(self) -> tuple[str, ...]:
        return tuple(sorted({c for cs in self.corps.values() for c in cs}))


def _target_of(op: common_pb2.Operation) -> Target | None:
    if op.chain:
        return Target(op.chain[0], f"from sea zone {op.chain[0]}")
    if not op.to:
        return None
    if op.blockade:
        return Target(BLOCKADE + op.to, f"the blockade box of {op.to}")
    return Target(op.to, op.to)


def choices_of(ship: desk_pb2.MyShip) -> Choices:
    kinds: list[str] = []
    targets: dict[str, list[Target]] = {}
    corps: dict[str, list[str]] = {}
    for op in ship.operations:
        if op.kind not in kinds:
            kinds.append(op.kind)
        target = _target_of(op)
        if target is not None and target not in targets.setdefault(op.kind, []):
            targets[op.kind].append(target)
        if op.corps and op.corps not in corps.setdefault(op.kind, []):
            corps[op.kind].append(op.corps)
    return Choices(
        tuple((k, OP_WORDS.get(k, k)) for k in kinds),
        {k: tuple(v) for k, v in targets.items()},
        {k: tuple(v) for k, v in corps.items()},
    )


class OperationFormError(ValueError):
    """A field of the section the form itself refuses (a choice it did not offer)."""

    def __init__(self, index: int, name: str, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.name = name
        self.message = message


def _chain_rest(text: str, index: int) -> list[str]:
    codes = [w.upper() for w in re.split(r"[\s,]+", text.strip()) if w]
    if len(codes) > CHAIN_LIMIT - 1:
        raise OperationFormError(index, "op_chain", f"a chain names at most {CHAIN_LIMIT} sea zones")
    for code in codes:
        if not _SEA.fullmatch(code):
            raise OperationFormError(
                index, "op_chain", "give three-letter sea area codes, separated by spaces"
            )
    return codes


def operation_from_form(
    form: Mapping[str, str], index: int, ship: desk_pb2.MyShip | None
) -> common_pb2.Operation | None:
    """The operation the player chose for ship number ``index``, or None when
    the section was left at "none".  Only the choices offered are read: a kind,
    target or corps not among them is refused here, naming its field."""

    def get(name: str) -> str:
        return form.get(f"{index}.{name}", "")[:FIELD_MAX].strip()

    kind = get("op_kind")
    if not kind:
        return None
    offered = choices_of(ship) if ship is not None else Choices((), {}, {})
    if not offered:
        raise OperationFormError(index, "", "operation: this ship takes no naval operation in this campaign")
    if kind not in dict(offered.kinds):
        raise OperationFormError(index, "op_kind", "not an operation this fleet may take this turn")
    out = common_pb2.Operation(kind=kind)
    targets = {t.value: t for t in offered.targets.get(kind, ())}
    target = get("op_target")
    if targets:
        if target not in targets:
            raise OperationFormError(
                index, "op_target", f"choose one of the targets offered for {OP_WORDS[kind]}"
            )
        if kind in ("protect_trade", "supply"):
            out.chain.extend([target, *_chain_rest(get("op_chain"), index)])
        elif target.startswith(BLOCKADE):
            out.to, out.blockade = target[len(BLOCKADE) :], True
        else:
            out.to = target
    corps = offered.corps.get(kind, ())
    if corps:
        if get("op_corps") not in corps:
            raise OperationFormError(index, "op_corps", "choose a corps aboard the fleet")
        out.corps = get("op_corps")
    _options(out, get, index)
    text = form.get(f"{index}.op_columns", "")[:COLUMNS_FIELD_MAX]
    out.columns.extend(columns_from_text(text, index))
    return out


def _options(out: common_pb2.Operation, get: Callable[[str], str], index: int) -> None:
    """``return`` and ``declare N``: the form checks their form, the desk the rest."""
    if get("op_return"):
        if out.kind not in MAY_RETURN:
            raise OperationFormError(index, "op_return", "only a Transport or Invasion fleet may go home")
        out.return_to_base = True
    declare = get("op_declare")
    if declare:
        if not declare.isdigit() or not 1 <= int(declare) <= DECLARE_AT_MAX:
            raise OperationFormError(index, "op_declare", f"a place in the round, 1 to {DECLARE_AT_MAX}")
        out.declare_at = int(declare)


def columns_from_text(text: str, index: int) -> list[common_pb2.Column]:
    """The column orders typed in the form: one column a line, with or without
    the word ``column``; a problem is refused beside the field, with its line."""
    out: list[common_pb2.Column] = []
    problems: list[Problem] = []
    lines = [line for line in text.splitlines() if line.strip()]
    for lineno, line in enumerate(lines, 1):
        tokens = tokenize(line, lineno, problems)
        if tokens and tokens[0].word == "column":
            tokens = tokens[1:]
        col = (
            parse_column(Cursor(tokens, lineno, len(line) + 1, problems), len(out)) if not problems else None
        )
        if problems or col is None:
            break
        out.append(
            common_pb2.Column(
                ships=list(col.ships),
                admiral=col.admiral or "",
                plan=[
                    common_pb2.ColumnStep(action=st.action.value, target=st.target, when=st.when.value)
                    for st in col.plan
                ],
            )
        )
    if problems:
        raise OperationFormError(index, "op_columns", f"column {problems[0]}")
    return out


def columns_text(op: common_pb2.Operation) -> str:
    """The column orders as the form shows them, one column a line."""
    return "\n".join(_column_line(c) for c in op.columns)


def _column_line(c: common_pb2.Column) -> str:
    name = c.admiral if bare_word_ok(c.admiral) else quote(c.admiral)
    parts = list(c.ships) + (["admiral", name] if c.admiral else [])
    steps = [
        " ".join(
            x for x in (st.action, st.target, f"if {st.when}" if st.when not in ("", "always") else "") if x
        )
        for st in c.plan
    ]
    return " ".join(parts + (["plan", " then ".join(steps)] if steps else []))


def values_of(order: common_pb2.ShipOrder) -> dict[str, str]:
    """The section's values for an effective order (to show it filled in)."""
    if not order.HasField("operation"):
        empty = ("op_kind", "op_target", "op_corps", "op_chain", "op_return", "op_declare", "op_columns")
        return dict.fromkeys(empty, "")
    op = order.operation
    target = op.chain[0] if op.chain else (BLOCKADE + op.to if op.blockade else op.to)
    return {
        "op_kind": op.kind,
        "op_target": target,
        "op_corps": op.corps,
        "op_chain": " ".join(op.chain[1:]),
        "op_return": "on" if op.return_to_base else "",
        "op_declare": str(op.declare_at) if op.declare_at else "",
        "op_columns": columns_text(op),
    }


def describe(op: common_pb2.Operation) -> str:
    """One readable phrase for an operation (the campaign page's list of orders)."""
    parts = [OP_WORDS.get(op.kind, op.kind)]
    if op.corps:
        parts.append(op.corps)
    if op.to:
        parts.append(f"to the blockade box of {op.to}" if op.blockade else f"to {op.to}")
    if op.chain:
        parts.append("through " + " ".join(op.chain))
    if op.return_to_base:
        parts.append("and home")
    if op.declare_at:
        parts.append(f"(declared {op.declare_at}. in the round)")
    if op.columns:
        parts.append(f"in {len(op.columns)} column{'s' if len(op.columns) > 1 else ''} as ordered")
    return " ".join(parts)


def add_operations(
    form: Mapping[str, str], orders: list[common_pb2.ShipOrder], ships: Mapping[str, desk_pb2.MyShip]
) -> None:
    """Each order's operation from its section (OperationFormError on a choice not offered)."""
    for index, order in enumerate(orders):
        op = operation_from_form(form, index, ships.get(order.ship_id))
        if op is not None:
            order.operation.CopyFrom(op)


def chosen(form: Mapping[str, str], count: int) -> bool:
    """Whether any ship on the page was given an operation (then its offered choices are fetched)."""
    return any(form.get(f"{i}.op_kind", "").strip() for i in range(count))
