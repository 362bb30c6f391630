"""A plain player's solo campaign (docs/web.md "Solo campaigns", docs/security.md).

Any player with a live session in a campaign may make one: he names a
shipped scenario, the seat he plays and the rule sets; the bot admiral
plays every other seat and a turn closes as soon as he has confirmed and
the bot has played (services/orders/admirals.close_if_all_confirmed).  He
gets only his own seat's password and a session there; no one else can
log in to it.  The server's limits stop one player, or all of them, from
filling the server: settings of the orders service, read from the
environment (``SoloLimits.from_env``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from sqlalchemy import Connection, and_, func, select, text

from pate.core.scenario.parse import Scenario
from pate.datafiles import load_shipped_scenario
from pate.v1 import bots_pb2
from services.orders import campaigns, civil
from services.platform.config import ConfigError
from services.platform.errors import Code, DeskError
from services.platform.security import sessions
from services.platform.security.auth import check_id
from services.platform.store import tables
from services.platform.store.solo_tables import solo_owners

SCENARIO_NAME = re.compile(r"[a-z0-9_-]{1,40}")  # a shipped scenario's file name: never a path
# Serialises the making of solo campaigns on PostgreSQL, whose READ COMMITTED would let two
# transactions count the same free slot (SQLite's BEGIN IMMEDIATE already serialises them).
# Beside store/db.py's migration lock (0x5A7E_0001) and the outbox relay's (0x5A7E_0002).
_PG_SOLO_LOCK = 0x5A7E_0003


@dataclass(frozen=True, slots=True)
class SoloLimits:
    """The settings (environment variable: default). ``server`` 0 turns player-made solo campaigns off."""

    open_per_player: int = 3  # PATE_SOLO_OPEN_PER_PLAYER: his solo campaigns not yet finished
    per_hour: int = 2  # PATE_SOLO_PER_HOUR: made by one player in the last hour
    server: int = 50  # PATE_SOLO_SERVER_MAX: player-made solo campaigns not yet finished
    # PATE_SOLO_OPEN_PER_CAMPAIGN: not finished, made from the seats of one campaign: its game
    # master knows every seat's password, and would otherwise have open_per_player per seat
    open_per_campaign: int = 6
    turn_hours: int = 168  # PATE_SOLO_TURN_HOURS: each turn's deadline, so a campaign left alone ends

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SoloLimits:
        env = os.environ if env is None else env
        bounds = {
            "open_per_player": 100,
            "per_hour": 100,
            "server": 100_000,
            "turn_hours": 24 * 30,
            "open_per_campaign": 1000,
        }
        values = {}
        for name, top in bounds.items():
            var = f"PATE_SOLO_{'SERVER_MAX' if name == 'server' else name.upper()}"
            text = env.get(var, "").strip()
            if not text:
                continue
            if not text.isdigit() or int(text) > top or (name == "turn_hours" and int(text) < 1):
                raise ConfigError(f"{var}={text[:20]!r}: expected a whole number up to {top}")
            values[name] = int(text)
        return cls(**values)


@dataclass(frozen=True, slots=True)
class SoloAsk:
    """A CreateSolo request checked for its form (no database needed)."""

    campaign: str
    scenario: str
    seat: str
    combat_rules: str
    naval_rules: str


def check_form(request: bots_pb2.CreateSoloRequest) -> SoloAsk:
    """Every field limited before any work (no file read, no database); the errors name the field."""
    check_id("campaign_id", request.campaign_id)
    if not SCENARIO_NAME.fullmatch(request.scenario):
        raise DeskError(Code.INVALID_ARGUMENT, "scenario: the name of a shipped scenario")
    check_id("seat", request.seat)
    for name in ("combat_rules", "naval_rules"):
        if len(getattr(request, name)) > 64:
            raise DeskError(Code.INVALID_ARGUMENT, f"{name}: the name of a rule set")
    return SoloAsk(
        request.campaign_id, request.scenario, request.seat, request.combat_rules, request.naval_rules
    )


@lru_cache(maxsize=16)
def shipped_scenario(name: str) -> Scenario:
    """A shipped scenario, read and checked once per process: the files do not change while
    it runs, and a scenario is a frozen value."""
    return load_shipped_scenario(name)


def scenario_for(ask: SoloAsk) -> Scenario:
    """The scenario asked for, with the seat checked in it (after the asker is authenticated)."""
    try:
        scenario = shipped_scenario(ask.scenario)
    except (FileNotFoundError, ValueError):
        raise DeskError(Code.NOT_FOUND, f"scenario: no scenario named {ask.scenario!r}") from None
    seat = scenario.world.players.get(ask.seat)
    if seat is None or not seat.state:
        raise DeskError(Code.INVALID_ARGUMENT, f"seat: no player {ask.seat!r} of a state in the scenario")
    return scenario


def owner_of(conn: Connection, token: str, now: datetime) -> tuple[str, str]:
    """(campaign, player) the request counts against: the session's, or, for a
    session in a player-made solo campaign, that campaign's own owner."""
    session = sessions.lookup(conn, token, now=now)
    if session is None:
        raise DeskError(Code.UNAUTHENTICATED, "session_token: log in to a campaign first")
    row = conn.execute(
        select(solo_owners.c.owner_campaign, solo_owners.c.owner_player).where(
            solo_owners.c.campaign == session.campaign
        )
    ).first()
    return (row.owner_campaign, row.owner_player) if row else (session.campaign, session.player)


