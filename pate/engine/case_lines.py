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
    """The line of ``key`` (``rest[0]``) in the table at ``start``, then of
    what the rest of the path names inside its inline value: an element of
    an inline array (``ships = [ {...}, {...} ]``, one element a line) or a
    key of an inline table (``players = { nelson = {...} }``), nested."""
    if not rest or rest[0].startswith("["):
        return None
    line = _key_line(lines, start, rest[0])
    if line is None:
        return None
    text = "\n".join(lines)
    first = sum(len(x) + 1 for x in lines[: line - 1])
    pos: int | None = text.index("=", first) + 1
    for segment in rest[1:]:
        assert pos is not None
        pos = (
            _element(text, pos, int(segment[1:-1]))
            if segment.startswith("[")
            else _member(text, pos, segment)
        )
        if pos is None:
            break
        line = text.count("\n", 0, pos) + 1
    return line


def _values(text: str, pos: int, opening: str) -> list[int] | None:
    """The offsets where the members of the array or inline table opening at
    (or after blanks from) ``pos`` begin."""
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    if pos >= len(text) or text[pos] != opening:
        return None
    starts: list[int] = []
    depth, inside, quote, i = 0, False, "", pos
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = ""
            i += 1
            continue
        if ch == "#":
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        elif ch in "[{":
            depth += 1
            if depth == 2 and not inside:
                starts.append(i)
                inside = True
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return starts
        elif depth == 1 and ch == ",":
            inside = False
        elif depth == 1 and not ch.isspace() and not inside:
            starts.append(i)
            inside = True
        if ch in "\"'" and not quote:
            quote = ch
        i += 1
    return starts


def _element(text: str, pos: int, index: int) -> int | None:
    starts = _values(text, pos, "[")
    return starts[index] if starts is not None and index < len(starts) else None


def _member(text: str, pos: int, key: str) -> int | None:
    """Just after ``key =`` among the members of the inline table at ``pos``."""
    pattern = re.compile(rf"{re.escape(key)}\s*=")
    for start in _values(text, pos, "{") or ():
        m = pattern.match(text, start)
        if m:
            return m.end()
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
