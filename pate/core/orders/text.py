"""The readable order format players write by hand (docs/formats/orders.md).

One block per ship, opened by ``order <ship id>``; every other line is
optional and sets one section of the order form (rules 4.4 to 4.9), anything
left out keeps the default of rule 4.11.  ``#`` starts a comment.

:func:`parse_orders` reads a whole file and reports every problem with its
line and column; :func:`format_order` writes an order back so that
``parse_orders(format_order(o)) == [o]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pate.core.orders.column_text import parse_column
from pate.core.orders.lexer import (
    ANY_ENEMY,
    MOVE_FLAGS,
    SAIL_FLAGS,
    SEA_CODE,
    Cursor,
    OrderSyntaxError,
    Problem,
    Token,
    tokenize,
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
from pate.core.orders.operation import Column
from pate.core.orders.operation_text import parse_operation
from pate.core.orders.textout import format_order, format_orders

__all__ = ["OrderSyntaxError", "Problem", "format_order", "format_orders", "parse_orders"]

# Lines that may appear once per block; administrative lines may repeat.
ONCE = ("attach", "detach", "move", "contact", "combat", "commerce", "stores", "load", "unload", "operation")


@dataclass
class _Block:
    """An order being read (mutable while its lines are parsed)."""

    ship_id: str
    line: int
    seen: dict[str, int] = field(default_factory=dict)
    order: ShipOrder = field(init=False)
    admin: list[AdminOrder] = field(default_factory=list)
    columns: list[Column] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.order = ShipOrder(self.ship_id)

    def set(self, **changes: object) -> None:
        self.order = replace(self.order, **changes)  # type: ignore[arg-type]

    def build(self) -> ShipOrder:
        op = self.order.operation
        if op is not None and self.columns:
            op = replace(op, columns=tuple(self.columns))
        return replace(self.order, admin=tuple(self.admin), operation=op)


def parse_orders(text: str) -> list[ShipOrder]:
    """The orders in ``text``, in the order written; raises
    :class:`OrderSyntaxError` listing every problem found."""
    problems: list[Problem] = []
    blocks: list[_Block] = []
    first: dict[str, int] = {}
    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw.removesuffix("\r")
        tokens = tokenize(line, lineno, problems)
        if not tokens:
            continue
        head, cur = tokens[0], Cursor(tokens[1:], lineno, len(line) + 1, problems)
        if head.word == "order":
            blocks.append(_open(cur, head, first))
        elif not blocks:
            cur.error(head, "start each ship's orders with a line `order <ship id>`")
        else:
            _line(head, cur, blocks[-1])
    for b in blocks:
        if b.columns and b.order.operation is None:
            msg = f"column lines are a fleet's column orders: give {b.ship_id} an operation line too"
            problems.append(Problem(b.seen["column"], 1, msg))
    if problems:
        raise OrderSyntaxError(problems)
    return [b.build() for b in blocks]


def _open(cur: Cursor, head: Token, first: dict[str, int]) -> _Block:
    sid = cur.ship("order")
    cur.finish()
    if sid is not None and sid in first:
        cur.error(head, f"a second order for {sid}; its first is on line {first[sid]}")
    if sid is not None:
        first.setdefault(sid, cur.lineno)
    return _Block(sid or "XX1SL", cur.lineno)


def _line(head: Token, cur: Cursor, block: _Block) -> None:
    name = head.word
    handler = _LINES.get(name)
    if handler is None:
        cur.error(head, f"unknown line {head.text!r}; lines are: order, {', '.join(sorted(_LINES))}")
        return
    if name in ONCE and name in block.seen:
        cur.error(head, f"a second {name} line for {block.ship_id}; the first is on line {block.seen[name]}")
        return
    block.seen.setdefault(name, cur.lineno)
    handler(cur, block)
    cur.finish()


def _attach(cur: Cursor, block: _Block) -> None:
    block.set(attach_to=cur.ship("attach"))


def _detach(cur: Cursor, block: _Block) -> None:
    block.set(detach=True)


def _move(cur: Cursor, block: _Block) -> None:
    sea: list[str] = []
    port: str | None = None
    any_enemy = False
    flags: dict[str, bool] = {}
    while (tok := cur.take()) is not None:
        w = tok.word
        if w == "port":
            name, anywhere = _port_name(cur)
            if (anywhere and any_enemy) or (name is not None and port is not None):
                cur.error(tok, "a move names one port")
            any_enemy = any_enemy or anywhere
            port = port if name is None else name
        elif w in MOVE_FLAGS or w in SAIL_FLAGS:
            group, value = ("harbor", MOVE_FLAGS[w]) if w in MOVE_FLAGS else ("alone", SAIL_FLAGS[w])
            if group in flags:
                cur.error(tok, f"{tok.text!r}: harbor/coastal or alone/together given twice")
            flags[group] = value
        elif port is None and not any_enemy and not tok.quoted and SEA_CODE.fullmatch(tok.text.upper()):
            sea.append(tok.text.upper())
        else:
            cur.error(
                tok, f"{tok.text!r}: sea areas are three-letter codes (rule 1.4), written before the port"
            )
    movement = Movement(
        sea_areas=tuple(sea),
        port=port,
        any_enemy_port=any_enemy,
        harbor=flags.get("harbor", False),
        sail_alone=flags.get("alone", False),
    )
    block.set(movement=movement)


def _port_name(cur: Cursor) -> tuple[str | None, bool]:
    """A quoted name, bare words up to harbor/coastal/alone/together, or
    ``any-enemy`` (any port with an enemy ship, rule 4.5): (name, any-enemy)."""
    tok = cur.peek()
    stops = MOVE_FLAGS.keys() | SAIL_FLAGS.keys()
    if tok is None or tok.word in stops:
        cur.error(tok, "port: name the port, or write any-enemy")
        return None, False
    cur.take()
    if tok.quoted:
        return tok.text, False
    if tok.word == ANY_ENEMY:
        return None, True
    words = [tok.text]
    while (nxt := cur.peek()) is not None and not nxt.quoted and nxt.word not in stops:
        words.append(nxt.text)
        cur.take()
    return " ".join(words), False


_MODES = {m.value: m.value for m in ContactMode}
_GAUGES = {g.value: g.value for g in Gauge}


def _contact(cur: Cursor, block: _Block) -> None:
    got: dict[str, object] = {}

    def put(key: str, tok: Token, value: object) -> None:
        if key in got:
            cur.error(tok, f"{key} given twice")
        got[key] = value

    while (tok := cur.take()) is not None:
        w = tok.word
        if w in _MODES:
            put("mode", tok, ContactMode(w))
        elif w in ("min", "minimum", "max", "maximum"):
            put(w[:3], tok, cur.number(w))
        elif w in ("join-allies", "separate"):
            put("join", tok, w == "join-allies")
        elif w in ("into-ports", "not-into-ports"):
            put("into-ports", tok, w == "into-ports")
        elif w == "gauge":
            put("gauge", tok, cur.choice("gauge", _GAUGES))
        elif w in _GAUGES:
            put("gauge", tok, w)
        else:
            cur.error(
                tok,
                f"unexpected {tok.text!r}: contact pursue|evade|accept [min N] [max N] "
                "[join-allies|separate] [gauge windward|leeward] [not-into-ports]",
            )
    mode = got.get("mode", ContactMode.ACCEPT)
    assert isinstance(mode, ContactMode)
    join = got.get("join", mode is not ContactMode.EVADE)
    gauge = got.get("gauge") or Gauge.LEEWARD.value
    block.set(
        contact=Contact(
            mode=mode,
            minimum=_int_or_none(got.get("min")),
            maximum=_int_or_none(got.get("max")),
            join_allies=bool(join),
            gauge=Gauge(str(gauge)),
            pursue_into_ports=bool(got.get("into-ports", True)),
        )
    )


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None


_COMBAT_WORDS: dict[str, tuple[str, object]] = {
    "engage": ("stance", CombatStance.ENGAGE),
    "accept": ("stance", CombatStance.ACCEPT),
    "evade": ("stance", CombatStance.EVADE),
    "run-past": ("stance", CombatStance.RUN_PAST),
    "range": ("range", Range.RANGE),
    "close": ("range", Range.CLOSE),
    "line-ahead": ("line", Line.LINE_AHEAD),
    "break": ("line", Line.BREAK),
    "hull": ("aim", Aim.HULL),
    "rigging": ("aim", Aim.RIGGING),
}
_AIMS = {"hull": "hull", "rigging": "rigging"}
_FLEES = {"harbor": "harbor", "harbour": "harbor", "sea": "sea"}


def _combat(cur: Cursor, block: _Block) -> None:
    got: dict[str, object] = {}
    while (tok := cur.take()) is not None:
        w = tok.word
        if w == "aim":
            key, value = "aim", _enum(Aim, cur.choice("aim", _AIMS))
        elif w == "flee":
            key, value = "flee_to", _enum(FleeTo, cur.choice("flee", _FLEES))
        elif w == "nelson":
            key, value = "closing_shift", cur.number("nelson")
        elif w in _COMBAT_WORDS:
            key, value = _COMBAT_WORDS[w]
        else:
            cur.error(
                tok,
                f"unexpected {tok.text!r}: combat [engage|accept|evade|run-past] [range|close] "
                "[line-ahead|break] [aim hull|rigging] [flee harbor|sea] [nelson 1|2]",
            )
            continue
        if key in got:
            cur.error(tok, f"{key.replace('_', ' ')} given twice")
        got[key] = value
    block.set(combat=Combat(**{k: v for k, v in got.items() if v is not None}))  # type: ignore[arg-type]


def _enum(cls: type[Aim] | type[FleeTo], value: str | None) -> object:
    return None if value is None else cls(value)


_COMMERCE = {c.value: c.value for c in Commerce}


def _commerce(cur: Cursor, block: _Block) -> None:
    value = cur.choice("commerce", _COMMERCE)
    if value is not None:
        block.set(commerce=Commerce(value))


def _stores(cur: Cursor, block: _Block) -> None:
    block.set(stores=cur.number("stores"))


def _cargo(loading: bool) -> Callable[[Cursor, _Block], None]:
    what = "load" if loading else "unload"

    def handle(cur: Cursor, block: _Block) -> None:
        units: list[str] = []
        supplies: int | None = None
        while (tok := cur.take()) is not None:
            if tok.word == "units":
                while (nxt := cur.peek()) is not None and nxt.word != "supplies":
                    units.append(nxt.text)
                    cur.take()
                if not units:
                    cur.error(tok, "units: name the units")
            elif tok.word == "supplies":
                supplies = cur.number("supplies")
            else:
                cur.error(tok, f"unexpected {tok.text!r}: {what} [units UNIT...] [supplies N]")
        if not units and supplies is None:
            cur.error(None, f"{what} what? {what} units UNIT... and/or supplies N")
        a = block.order.amphibious
        if loading:
            a = replace(a, load_units=tuple(units), load_supplies=supplies or 0)
        else:
            a = replace(a, unload_units=tuple(units), unload_supplies=supplies or 0)
        block.set(amphibious=a)

    return handle


def _simple(kind: AdminKind) -> Callable[[Cursor, _Block], None]:
    def handle(cur: Cursor, block: _Block) -> None:
        block.admin.append(AdminOrder(kind))

    return handle


def _transfer(cur: Cursor, block: _Block) -> None:
    amount = cur.number("transfer-crew")
    to = cur.take()
    if to is None or to.word != "to":
        cur.error(to, "transfer-crew N to SHIP")
        return
    target = cur.ship("transfer-crew to")
    if amount is not None and target is not None:
        block.admin.append(AdminOrder(AdminKind.TRANSFER_CREW, target, amount))


def _divide(cur: Cursor, block: _Block) -> None:
    amount = cur.number("divide")
    if amount is not None:
        block.admin.append(AdminOrder(AdminKind.DIVIDE, None, amount))


def _combine(cur: Cursor, block: _Block) -> None:
    target = cur.ship("combine")
    if target is not None:
        block.admin.append(AdminOrder(AdminKind.COMBINE, target))


def _operation(cur: Cursor, block: _Block) -> None:
    op = parse_operation(cur)
    if op is not None:
        block.set(operation=op)


def _column(cur: Cursor, block: _Block) -> None:
    col = parse_column(cur, len(block.columns))
    if col is not None:
        block.columns.append(col)


_LINES: dict[str, Callable[[Cursor, _Block], None]] = {
    "operation": _operation,
    "column": _column,
    "attach": _attach,
    "detach": _detach,
    "move": _move,
    "contact": _contact,
    "combat": _combat,
    "commerce": _commerce,
    "stores": _stores,
    "load": _cargo(True),
    "unload": _cargo(False),
    "inactivate": _simple(AdminKind.INACTIVATE),
    "reactivate": _simple(AdminKind.REACTIVATE),
    "scuttle": _simple(AdminKind.SCUTTLE),
    "transfer-crew": _transfer,
    "divide": _divide,
    "combine": _combine,
}
