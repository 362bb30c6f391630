"""The bot admiral's long poll (BotAdmirals.WaitForWork, docs/bots.md "Waiting for work").

The admiral service is a gRPC client with no database and no bus, so it cannot be told of a
turn opening; it asks, and the orders service holds the question until there is work: an open
turn with a seat the bot holds and has not played.  The orders process rings a bell when it
commits something that may give the bot work (a turn opened by its ReportsReady consumer, a
seat handed to the bot, a solo campaign made); a waiting call looks again at once.  A look
every ``recheck`` seconds covers what another orders replica committed, which rings no bell
here.  Between looks the call sleeps: no busy loop, one cheap read per look.
"""

from __future__ import annotations

import asyncio
import contextlib
import math

from sqlalchemy import Connection, Engine, and_, func, select

from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import in_reader
from services.platform.store import tables

MAX_WAIT_SECONDS = 60.0  # a call held longer than this answers with none; the admiral asks again
RECHECK_SECONDS = 0.5  # what another orders replica opened is seen within this


class Bell:
    """Wakes the waiting calls of this process.  Rung and waited on in its event loop (a new
    loop, as each test has, starts with a new event: an asyncio.Event belongs to one loop)."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.rings = 0

    def armed(self) -> asyncio.Event:
        """The event the next ring sets: taken before a look, so a ring during it is not lost."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._event, self._loop = asyncio.Event(), loop
        return self._event

    def ring(self) -> None:
        event, self._event = self._event, asyncio.Event()
        self.rings += 1
        event.set()


BELL = Bell()


def campaigns_with_work(conn: Connection) -> list[str]:
    """Campaigns whose open turn has a seat the bot holds (since that turn or before) and has
    not yet played: what the admiral's sweep would play (services/admiral/work.py)."""
    c, seat, done = tables.campaigns, tables.bot_players, tables.bot_orders
    played = (
        select(done.c.player)
        .where(done.c.campaign == seat.c.campaign, done.c.turn == c.c.turn, done.c.player == seat.c.player)
        .exists()
    )
    query = (
        select(c.c.id)
        .select_from(seat.join(c, c.c.id == seat.c.campaign))
        .where(
            and_(
                c.c.status == "OPEN",
                seat.c.reason.is_not(None),
                func.coalesce(seat.c.since_turn, 0) <= c.c.turn,
                ~played,
            )
        )
        .distinct()
        .order_by(c.c.id)
    )
    return list(conn.execute(query).scalars())


def check_timeout(seconds: float) -> float:
    """The request's timeout_seconds, refused unless a number of seconds from 0 to the most."""
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_WAIT_SECONDS:
        raise DeskError(Code.INVALID_ARGUMENT, f"timeout_seconds: 0 to {MAX_WAIT_SECONDS:g} seconds")
    return seconds


async def wait_for_work(
    engine: Engine, timeout: float, bell: Bell = BELL, recheck: float = RECHECK_SECONDS
) -> list[str]:
    """The campaigns with work as soon as there are any, or none after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + min(max(timeout, 0.0), MAX_WAIT_SECONDS)
    while True:
        rung = bell.armed()
        found = await in_reader(engine, campaigns_with_work)
        left = end - loop.time()
        if found or left <= 0:
            return found
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(rung.wait(), timeout=min(left, recheck))
