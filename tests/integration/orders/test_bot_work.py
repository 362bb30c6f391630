"""The bot admiral's long poll (services/orders/botwork.py, BotAdmirals.WaitForWork; docs/bots.md
"Waiting for work"): it answers as soon as an open turn has a seat the bot holds and has not
played, naming that campaign; with none at its timeout; and between looks it sleeps, waking
when the process rings its bell (a turn opened, a seat handed to the bot)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import Connection, Engine

from pate.datafiles import load_scenario
from services.orders import botwork, campaigns, civil
from services.platform.errors import Code, DeskError
from services.platform.store import bots
from services.platform.store import repository as repo
from tests.support.passwords import EveryPlayer

AT = datetime(2026, 3, 1, 12, tzinfo=UTC)
BOTS = ("allemand", "barham", "calder", "cornwallis", "decres")


def _solo(engine: Engine, cid: str = "alone", human: str = "ganteaume") -> None:
    """A solo campaign of the training scenario, its first turn not yet open."""
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            cid,
            load_scenario("training"),
            "training",
            seed=1,
            turns=3,
            first_deadline=None,
            turn_seconds=0,
            password_hashes=EveryPlayer(),
        )
        civil.make_solo(conn, cid, [human])


def _open(engine: Engine, cid: str = "alone") -> None:
    with engine.begin() as conn:
        repo.set_status(conn, cid, turn=1, expect=("STARTING",), status="OPEN")


def _found(engine: Engine) -> list[str]:
    with engine.begin() as conn:
        return botwork.campaigns_with_work(conn)


def test_work_is_an_open_turn_with_a_bot_seat_not_yet_played(engine: Engine) -> None:
    _solo(engine)
    assert _found(engine) == []  # the first turn waits for its starting reports
    _open(engine)
    assert _found(engine) == ["alone"]
    with engine.begin() as conn:
        for player in BOTS[:-1]:
            bots.note_bot_orders(conn, "alone", 1, player, f"admiral:1:{player}")
    assert _found(engine) == ["alone"]  # one seat left
    with engine.begin() as conn:
        bots.note_bot_orders(conn, "alone", 1, BOTS[-1], f"admiral:1:{BOTS[-1]}")
    assert _found(engine) == []  # the human's own seat is never the bot's work


def test_the_long_poll_answers_when_the_bell_rings_after_work_is_committed(engine: Engine) -> None:
    _solo(engine)
    bell = botwork.Bell()

    async def scene() -> list[str]:
        # recheck longer than the test: only the bell can wake the call before its timeout
        waiting = asyncio.create_task(botwork.wait_for_work(engine, 50, bell, recheck=50))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # nothing to do: it waits
        await asyncio.to_thread(_open, engine)
        bell.ring()  # as the orders-turns consumer does after the commit
        return await asyncio.wait_for(waiting, timeout=40)

    assert asyncio.run(scene()) == ["alone"]


def test_a_ring_with_nothing_to_do_goes_on_waiting_and_the_timeout_answers_none(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No busy loop: one look per ring and per recheck, none between."""
    _solo(engine)
    looks: list[int] = []
    real = botwork.campaigns_with_work

    def counted(conn: Connection) -> list[str]:
        looks.append(1)
        return real(conn)

    monkeypatch.setattr(botwork, "campaigns_with_work", counted)
    bell = botwork.Bell()

    async def scene() -> list[str]:
        waiting = asyncio.create_task(botwork.wait_for_work(engine, 1.0, bell, recheck=0.25))
        await asyncio.sleep(0.1)
        bell.ring()  # something committed, but not the bot's work
        return await waiting

    assert asyncio.run(scene()) == []
    # the first look, one after the ring, one per recheck (four in the second): a busy
    # loop would have looked thousands of times
    assert 2 <= len(looks) <= 1 + 1 + 4 + 1


def test_a_timeout_of_zero_looks_once_and_work_already_there_answers_at_once(engine: Engine) -> None:
    _solo(engine)
    assert asyncio.run(botwork.wait_for_work(engine, 0, botwork.Bell())) == []
    _open(engine)
    assert asyncio.run(botwork.wait_for_work(engine, 50, botwork.Bell(), recheck=50)) == ["alone"]


def test_the_timeout_asked_is_a_number_of_seconds_up_to_a_minute() -> None:
    assert botwork.check_timeout(0) == 0 and botwork.check_timeout(60) == 60
    for bad in (-1.0, 60.5, float("nan"), float("inf"), 1e308):
        with pytest.raises(DeskError, match=r"^timeout_seconds: ") as err:
            botwork.check_timeout(bad)
        assert err.value.code == Code.INVALID_ARGUMENT
