"""Whether a campaign is in the public archive: finished, and its game master chose to show it
(``campaign_options.archive_public``; docs/lobby.md). Anyone may then read its result and every
side's replay, the reports service included, with no session."""

from __future__ import annotations

from sqlalchemy import Connection, select

from services.platform.store import desk_tables, tables


def in_public_archive(conn: Connection, campaign: str) -> bool:
    c, o = tables.campaigns, desk_tables.campaign_options
    row = conn.execute(
        select(c.c.status, o.c.archive_public).join(o, o.c.campaign == c.c.id).where(c.c.id == campaign)
    ).first()
    return row is not None and row.status == "FINISHED" and bool(row.archive_public)
