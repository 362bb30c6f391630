"""Lines and words of the readable order format (docs/formats/orders.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pate.core.world.ships import SHIP_ID

# Escapes inside a quoted name; every other character stands for itself.
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "r": "\r"}
_UNESCAPES = {v: "\\" + k for k, v in _ESCAPES.items()}
NUMBER = re.compile(r"[0-9]{1,9}")
SEA_CODE = re.compile(r"[A-Z]{3}")
# Words that end an unquoted port name on a move line, and their meaning.
MOVE_FLAGS = {"harbor": True, "harbour": True, "coastal": False}
SAIL_FLAGS = {"alone": True, "together": False}
ANY_ENEMY = "any-enemy"


@dataclass(frozen=True, slots=True)
class Problem:
    line: int  # 1-based
    column: int  # 1-based, counting characters
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


class OrderSyntaxError(ValueError):
    """The order text is not in the order format; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    column: int
    quoted: bool = False

    @property
    def word(self) -> str:
        """The token as a keyword: case and ``_``/``-`` do not matter.  Quoted
        tokens are names, never keywords."""
        return "" if self.quoted else keyword(self.text)


def keyword(text: str) -> str:
    return text.lower().replace("_", "-")


def tokenize(line: str, lineno: int, problems: list[Problem]) -> list[Token]:
    """Words separated by white space, ``"quoted names"``, ``#`` to the end of
    the line is a comment."""
    tokens: list[Token] = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c.isspace():
            i += 1
        elif c == "#":
            break
        elif c == '"':
            token, i = _quoted(line, i, lineno, problems)
            if token is None:
                break
            tokens.append(token)
        else:
            start = i
            while i < n and not line[i].isspace() and line[i] not in '#"':
                i += 1
            tokens.append(Token(line[start:i], start + 1))
    return tokens


def _quoted(line: str, start: int, lineno: int, problems: list[Problem]) -> tuple[Token | None, int]:
    out: list[str] = []
    i = start + 1
    while i < len(line):
        c = line[i]
        if c == '"':
            return Token("".join(out), start + 1, quoted=True), i + 1
        if c == "\\":
            nxt = line[i + 1] if i + 1 < len(line) else ""
            if nxt not in _ESCAPES:
                problems.append(Problem(lineno, i + 1, 'in a quoted name, write \\" \\\\ \\n or \\r'))
                return None, len(line)
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(c)
            i += 1
    problems.append(Problem(lineno, start + 1, 'the quoted name has no closing "'))
    return None, len(line)


def quote(text: str) -> str:
    return '"' + "".join(_UNESCAPES.get(c, c) for c in text) + '"'


def bare_word_ok(text: str) -> bool:
    """Whether the tokenizer reads ``text`` back as one unquoted word."""
    return bool(text) and not any(c.isspace() or c in '#"' for c in text)


def is_ship_id(text: str) -> bool:
    return SHIP_ID.fullmatch(text) is not None


class Cursor:
    """Reads the words of one line after its keyword, recording problems."""

    def __init__(self, tokens: list[Token], lineno: int, end: int, problems: list[Problem]) -> None:
        self._tokens = tokens
        self._i = 0
        self.lineno = lineno
        self._end = end  # column just past the line, for "missing" problems
        self._problems = problems

    def peek(self) -> Token | None:
        return self._tokens[self._i] if self._i < len(self._tokens) else None

    def take(self) -> Token | None:
        tok = self.peek()
        if tok is not None:
            self._i += 1
        return tok

    def take_last(self) -> Token | None:
        """The last word of the line not yet read, taken off its end (options
        written after a part of any length, such as a port name)."""
        if self._i >= len(self._tokens):
            return None
        return self._tokens.pop()

    def last(self, back: int = 1) -> Token | None:
        """The ``back``-th word from the end not yet read, left in place."""
        return self._tokens[-back] if len(self._tokens) - self._i >= back else None

    def error(self, tok: Token | None, message: str) -> None:
        self._problems.append(Problem(self.lineno, tok.column if tok else self._end, message))

    def number(self, what: str) -> int | None:
        tok = self.take()
        if tok is None or tok.quoted or not NUMBER.fullmatch(tok.text):
            shown = f", not {tok.text!r}" if tok else ""
            self.error(tok, f"{what}: give a whole number from 0 to 999999999{shown}")
            return None
        return int(tok.text)

    def ship(self, what: str) -> str | None:
        tok = self.take()
        sid = tok.text.upper() if tok else ""
        if tok is None or not is_ship_id(sid):
            shown = f", not {tok.text!r}" if tok else ""
            self.error(tok, f"{what}: give a ship id like BR2SL or NE4TR{shown}")
            return None
        return sid

    def choice(self, what: str, options: dict[str, str]) -> str | None:
        tok = self.take()
        if tok is None or tok.word not in options:
            shown = f", not {tok.text!r}" if tok else ""
            self.error(tok, f"{what}: give one of {', '.join(sorted(set(options)))}{shown}")
            return None
        return options[tok.word]

    def finish(self) -> None:
        tok = self.take()
        if tok is not None:
            self.error(tok, f"unexpected {tok.text!r}")
            self._i = len(self._tokens)
