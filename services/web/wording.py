"""The order desk's refusals in the players' words: a ship and a line, not an
internal field path, and one refusal per line."""

from __future__ import annotations

import re

from pate.v1 import common_pb2

_ORDER = re.compile(r"^orders\[(\d+)\]\.?(.*)$")
_MOVE = re.compile(r"^stores_moves\[(\d+)\]\.?(.*)$")
_PREFIX = re.compile(r"^(orders_text|orders\[\d+\][.\w\[\]]*|stores_moves\[\d+\][.\w]*|[a-z_]+): ")


def field(path: str, ships: list[str] | None = None) -> str:
    """ "orders[0].movement.port" -> "FR3FL, movement port" (or "order 1, ..." without ship ids)."""
    found = _ORDER.match(path)
    if found:
        i = int(found.group(1))
        who = ships[i] if ships and i < len(ships) else f"order {i + 1}"
        rest = found.group(2).replace("_", " ").replace(".", " ")
        return f"{who}, {rest}" if rest else who
    found = _MOVE.match(path)
    if found:
        rest = found.group(2).replace("_", " ")
        return (
            f"store move {int(found.group(1)) + 1}, {rest}"
            if rest
            else f"store move {int(found.group(1)) + 1}"
        )
    return "the order text" if path == "orders_text" else path.replace("_", " ")


def lines(message: str) -> list[str]:
    """A refusal message of several parts ("line 7, ...; line 8, ...") one per line."""
    return [_PREFIX.sub("", part).strip() for part in message.split("; ") if part.strip()]


def refusal(r: common_pb2.Refusal, ships: list[str] | None = None) -> str:
    return (
        f"{field(r.field, ships)}: {r.message} (rule {r.rule})"
        if r.rule
        else f"{field(r.field, ships)}: {r.message}"
    )
