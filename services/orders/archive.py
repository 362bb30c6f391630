"""The public archive (docs/web.md, "The archive"): finished campaigns whose game master chose
``archive_public``.  Anyone may list them and read their result and every side's replay; a
campaign that is not finished is never in it, whatever its options say, and every refusal has
the words of GetCampaignResult's, so the archive tells nothing of a running campaign.

Pages follow the campaign id (keyset paging: the page token is the last id of the page), at
most MAX_PAGE campaigns a call, so a caller without credentials costs one bounded indexed read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, and_, func, select

from services.platform.errors import Code, DeskError
from services.platform.security.auth import MAX_ID_LENGTH, check_id
from services.platform.store import desk_tables, tables

MAX_PAGE = 50
DEFAULT_PAGE = 20
HIDDEN = "campaign_id: no result to show"  # GetCampaignResult's refusal


@dataclass(frozen=True, slots=True)
class Archived:
    campaign: str
    scenario: str
    turns: int
    finished_at: datetime | None


def page_size(asked: int) -> int:
    if asked == 0:
        return DEFAULT_PAGE
    if not 1 <= asked <= MAX_PAGE:
        raise DeskError(Code.INVALID_ARGUMENT, f"page_size: 1 to {MAX_PAGE} (0: {DEFAULT_PAGE})")
    return asked


def check_page_token(token: str) -> str:
    if len(token) > MAX_ID_LENGTH or any(ord(c) < 32 or ord(c) == 127 for c in token):
        raise DeskError(Code.INVALID_ARGUMENT, "page_token: the next_page_token of the previous page")
    return token


def _public() -> object:
    c, o = tables.campaigns, desk_tables.campaign_options
    return and_(c.c.status == "FINISHED", o.c.archive_public.is_(True))


def _query(conn: Connection, where: object, limit: int) -> list[Archived]:
    c, o, w = tables.campaigns, desk_tables.campaign_options, tables.world_states
    last = select(func.max(w.c.created_at)).where(w.c.campaign == c.c.id).scalar_subquery()
    rows = conn.execute(
        select(c.c.id, c.c.scenario, c.c.turn, last.label("finished_at"))
        .join(o, o.c.campaign == c.c.id)
        .where(and_(_public(), where))  # type: ignore[arg-type]
        .order_by(c.c.id)
        .limit(limit)
    ).all()
    return [Archived(r.id, r.scenario, r.turn, r.finished_at) for r in rows]


def listed(conn: Connection, size: int, after: str) -> tuple[list[Archived], str]:
    """One page and the token of the next ("" on the last)."""
    found = _query(conn, tables.campaigns.c.id > after, size + 1)
    more = len(found) > size
    found = found[:size]
    return found, (found[-1].campaign if more else "")


def archived(conn: Connection, campaign: str) -> Archived:
    """The campaign if it is in the archive; NOT_FOUND otherwise, in the same words always."""
    check_id("campaign_id", campaign)
    found = _query(conn, tables.campaigns.c.id == campaign, 1)
    if not found:
        raise DeskError(Code.NOT_FOUND, HIDDEN)
    return found[0]
