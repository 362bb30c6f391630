"""A fleet marker's naval operation (EiA new naval rules, docs/rules/eia-operations.md).

Written in the lead ship's order block as one ``operation`` line; it is the
order of the whole fleet (the lead and the ships attached to it).  Kept small
and flat so that a bot can generate it: a kind, an optional corps, an optional
destination, an optional chain of sea zones.
"""

from __future__ import annotations

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


@dataclass(frozen=True, slots=True)
class Operation:
    kind: OpKind
    corps: str | None = None  # Transport, Invasion: the GITM land unit carried
    to: str | None = None  # Rebase: port or sea area; Transport: port; Invasion: sea area
    blockade: bool = False  # Rebase: into the blockade box (coastal waters) of enemy port ``to``
    chain: tuple[str, ...] = ()  # Protect Trade, Supply: sea zones from the starting port
    return_to_base: bool = False  # Transport, Invasion: the fleet goes home after landing (default: stays)
    declare_at: int = 0  # the state that "may choose when to declare": its place in the round (0: last)