def check_limits(conn: Connection, owner: tuple[str, str], now: datetime, limits: SoloLimits) -> None:
    c = tables.campaigns
    open_ones = (
        select(func.count())
        .select_from(solo_owners.join(c, c.c.id == solo_owners.c.campaign))
        .where(c.c.status != "FINISHED")
    )
    if limits.server == 0:
        raise DeskError(Code.PERMISSION_DENIED, "campaign_id: this server does not take solo campaigns")
    if int(conn.execute(open_ones).scalar() or 0) >= limits.server:
        raise DeskError(Code.RESOURCE_EXHAUSTED, "campaign_id: the server has its most solo campaigns; later")
    from_campaign = solo_owners.c.owner_campaign == owner[0]
    if int(conn.execute(open_ones.where(from_campaign)).scalar() or 0) >= limits.open_per_campaign:
        raise DeskError(
            Code.RESOURCE_EXHAUSTED,
            f"campaign_id: {limits.open_per_campaign} solo campaigns not finished were made from the seats "
            "of your campaign, the most allowed",
        )
    mine = and_(from_campaign, solo_owners.c.owner_player == owner[1])
    if int(conn.execute(open_ones.where(mine)).scalar() or 0) >= limits.open_per_player:
        raise DeskError(
            Code.RESOURCE_EXHAUSTED,
            f"campaign_id: you have {limits.open_per_player} solo campaigns not finished, the most allowed",
        )
    recent = select(func.count()).where(mine, solo_owners.c.created_at > now - timedelta(hours=1))
    if int(conn.execute(recent.select_from(solo_owners)).scalar() or 0) >= limits.per_hour:
        raise DeskError(
            Code.RESOURCE_EXHAUSTED, f"campaign_id: {limits.per_hour} solo campaigns an hour at most; later"
        )


def authorise(conn: Connection, token: str, now: datetime, limits: SoloLimits) -> None:
    """The asker's session and the limits, read before any costly work (the scenario, the
    password's hash), so a forged or spent session costs the server one lookup.  Advisory:
    :func:`create_solo` checks the limits again under its lock."""
    check_limits(conn, owner_of(conn, token, now), now, limits)


def create_solo(
    conn: Connection,
    token: str,
    ask: SoloAsk,
    hashes: Mapping[str, str],
    now: datetime,
    limits: SoloLimits,
    session_seconds: float,
) -> tuple[str, float]:
    """Make the campaign in this transaction; (his new session token, its expiry)."""
    lock_solo(conn)
    make_solo(conn, owner_of(conn, token, now), ask, hashes, now, limits)
    new_token, session = sessions.issue(conn, ask.campaign, ask.seat, now=now, ttl=session_seconds)
    return new_token, session.expires_at.timestamp()


def lock_solo(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_SOLO_LOCK})


def make_solo(
    conn: Connection,
    owner: tuple[str, str],
    ask: SoloAsk,
    hashes: Mapping[str, str],
    now: datetime,
    limits: SoloLimits,
) -> None:
    """The solo campaign, counted against ``owner`` (a seat, or an account: the lobby's
    StartSolo), its limits checked again under the lock :func:`lock_solo` took."""
    check_limits(conn, owner, now, limits)
    turn = limits.turn_hours * 3600
    scenario = scenario_for(ask)
    campaigns.create_campaign(
        conn,
        ask.campaign,
        scenario,
        ask.scenario,
        seed=scenario.world.seed,
        turns=scenario.world.turns,
        first_deadline=now + timedelta(seconds=turn),
        turn_seconds=turn,
        password_hashes=hashes,
        combat_rules=ask.combat_rules,
        naval_rules=ask.naval_rules,
    )
    civil.make_solo(conn, ask.campaign, [ask.seat])
    conn.execute(
        solo_owners.insert().values(
            campaign=ask.campaign, owner_campaign=owner[0], owner_player=owner[1], created_at=now
        )
    )
