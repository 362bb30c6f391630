"""Locating the problems of a case file by line (docs/formats/cases.md,
"Problems"): a problem's path (``expect[2].at``, ``world.ships[3].base``)
names a table header, a key, or an element of an inline array."""

from __future__ import annotations

import re
from pathlib import Path

from pate.core.orders.text import OrderSyntaxError

# -- locating problems in the file ----------------------------------------------------
_SEGMENT = re.compile(r"[^.\[\]]+|\[\d+\]")
_ORDER_LINE = re.compile(r"^line (\d+), (?=column)")


def locate(path: Path, text: str, item: str) -> str:
    """``FILE:LINE: problem``, the line being that of the key the problem's
    path names, else of the table it is in (``expect[2].at`` is the ``at``
    line of the third ``[[expect]]``)."""
    where, _, message = item.partition(": ")
    m = _ORDER_LINE.match(message)  # an order's own line (see _order_problems)
    if m:
        return f"{path}:{m.group(1)}: {where}: {message[m.end() :]}"
    line = _line_of(text, where)
    return f"{path}:{line}: {item}" if line else f"{path}: {item}"


def _line_of(text: str, where: str) -> int | None:
    lines = text.splitlines()
    segments = _SEGMENT.findall(where.strip())
    for k in range(len(segments), 0, -1):
        start = _header_line(lines, segments[:k])
        if start is None:
            continue
        return _within(lines, start, segments[k:]) or start
    return _within(lines, 0, segments) if segments else None


def _within(lines: list[str], start: int, rest: list[str]) -> int | None:
    """The line of ``key`` (``rest[0]``) in the table at ``start``, or of the
    element an index names in its inline array (``ships = [ {...}, {...} ]``
    written one element a line)."""
    key = next((s for s in rest if not s.startswith("[")), None)
    line = _key_line(lines, start, key) if key else None
    if line is None or key is None:
        return line
    after = rest[rest.index(key) + 1 :]
    if after and after[0].startswith("["):
        return _element_line(lines, line, int(after[0][1:-1])) or line
    return line


def _element_line(lines: list[str], first: int, index: int) -> int | None:
    """The line where element ``index`` of the array opened on line ``first``
    (``key = [``) starts."""
    depth, count, inside = 0, -1, False  # inside: within an element of the array
    for n in range(first - 1, len(lines)):
        text = lines[n] if n > first - 1 else lines[n].split("=", 1)[1]
        quote = None
        for ch in text:
            if quote:
                quote = None if ch == quote else quote
                continue
            if ch == "#":
                break
            if depth == 1 and ch == ",":
                inside = False
            elif depth == 1 and not ch.isspace() and ch != "]" and not inside:
                count, inside = count + 1, True
                if count == index:
                    return n + 1
            if ch in "\"'":
                quote = ch
            elif ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    return None
    return None


def _header_line(lines: list[str], segments: list[str]) -> int | None:
    """The line of the table header ``[a.b]``, or of the n-th ``[[a.b]]``."""
    index = None
    if segments[-1].startswith("["):
        index = int(segments[-1][1:-1])
        segments = segments[:-1]
    if any(s.startswith("[") for s in segments):
        return None
    name = re.escape(".".join(segments))
    if index is None:
        header = re.compile(rf"^\s*\[\s*{name}\s*\]")
        return next((i + 1 for i, line in enumerate(lines) if header.match(line)), None)
    header = re.compile(rf"^\s*\[\[\s*{name}\s*\]\]")
    hits = [i + 1 for i, line in enumerate(lines) if header.match(line)]
    return hits[index] if index < len(hits) else None


def _key_line(lines: list[str], start: int, key: str) -> int | None:
    """The line of ``key = ...`` in the table whose header is line ``start``
    (0: the top of the file), before the next table."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for i in range(start, len(lines)):
        if pattern.match(lines[i]):
            return i + 1
        if lines[i].lstrip().startswith("["):
            return None
    return None


def order_problems(text: str, index: int, err: OrderSyntaxError) -> list[tuple[str, str]]:
    """Order syntax problems as (path, message), naming the file's line."""
    first = _orders_first_line(text, index)
    out = []
    for p in err.problems:
        line = f"line {first + p.line - 1}" if first else f"orders line {p.line}"
        out.append((f"turn[{index}].orders", f"{line}, column {p.column}: {p.message}"))
    return out


def _orders_first_line(text: str, index: int) -> int | None:
    start = _line_of(text, f"turn[{index}]")
    if start is None:
        return None
    lines = text.splitlines()
    for i in range(start, len(lines)):
        m = re.match(r"^\s*orders\s*=\s*(.*)$", lines[i])
        if m:
            rest = m.group(1).strip()
            return i + 2 if rest in ('"""', "'''") else i + 1
        if lines[i].lstrip().startswith("["):
            return None
    return None
