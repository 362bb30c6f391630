"""Limits on every field, checked before any work (docs/gitm.md "Ids")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from examples.gitm_land.errors import invalid

_ID = re.compile(r"[A-Za-z0-9_.:\-]+")
_STATE = re.compile(r"[A-Z]{2}")
_CITY = re.compile(r"[^\x00-\x1f\x7f]+")

OPAQUE_MAX = 256
NAME_MAX = 64
MAX_ITEMS = 1000  # units in one request, moves, sightings, ships: far above any real turn
MAX_SUPPLIES = 1_000_000
MAX_TURN = 100_000
MAX_MEN = 10_000_000


def opaque_id(field: str, value: str) -> str:
    """An id PATE makes (transfer, loss, move, report, campaign): 1 to 256 of the set."""
    return _ids(field, value, OPAQUE_MAX)


def name_id(field: str, value: str) -> str:
    """A unit or transport id: 1 to 64 of the same set."""
    return _ids(field, value, NAME_MAX)


def _ids(field: str, value: str, limit: int) -> str:
    if not value:
        raise invalid(field, "is empty")
    if len(value) > limit:
        raise invalid(field, f"is longer than {limit} characters")
    if not _ID.fullmatch(value):
        raise invalid(field, "may hold only A-Z a-z 0-9 _ . : -")
    return value


def state(field: str, value: str, *, optional: bool = False) -> str:
    if optional and not value:
        return value
    if not _STATE.fullmatch(value):
        raise invalid(field, "must be a state's two-letter code, e.g. BR")
    return value


def city(field: str, value: str) -> str:
    if not value:
        raise invalid(field, "is empty")
    if len(value) > NAME_MAX:
        raise invalid(field, f"is longer than {NAME_MAX} characters")
    if not _CITY.fullmatch(value):
        raise invalid(field, "holds a control character")
    return value


def count(field: str, value: int, limit: int) -> int:
    if value < 0:
        raise invalid(field, "is negative")
    if value > limit:
        raise invalid(field, f"is above {limit}")
    return value


def turn(field: str, value: int) -> int:
    return count(field, value, MAX_TURN)


def items(field: str, values: Sequence[object]) -> None:
    if len(values) > MAX_ITEMS:
        raise invalid(field, f"has more than {MAX_ITEMS} entries")


def unit_ids(field: str, values: Sequence[str]) -> list[str]:
    items(field, values)
    return [name_id(f"{field}[{i}]", v) for i, v in enumerate(values)]
