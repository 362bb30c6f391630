"""The order desk's refusals in the players' words: a ship and a line, not an
internal field path, and one refusal per line."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pate.core.world.ships import ShipType
from pate.reports.words import TYPE_WORDS
from pate.v1 import common_pb2

# a player's roles as the page says them (the role "admin" is the campaign's game master)
ROLE_WORDS = {"admin": "game master", "naval_minister": "naval minister", "minister": "naval minister"}
ROLE_WORDS |= {"commander": "commander", "deputy": "deputy commander"}

# an internal path: what it is a list of, which item, and the field inside it
_ITEM = re.compile(r"(orders|stores_moves|assignments)\[(\d+)\]\.?(.*)")
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
# a pattern a service quotes in its refusal ("is not a player id ([A-Za-z0-9]...)"): never shown
_PATTERN = re.compile(r"\s*\((?=[^()]*[\[\]{}\\^$|])[^()]*\)")
# the ship a pasted block is for, in the order the desk numbers them
_BLOCK = re.compile(r"^[ \t]*order[ \t]+([A-Za-z0-9_-]{1,32})", re.I | re.M)


def plain(message: str) -> str:
    """A service's message without the patterns it quotes (a player reads words, not regexes)."""
    return _PATTERN.sub("", message)


def _words(rest: str) -> str:
    for pattern, said in _PARTS:
        rest = pattern.sub(said, rest)
    return rest.strip()


def field(path: str, names: Sequence[str] | None = None) -> str:
    """ "orders[0].movement.port" -> "FR3FL, movement port": the item by its name
    (a ship, a store move "Brest to Lorient") where ``names`` has it, else by its
    number ("order 1, ...")."""
    found = _ITEM.fullmatch(path)
    if found is None:
        return _WHOLE.get(path) or _words(path)
    kind, i, rest = found.group(1), int(found.group(2)), _words(found.group(3))
    who = names[i] if names and i < len(names) else f"{_KIND[kind]} {i + 1}"
    return f"{who}, {rest}" if rest else who


def lines(message: str, names: Sequence[str] | None = None) -> list[str]:
    """A refusal message of several parts ("line 7, ...; line 8, ...") one per line,
    each field named in words (the order text's own name left out: its lines say where)."""
    out = []
    for raw in _NEXT_LINE.split(plain(message)):
        part = _LINE_LIST.sub(" (the order format help lists the lines)", raw).strip()
        found = _PREFIX.match(part)
        if found:
            rest = part[found.end() :]
            part = rest if found.group(1) == "orders_text" else f"{field(found.group(1), names)}: {rest}"
        if part:
            out.append(part)
    return out


def refusal(r: common_pb2.Refusal, names: Sequence[str] | None = None) -> str:
    said = f"{field(r.field, names)}: {plain(r.message)}" if r.field else plain(r.message)
    return f"{said} (rule {r.rule})" if r.rule else said


def refusals(
    found: Sequence[common_pb2.Refusal], message: str, names: Sequence[str] | None = None
) -> list[str]:
    """Every refusal of a reply, one a line; its message alone when it lists none."""
    return [refusal(r, names) for r in found] or lines(message, names)


def pasted_ships(text: str) -> list[str]:
    """The ships an order text gives orders to, block by block (docs/formats/orders.md)."""
    return [m.group(1).upper() for m in _BLOCK.finditer(text)]


def roles(names: Sequence[str]) -> str:
    """ "admin", "naval_minister" -> "game master, naval minister"."""
    return ", ".join(ROLE_WORDS.get(n, n.replace("_", " ")) for n in names)


def ship_type(code: str) -> str:
    """A ship's type in words beside its id ("frigate", not "FR", which is also France)."""
    try:
        return TYPE_WORDS[ShipType(code)][0]
    except ValueError:
        return code
