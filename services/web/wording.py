"""The order desk's refusals in the players' words: a ship and a line, not an
internal field path, and one refusal per line."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pate.v1 import common_pb2

# an internal path: what it is a list of, which item, and the field inside it
_ITEM = re.compile(r"^(orders|stores_moves|assignments)\[(\d+)\]\.?(.*)$")
_KIND = {"orders": "order", "stores_moves": "store move", "assignments": "assignment"}
_PARTS = (
    (re.compile(r"(movement\.)?sea_areas\[0\]"), "first sea area"),
    (re.compile(r"(movement\.)?sea_areas\[1\]"), "second sea area"),
    (re.compile(r"sea_areas\[(\d+)\]"), "sea area"),
    (re.compile(r"\[\d+\]"), ""),
    (re.compile(r"[._]+"), " "),
)
_WHOLE = {
    "orders_text": "the order text",
    "stores_moves": "store moves",
    "assignments": "officers",
    "notifications.email": "Email address",
    "notifications.webhook": "Webhook URL",
    "email": "Email address",
    "webhook": "Webhook URL",
}
_PREFIX = re.compile(
    r"^(orders_text|notifications\.\w+|(orders|stores_moves|assignments)(\[\d+\])?[.\w\[\]]*"
    r"|[a-z_]+(\[\d+\])?): "
)
# several refusals of an order text run together: "line 7, ...; line 8, ..."
_NEXT_LINE = re.compile(r"; (?=line \d+\b)")
# the order text's list of every line it knows, cut short by the desk's excerpts: the help says it whole
_LINE_LIST = re.compile(r"; lines are: [^;]*")
# the ship a pasted block is for, in the order the desk numbers them
_BLOCK = re.compile(r"^[ \t]*order[ \t]+([A-Za-z0-9_-]{1,32})", re.I | re.M)


def _words(rest: str) -> str:
    for pattern, said in _PARTS:
        rest = pattern.sub(said, rest)
    return rest.strip()


def field(path: str, names: Sequence[str] | None = None) -> str:
    """ "orders[0].movement.port" -> "FR3FL, movement port": the item by its name
    (a ship, a store move "Brest to Lorient") where ``names`` has it, else by its
    number ("order 1, ...")."""
    found = _ITEM.match(path)
    if found is None:
        return _WHOLE.get(path) or _words(path)
    kind, i, rest = found.group(1), int(found.group(2)), _words(found.group(3))
    who = names[i] if names and i < len(names) else f"{_KIND[kind]} {i + 1}"
    return f"{who}, {rest}" if rest else who


def lines(message: str, names: Sequence[str] | None = None) -> list[str]:
    """A refusal message of several parts ("line 7, ...; line 8, ...") one per line,
    each field named in words (the order text's own name left out: its lines say where)."""
    out = []
    for raw in _NEXT_LINE.split(message):
        part = _LINE_LIST.sub(" (the order format help lists the lines)", raw).strip()
        found = _PREFIX.match(part)
        if found:
            rest = part[found.end() :]
            part = rest if found.group(1) == "orders_text" else f"{field(found.group(1), names)}: {rest}"
        if part:
            out.append(part)
    return out


def refusal(r: common_pb2.Refusal, names: Sequence[str] | None = None) -> str:
    said = f"{field(r.field, names)}: {r.message}" if r.field else r.message
    return f"{said} (rule {r.rule})" if r.rule else said


def refusals(
    found: Sequence[common_pb2.Refusal], message: str, names: Sequence[str] | None = None
) -> list[str]:
    """Every refusal of a reply, one a line; its message alone when it lists none."""
    return [refusal(r, names) for r in found] or lines(message, names)


def pasted_ships(text: str) -> list[str]:
    """The ships an order text gives orders to, block by block (docs/formats/orders.md)."""
    return [m.group(1).upper() for m in _BLOCK.finditer(text)]
