"""Browsing the lobby (docs/lobby.md, "Browsing"): the listings with a seat to take or still
waiting for their players, filtered and paged; anyone may browse."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import Connection, and_, func, or_, select

from pate.v1 import lobby_pb2
from services.orders.lobby.listing import listing_pb
from services.platform.errors import Code, DeskError
from services.platform.security import field_shapes
from services.platform.store import lobby_tables as lt
from services.platform.store import tables

PAGE_SIZE, MAX_PAGE_SIZE, MAX_OFFSET = 20, 50, 10_000
MAX_TURN_HOURS = field_shapes.MAX_TURN_SECONDS // 3600
RULE_NAME = re.compile(r"[a-z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class BrowseAsk:
    scenario: str
    combat_rules: str
    naval_rules: str
    max_turn_hours: int
    free_seats: bool
    size: int
    offset: int


def check_browse(r: lobby_pb2.BrowseRequest) -> BrowseAsk:
    if r.scenario and not field_shapes.SCENARIO_NAME.fullmatch(r.scenario):
        raise DeskError(Code.INVALID_ARGUMENT, "scenario: a scenario name ([a-z0-9_]{1,64})")
    for name in ("combat_rules", "naval_rules"):
        value = getattr(r, name)
        if value and not RULE_NAME.fullmatch(value):
            raise DeskError(Code.INVALID_ARGUMENT, f"{name}: the name of a rule set")
    if not 0 <= r.max_turn_hours <= MAX_TURN_HOURS:
        raise DeskError(Code.INVALID_ARGUMENT, f"max_turn_hours: 0 (any) to {MAX_TURN_HOURS}")
    if not 0 <= r.page_size <= MAX_PAGE_SIZE:
        raise DeskError(Code.INVALID_ARGUMENT, f"page_size: 0 (the default, {PAGE_SIZE}) to {MAX_PAGE_SIZE}")
    token = r.page_token
    if token and not (token.isdigit() and len(token) <= 5 and int(token) <= MAX_OFFSET):
        raise DeskError(Code.INVALID_ARGUMENT, "page_token: the next_page_token of a previous page")
    return BrowseAsk(
        r.scenario,
        r.combat_rules,
        r.naval_rules,
        r.max_turn_hours,
        r.free_seats,
        r.page_size or PAGE_SIZE,
        int(token or 0),
    )


def browse(conn: Connection, ask: BrowseAsk) -> lobby_pb2.BrowseResponse:
    """Listings not finished that wait for their players or have a seat free, newest first."""
    listing, c, s = lt.lobby_listings, tables.campaigns, lt.lobby_seats
    free = (
        select(func.count())
        .where(and_(s.c.campaign == listing.c.campaign, s.c.account.is_(None)))
        .scalar_subquery()
    )
    q = (
        select(listing.c.campaign)
        .select_from(listing.join(c, c.c.id == listing.c.campaign))
        .where(c.c.status != "FINISHED")
        .where(or_(listing.c.started_at.is_(None), free > 0) if not ask.free_seats else free > 0)
    )
    if ask.scenario:
        q = q.where(c.c.scenario == ask.scenario)
    if ask.combat_rules:
        q = q.where(c.c.combat_rules == ask.combat_rules)
    if ask.naval_rules:
        q = q.where(c.c.naval_rules == ask.naval_rules)
    if ask.max_turn_hours:
        q = q.where(and_(c.c.turn_seconds > 0, c.c.turn_seconds <= ask.max_turn_hours * 3600))
    q = q.order_by(listing.c.published_at.desc(), listing.c.campaign).offset(ask.offset).limit(ask.size + 1)
    found = list(conn.execute(q).scalars())
    out = lobby_pb2.BrowseResponse(listings=[listing_pb(conn, cid) for cid in found[: ask.size]])
    if len(found) > ask.size and ask.offset + ask.size <= MAX_OFFSET:
        out.next_page_token = str(ask.offset + ask.size)
    return out
