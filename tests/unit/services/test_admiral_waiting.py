"""The admiral service's loop (services/admiral/main.py; docs/bots.md "Waiting for work"):
it sweeps the campaigns the long poll names, pauses when work was named but none could be
played (never asking in a busy loop), falls back to looking every poll interval when the
orders service has no WaitForWork, and a stop cancels the call in flight."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

import grpc
import pytest

from pate.v1 import bots_pb2
from services.admiral import main as admiral
from services.platform.config import ConfigError


class Call:
    """A WaitForWork call in flight: answers with ``names`` when let go, or is cancelled."""

    def __init__(self, names: list[str] | None = None, error: grpc.RpcError | None = None) -> None:
        self.names, self.error = names, error
        self.cancelled = threading.Event()
        self.let_go = threading.Event()
        if names is not None or error is not None:
            self.let_go.set()

    def result(self) -> bots_pb2.WaitForWorkResponse:
        self.let_go.wait(30)
        if self.cancelled.is_set():
            raise grpc.FutureCancelledError()
        if self.error is not None:
            raise self.error
        return bots_pb2.WaitForWorkResponse(campaign_ids=self.names or [])

    def cancel(self) -> bool:
        self.cancelled.set()
        self.let_go.set()
        return True


class Unimplemented(grpc.RpcError):  # type: ignore[misc]
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNIMPLEMENTED


def _stubs(make_call: Any) -> Any:
    asked: list[bots_pb2.WaitForWorkRequest] = []

    def future(req: bots_pb2.WaitForWorkRequest, **_: Any) -> Call:
        asked.append(req)
        return make_call()  # type: ignore[no-any-return]

    stubs = SimpleNamespace(bots=SimpleNamespace(WaitForWork=SimpleNamespace(future=future)))
    return stubs, asked


SETTINGS: Any = SimpleNamespace(admin_token="t" * 32, admiral_token="")
ADMIN = (("x-pate-admin-token", "t" * 32),)


def _counting(swept: list[list[str]]) -> Any:
    def sweep(stubs: Any, creds: Any, ctx: Any, level: Any, only: list[str]) -> int:
        swept.append(only)
        return 0  # nothing could be played

    return sweep


def _serve_for(stubs: Any, seconds: float, poll: float, wait: float) -> None:
    async def scene() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(seconds, stop.set)
        await asyncio.wait_for(admiral.serve_seats(stubs, SETTINGS, None, poll, wait, stop), timeout=30)  # type: ignore[arg-type]

    asyncio.run(scene())


def test_work_named_is_swept_alone_and_none_played_pauses_the_asking(monkeypatch: pytest.MonkeyPatch) -> None:
    swept: list[list[str]] = []
    monkeypatch.setattr(admiral, "sweep", _counting(swept))
    stubs, asked = _stubs(lambda: Call(["c1"]))
    _serve_for(stubs, 1.0, poll=0.4, wait=20)
    # the call answers at once each time, but nothing is played: one ask per pause, not a spin
    assert 1 <= len(asked) <= 4 and all(only == ["c1"] for only in swept)
    assert asked[0].timeout_seconds == 20


def test_without_the_long_poll_it_looks_every_poll_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    swept: list[list[str]] = []
    monkeypatch.setattr(admiral, "sweep", _counting(swept))
    stubs, asked = _stubs(lambda: Call(error=Unimplemented()))
    _serve_for(stubs, 1.0, poll=0.4, wait=20)
    assert len(asked) == 1  # an orders service older than WaitForWork is asked once
    assert swept and all(only == [] for only in swept) and len(swept) <= 4  # then every sweep is whole


def test_a_stop_cancels_the_call_in_flight() -> None:
    held = Call()
    stubs, _ = _stubs(lambda: held)

    async def scene() -> list[str] | None:
        stop = asyncio.Event()
        asking = asyncio.create_task(admiral.ask_for_work(stubs, ADMIN, 50, stop))
        await asyncio.sleep(0.1)
        stop.set()
        return await asyncio.wait_for(asking, timeout=20)

    assert asyncio.run(scene()) is None
    assert held.cancelled.is_set()


def test_the_wait_setting_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATE_ADMIRAL_WAIT_SECONDS", "0")
    assert admiral._wait() == 0  # no long poll
    monkeypatch.setenv("PATE_ADMIRAL_WAIT_SECONDS", "61")
    with pytest.raises(ConfigError, match="0 to 60 seconds"):
        admiral._wait()
    monkeypatch.setenv("PATE_ADMIRAL_POLL_SECONDS", "0")
    with pytest.raises(ConfigError, match="PATE_ADMIRAL_POLL_SECONDS"):
        admiral._poll()


def test_a_sweep_plays_every_seat_and_a_failed_seat_does_not_stop_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from services.admiral import work

    seats = [(SimpleNamespace(id="c", turn=2), p) for p in ("a", "b", "c", "d", "e", "f")]
    monkeypatch.setattr(work, "_unplayed", lambda stubs, admin, only: seats)
    played: list[str] = []

    def play(stubs: Any, admin: Any, ctx: Any, level: Any, c: Any, player: str) -> None:
        if player == "b":
            raise Unimplemented()
        played.append(player)

    monkeypatch.setattr(work, "play", play)
    with pytest.raises(grpc.RpcError):
        work.sweep(None, ADMIN, None, None)  # type: ignore[arg-type]
    assert sorted(played) == ["a", "c", "d", "e", "f"]  # the next sweep tries b again
    played.clear()
    seats[1:2] = []
    assert work.sweep(None, ADMIN, None, None) == 5  # type: ignore[arg-type]
    assert sorted(played) == ["a", "c", "d", "e", "f"]
