"""What every check of ``pate gitm check`` shares: its row in the table (named
for the obligation it checks), the failure of one expectation, and a short
form of a message for the detail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Row:
    name: str
    passed: bool
    detail: str
    skipped: bool = False  # not run, and not counted as a failure (e.g. no restart command given)
    needs: str = ""  # not run because this row (the open, L2) failed: a failure all the same

    @property
    def obligation(self) -> str:
        return self.name.split(" ", 1)[0]


class CheckFailedError(Exception):
    """One check's expectation was not met (its message is the table's detail)."""


class SkippedError(Exception):
    """A check that cannot run with what it was given (its message says what to give)."""


class NeedsError(Exception):
    """A check that cannot run because another row's call failed: a knock-on failure, naming it."""

    def __init__(self, needed: str, why: str) -> None:
        super().__init__(why)
        self.needed = needed


def expect(ok: object, why: str) -> None:
    if not ok:
        raise CheckFailedError(why)


DETAIL = 160  # characters of a message or an answer shown in a row's detail


def short(msg: Any) -> str:
    """An answer in one bounded line; ``None`` (a unit or an answer missing) as "nothing"."""
    from google.protobuf import message, text_format

    if msg is None:
        return "nothing"
    if not isinstance(msg, message.Message):
        return bounded(repr(msg))
    return text_format.MessageToString(msg, as_one_line=True)[:DETAIL] or "an empty answer"


def bounded(text: str, limit: int = DETAIL) -> str:
    """One line of at most ``limit`` characters, whatever a service put in a message."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."
