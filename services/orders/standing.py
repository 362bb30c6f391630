"""A player's standing instructions to the bot, kept per campaign and player
(docs/formats/standing.md): checked when he sets them against what he knows (the ships he
orders, the map's ports and who holds them); the bot admiral is handed them with his seat's
session when it plays him for an absence or for civil disorder (civil.standing_for_bot)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from pate.admiral.standing import MAX_TEXT_CHARS, StandingError, parse_standing, read_standing
from pate.core.rules.validation.orders import authority
from pate.engine.context import turn_context
from pate.v1 import absence_pb2
from services.orders.desk import actor_of
from services.platform.errors import Code, DeskError
from services.platform.store import absences as store
from services.platform.store import repository as repo


def check_size(text: str) -> None:
    """The field's limit, checked before any other work."""
    if len(text) > MAX_TEXT_CHARS:
        raise DeskError(Code.INVALID_ARGUMENT, f"text: at most {MAX_TEXT_CHARS} characters")


def set_text(
    conn: Connection, campaign: str, player: Any, text: str, now: datetime
) -> absence_pb2.StandingInstructions:
    check_size(text)
    row = repo.get_campaign(conn, campaign)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    count = 0
    if text.strip():
        world = repo.load_world_cached(conn, campaign, row.turn)
        actor = actor_of(player)
        mine = {sid for sid, s in world.ships.items() if authority(actor, s) is not None}
        d = world.diplomacy
        side = {code for code in d.states if player.state and d.allied(player.state, code)}
        try:
            count = len(read_standing(text, mine, turn_context().map, side | {player.state}))
        except StandingError as err:
            raise DeskError(Code.INVALID_ARGUMENT, f"text: {err}") from None
    store.set_standing_text(conn, campaign, player.id, text if count else "", now)
    return absence_pb2.StandingInstructions(
        campaign_id=campaign, player_id=player.id, text=text if count else "", instructions=count
    )


def get_text(conn: Connection, campaign: str, player: str) -> absence_pb2.StandingInstructions:
    text = store.standing_text(conn, campaign, player)
    try:
        count = len(parse_standing(text))  # kept only once checked: it parses
    except StandingError:
        count = 0
    return absence_pb2.StandingInstructions(
        campaign_id=campaign, player_id=player, text=text, instructions=count
    )
