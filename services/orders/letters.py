"""Messages between players of one state and its allied states.

Per turn, to one player, to a state, or to all of the sender's allies.  Each
is limited in size and in number per player and turn (``data/messages.toml``,
pate.messaging); only the sender and the addressees read one, and the
addressees are fixed when it is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, select

from pate.core.world.state import WorldState
from pate.messaging import message_limits
from pate.v1 import desk_pb2
from services.platform.errors import Code, DeskError
from services.platform.store import desk_tables, notifications, seat_holds
from services.platform.store import repository as repo
from services.platform.store.writes import upsert

KINDS = ("player", "state", "allies")


def allied_states(world: WorldState, state: str) -> list[str]:
    """His own state first, then the states actively allied with it."""
    others = sorted(s for s in world.diplomacy.states if s != state and world.diplomacy.allied(state, s))
    return [state, *others]


def writable(world: WorldState, state: str, me: str) -> tuple[list[str], list[str]]:
    states = allied_states(world, state)
    players = sorted(p.id for p in world.players.values() if p.state in states and p.id != me)
    return players, states


def send(
    conn: Connection,
    campaign: str,
    sender: str,
    state: str | None,
    req: desk_pb2.SendMessageRequest,
    now: datetime,
) -> desk_pb2.PlayerMessage:
    if req.to_kind not in KINDS:
        raise DeskError(Code.INVALID_ARGUMENT, "to_kind: write to a player, a state or all allies")
    body, most = req.body.strip(), message_limits().max_characters
    if not body or len(req.body) > most:
        raise DeskError(Code.INVALID_ARGUMENT, f"body: write 1 to {most} characters")
    if not state:
        raise DeskError(Code.PERMISSION_DENIED, "to: only players of a state write messages")
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    world = repo.load_world_cached(conn, campaign, row.turn)
    players, states = writable(world, state, sender)
    to = _addressee(req, players, states)
    _check_rate(conn, campaign, row.turn, sender)
    t = desk_tables.messages
    new_id = conn.execute(
        t.insert().values(
            campaign=campaign,
            turn=row.turn,
            sender=sender,
            sender_state=state,
            to_kind=req.to_kind,
            to_value=to,
            body=body,
            created_at=now,
        )
    ).inserted_primary_key[0]  # type: ignore[index]
    _mail(conn, campaign, world, sender, req.to_kind, to, body, int(new_id), now)
    out = desk_pb2.PlayerMessage(
        id=int(new_id),
        turn=row.turn,
        sender=sender,
        sender_state=state,
        to_kind=req.to_kind,
        to=to,
        body=body,
    )
    out.sent_at.FromDatetime(now)
    return out


def _addressee(req: desk_pb2.SendMessageRequest, players: list[str], states: list[str]) -> str:
    # an unknown player and a player of a state not allied read the same: no player
    if req.to_kind == "player":
        if req.to not in players:
            raise DeskError(Code.INVALID_ARGUMENT, "to: no player of your state or its allies has that id")
        return req.to
    if req.to_kind == "state":
        if req.to not in states:
            raise DeskError(Code.INVALID_ARGUMENT, "to: not your state nor one allied with it")
        return req.to
    return ",".join(states)


def _check_rate(conn: Connection, campaign: str, turn: int, sender: str) -> None:
    t = desk_tables.messages
    sent = conn.execute(
        select(func.count()).where(t.c.campaign == campaign, t.c.turn == turn, t.c.sender == sender)
    ).scalar_one()
    most = message_limits().max_per_turn
    if sent >= most:
        raise DeskError(Code.RESOURCE_EXHAUSTED, f"body: at most {most} messages a turn")


def readers(world: WorldState, kind: str, to: str) -> list[str]:
    if kind == "player":
        return [to]
    states = to.split(",")
    return sorted(p.id for p in world.players.values() if p.state in states)


def may_read(player: str, state: str | None, sender: str, kind: str, to: str) -> bool:
    if player == sender:
        return True
    if kind == "player":
        return to == player
    return state is not None and state in to.split(",")


def _mail(
    conn: Connection,
    campaign: str,
    world: WorldState,
    sender: str,
    kind: str,
    to: str,
    body: str,
    mid: int,
    now: datetime,
) -> None:
    """The notifier sends it to each addressee who asked to hear of messages."""
    for player, prefs in notifications.subscribers(conn, campaign, "messages"):
        if player == sender or player not in readers(world, kind, to):
            continue
        subject = f"PATE {campaign}: a message from {sender}"
        notifications.enqueue(conn, campaign, player, f"message:{mid}", prefs, subject, body, now)


def _last_read(conn: Connection, campaign: str, player: str) -> int:
    t = desk_tables.messages_read
    found = conn.execute(select(t.c.last_read).where(t.c.campaign == campaign, t.c.player == player))
    return int(found.scalar() or 0)


def _before_him(conn: Connection, campaign: str, player: str) -> Callable[[Any], bool]:
    """Whether a message of the seat was its former holder's: a newcomer who took the seat as a
    replacement reads none sent before he took it, as none of its earlier reports (docs/lobby.md)."""
    first, taken = seat_holds.held_since(conn, campaign, player)
    return lambda r: r.turn < first or (taken is not None and r.created_at < taken)


def unread(conn: Connection, campaign: str, player: str, state: str | None) -> int:
    """Messages to him (not his own) sent since he last opened his messages."""
    t = desk_tables.messages
    later = conn.execute(
        select(t.c.sender, t.c.to_kind, t.c.to_value, t.c.turn, t.c.created_at).where(
            t.c.campaign == campaign, t.c.id > _last_read(conn, campaign, player), t.c.sender != player
        )
    )
    earlier = _before_him(conn, campaign, player)
    return sum(
        1 for r in later if may_read(player, state, r.sender, r.to_kind, r.to_value) and not earlier(r)
    )


def mark_read(conn: Connection, campaign: str, player: str, newest: int) -> None:
    """He has opened his messages: every one up to ``newest`` (the newest he may read) is read."""
    if newest > _last_read(conn, campaign, player):  # two tabs at once: an upsert, never a clash
        values = {"campaign": campaign, "player": player, "last_read": newest}
        upsert(conn, desk_tables.messages_read, values, ("campaign", "player"))


def listing(
    conn: Connection, campaign: str, player: str, state: str | None, read: bool = False
) -> desk_pb2.MessageList:
    """His messages, newest first; ``read``: he opens them now, so they are read."""
    row = repo.get_campaign(conn, campaign)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    out = desk_pb2.MessageList()
    if state:
        world = repo.load_world_cached(conn, campaign, row.turn)
        players, states = writable(world, state, player)
        out.players.extend(players)
        out.states.extend(states)
    t = desk_tables.messages
    rows = conn.execute(select(t).where(t.c.campaign == campaign).order_by(t.c.id.desc()))
    earlier = _before_him(conn, campaign, player)
    for r in rows:
        if len(out.messages) >= message_limits().max_shown:
            break
        if not may_read(player, state, r.sender, r.to_kind, r.to_value) or earlier(r):
            continue
        m = desk_pb2.PlayerMessage(
            id=r.id,
            turn=r.turn,
            sender=r.sender,
            sender_state=r.sender_state,
            to_kind=r.to_kind,
            to=r.to_value,
            body=r.body,
        )
        m.sent_at.FromDatetime(r.created_at)
        out.messages.append(m)
    if read and out.messages:
        mark_read(conn, campaign, player, out.messages[0].id)
    return out
