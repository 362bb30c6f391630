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

    @property
    def obligation(self) -> str:
        return self.name.split(" ", 1)[0]


class CheckFailedError(Exception):
    """One check's expectation was not met (its message is the table's detail)."""


class SkippedError(Exception):
    """A check that cannot run with what it was given (its message says what to give)."""


def expect(ok: object, why: str) -> None:
    if not ok:
        raise CheckFailedError(why)


def short(msg: Any) -> str:
    from google.protobuf import text_format

    return text_format.MessageToString(msg, as_one_line=True)[:160]
