"""The kinds of limit a request's field may have (services/platform/security/limits.py holds
which field has which): a length and character set for text, a range for numbers, a count
for repeated fields, a range for timestamps.  Each names the field it refuses."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime

from services.platform.security.quoting import excerpt

EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)


class LimitError(ValueError):
    """A request outside the limits; ``str()`` names the field."""


@dataclass(frozen=True, slots=True)
class Text:
    max_chars: int
    pattern: re.Pattern[str] | None = None  # matched whole
    required: bool = False
    lines: bool = False  # may hold newlines and tabs (documents, order files)
    min_chars: int = 0
    what: str = ""  # the character set, said in the error

    def check(self, field: str, value: str) -> None:
        if not value:
            if self.required:
                raise LimitError(f"{field}: is required")
            return
        if len(value) > self.max_chars:
            raise LimitError(f"{field}: at most {self.max_chars} characters (got {len(value)})")
        if len(value) < self.min_chars:
            raise LimitError(f"{field}: at least {self.min_chars} characters")
        if self.pattern is not None:
            if not self.pattern.fullmatch(value):
                raise LimitError(f"{field}: {excerpt(value)} is not {self.what}")
            return
        bad = _document_control(value) if self.lines else _control(value)
        if bad is not None:
            raise LimitError(f"{field}: control character U+{ord(bad):04X} refused")


@dataclass(frozen=True, slots=True)
class Number:
    lo: int
    hi: int

    def check(self, field: str, value: int) -> None:
        if not self.lo <= value <= self.hi:
            raise LimitError(f"{field}: must be between {self.lo} and {self.hi} (got {excerpt(str(value))})")


@dataclass(frozen=True, slots=True)
class Many:
    max_items: int


@dataclass(frozen=True, slots=True)
class Moment:
    lo: datetime = EARLIEST
    hi: datetime = LATEST

    def check(self, field: str, seconds: int, nanos: int) -> None:
        if not 0 <= nanos <= 999_999_999:
            raise LimitError(f"{field}: nanos must be between 0 and 999999999")
        if not self.lo.timestamp() <= seconds < self.hi.timestamp():
            raise LimitError(
                f"{field}: must lie between {self.lo.date().isoformat()} and {self.hi.date().isoformat()}"
            )


Rule = Text | Number | Many | Moment


# Documents (order files, scenarios, messages) may be 1 MiB long: checked by one regular
# expression at C speed, refusing the C0 and C1 controls (NUL, escape, ...) but tab,
# newline and carriage return, DEL, and lone surrogates; and the characters that make text
# look other than it is: the bidirectional marks, embeddings, overrides and isolates (U+202E
# turns "gpj.exe" round) and the line and paragraph separators, which a reader's card
# breaks on, so a message could draw a false "From:" line of its own.
_DOCUMENT_BAD = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
    "|[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def _document_control(value: str) -> str | None:
    found = _DOCUMENT_BAD.search(value)
    return found.group() if found else None


def _control(value: str) -> str | None:
    """The first control, format or line-breaking character (Unicode C*, Zl, Zp), if any.
    A character loop: only for single-line text, whose length is checked first (at most 1,024)."""
    if value.isprintable():  # C speed; false also for some spaces (U+00A0), looked at below
        return None
    for ch in value:
        kind = unicodedata.category(ch)
        if kind[0] == "C" or kind in ("Zl", "Zp"):
            return ch
    return None
