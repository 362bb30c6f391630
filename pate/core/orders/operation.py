"""A fleet marker's naval operation (EiA new naval rules, docs/rules/eia-operations.md).

Written in the lead ship's order block as one ``operation`` line; it is the
order of the whole fleet (the lead and the ships attached to it).  Kept small
and flat so that a bot can generate it: a kind, an optional corps, an optional
destination, an optional chain of sea zones; and the fleet's column orders,
written on ``column`` lines of the same block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class OpKind(StrEnum):
    NAVAL_SUPERIORITY = "naval_superiority"
    REBASE = "rebase"
    PATROL = "patrol"
    PROTECT_TRADE = "protect_trade"
    TRANSPORT = "transport"
    INVASION = "invasion"
    RAID = "raid"
    PRIVATEER = "privateer"
    SUPPLY = "supply"


# "if a fleet is based in a sea zone or an enemy blockade box, it may only
# choose Naval Superiority or Rebase"
AT_SEA_KINDS = frozenset({OpKind.NAVAL_SUPERIORITY, OpKind.REBASE})
INTERCEPTORS = frozenset({OpKind.NAVAL_SUPERIORITY, OpKind.PATROL, OpKind.RAID, OpKind.PRIVATEER})
WITH_CORPS = frozenset({OpKind.TRANSPORT, OpKind.INVASION})
WITH_CHAIN = frozenset({OpKind.PROTECT_TRADE, OpKind.SUPPLY})
WITH_DESTINATION = frozenset({OpKind.REBASE, OpKind.TRANSPORT, OpKind.INVASION})
# "The transporting fleet may stay in the receiving port" / "... in the sea zone":
# the kinds whose fleet may instead return to base
MAY_RETURN = WITH_CORPS
DECLARE_AT_MAX = 9  # "Britain may choose when to declare": its place in a round, 1 = first

# Column orders ("Ships are placed in columns according to the players wishes"): the
# bounds every order is checked against before any other work (docs/rules/eia-operations.md)
COLUMNS_MAX = 6  # data/rules/eia_operations.toml columns.max_columns
COLUMN_SHIPS_MAX = 40  # ships named in one column
PLAN_MAX = 6  # steps in one column's plan
ADMIRAL_MAX = 40  # characters of an admiral's id


class ColumnAction(StrEnum):
    ATTACK = "attack"  # on the column's turn: attack an enemy column
    PROTECT = "protect"  # on its turn, or when an attack comes first: protect an own column
    EVADE = "evade"  # attacked, having won the contest: evade combat


class Condition(StrEnum):
    ALWAYS = "always"
    OUTNUMBERED = "outnumbered"  # fewer ships able to fight than the enemy column it meets
    OUTNUMBERING = "outnumbering"  # more ships able to fight than the enemy column it meets


# Where a step aims, besides a column's place (1 = first): an attack at the enemy's
# column of carrying ships, the one at its own place, the largest or the smallest
# left; a protection at its own side's column of carrying ships.
ATTACK_TARGETS = frozenset({"carrying", "facing", "strongest", "weakest"})
PROTECT_TARGETS = frozenset({"carrying"})
PLACE = re.compile(r"[1-9]")


def is_place(target: object) -> bool:
    """A column's place as a step writes it, "1" to the most columns."""
    return isinstance(target, str) and PLACE.fullmatch(target) is not None and int(target) <= COLUMNS_MAX


@dataclass(frozen=True, slots=True)
class ColumnStep:
    """One step of a column's plan: the first whose condition holds and whose
    target is there is the column's choice."""

    action: ColumnAction
    target: str = ""  # attack: ATTACK_TARGETS or a place "1".."6"; protect: "carrying" or a place; evade: ""
    when: Condition = Condition.ALWAYS


@dataclass(frozen=True, slots=True)
class Column:
    """One column as the player forms it: its ships in their places, the admiral who
    leads it (a commander of the fleet's), and its plan."""

    ships: tuple[str, ...]
    admiral: str | None = None
    plan: tuple[ColumnStep, ...] = ()


@dataclass(frozen=True, slots=True)
class Operation:
    kind: OpKind
    corps: str | None = None  # Transport, Invasion: the GITM land unit carried
    to: str | None = None  # Rebase: port or sea area; Transport: port; Invasion: sea area
    blockade: bool = False  # Rebase: into the blockade box (coastal waters) of enemy port ``to``
    chain: tuple[str, ...] = ()  # Protect Trade, Supply: sea zones from the starting port
    return_to_base: bool = False  # Transport, Invasion: the fleet goes home after landing (default: stays)
    declare_at: int = 0  # the state that "may choose when to declare": its place in the round (0: last)
    columns: tuple[Column, ...] = ()  # column orders for the fleet's battles (none: the engine forms them)
