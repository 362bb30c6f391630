"""The game master's campaign options that players see the effect of (docs/web.md, "Ready for
the turn"): ``show_ready``, every player sees who has confirmed the open turn, as Diplicity
offers it; ``spectators_see_result``, anyone reads the finished campaign's result (docs/web.md,
"The result of a campaign"); ``archive_public``, once finished the campaign is in the public
archive (archive.py).  Off by default; stored with the campaign (``campaign_options``)."""

from __future__ import annotations

from sqlalchemy import Connection, select

from pate.core.world.state import WorldState
from pate.v1 import desk_pb2
from services.orders.earlyclose import confirmed_players
from services.platform.errors import Code, DeskError
from services.platform.store import desk_tables
from services.platform.store import repository as repo


def options(conn: Connection, campaign: str) -> desk_pb2.CampaignOptions:
    t = desk_tables.campaign_options
    row = conn.execute(select(t).where(t.c.campaign == campaign)).first()
    if row is None:
        return desk_pb2.CampaignOptions()
    return desk_pb2.CampaignOptions(
        show_ready=bool(row.show_ready),
        spectators_see_result=bool(row.spectators_see_result),
        archive_public=bool(row.archive_public),
    )


def set_options(
    conn: Connection, campaign: str, wanted: desk_pb2.CampaignOptions
) -> desk_pb2.CampaignOptions:
    if repo.get_campaign(conn, campaign, lock=True) is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    t = desk_tables.campaign_options
    values = {
        "show_ready": wanted.show_ready,
        "spectators_see_result": wanted.spectators_see_result,
        "archive_public": wanted.archive_public,
    }
    if conn.execute(select(t.c.campaign).where(t.c.campaign == campaign)).first() is None:
        conn.execute(t.insert().values(campaign=campaign, **values))
    else:
        conn.execute(t.update().where(t.c.campaign == campaign).values(**values))
    return options(conn, campaign)


def ready(conn: Connection, campaign: str, turn: int, world: WorldState) -> list[desk_pb2.Confirmation]:
    """Who has confirmed, as a player is shown it: every player of a state, whether or not he
    has ships to order now (the game master's list leaves out those with none, which would
    tell an enemy that a player's ships are all laid up or crossing the Atlantic), and
    nothing of whom the bot plays."""
    done = confirmed_players(conn, campaign, turn)
    seats = sorted(p.id for p in world.players.values() if p.state)
    return [desk_pb2.Confirmation(player_id=p, confirmed=p in done) for p in seats]
