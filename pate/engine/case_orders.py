"""The orders of a case's turn (docs/formats/cases.md), read ship by ship:
a ship's block that is not in the order format (a second ``operation``
line, an unknown kind of operation) does not make the whole file
unreadable.  A refusal statement may expect it (``refused_rule =
"syntax"``); otherwise it is a problem of the file, located by its line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pate.core.orders.lexer import OrderSyntaxError, Problem
from pate.core.orders.model import ShipOrder
from pate.core.orders.text import parse_orders
from pate.core.world.ships import parse_ship_id

SYNTAX = "syntax"  # the rule a refusal statement names for a block not in the order format
_ORDER_LINE = re.compile(r"\s*order(?=\s|$)(?:\s+([^\s#]+))?")


@dataclass(frozen=True, slots=True)
class TurnOrders:
    orders: list[ShipOrder] = field(default_factory=list)  # of the blocks in the format
    unreadable: dict[str, list[Problem]] = field(default_factory=dict)  # ship -> its block's problems
    problems: list[Problem] = field(default_factory=list)  # outside any ship's block


def read_orders(text: str) -> TurnOrders:
    """Each ``order SHIP`` block parsed on its own, keeping its lines'
    numbers; a second block for a ship makes both unreadable."""
    out = TurnOrders()
    first: dict[str, int] = {}
    for start, sid, block in _blocks(text):
        try:
            parsed = parse_orders("\n" * (start - 1) + block)
        except OrderSyntaxError as err:
            if sid is None:
                out.problems.extend(err.problems)
            else:
                out.unreadable.setdefault(sid, []).extend(err.problems)
            parsed = []
        if sid is not None and sid in first:
            again = Problem(start, 1, f"a second order for {sid}; its first is on line {first[sid]}")
            out.unreadable.setdefault(sid, []).append(again)
        elif sid is not None:
            first[sid] = start
        out.orders.extend(parsed)
    kept = [o for o in out.orders if o.ship_id not in out.unreadable]
    return TurnOrders(kept, out.unreadable, out.problems)


def _blocks(text: str) -> list[tuple[int, str | None, str]]:
    """(first line, ship id if the ``order`` line names one, text) of each
    block; lines before the first ``order`` line are a block of no ship."""
    out: list[tuple[int, str | None, list[str]]] = []
    for lineno, line in enumerate(text.split("\n"), 1):
        m = _ORDER_LINE.match(line)
        if m or not out:
            named = m.group(1) if m else None
            sid = named if named is not None and parse_ship_id(named) is not None else None
            out.append((lineno, sid, []))
        out[-1][2].append(line)
    return [(start, sid, "\n".join(lines)) for start, sid, lines in out]
