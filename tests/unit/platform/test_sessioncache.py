"""Sessions kept in memory for a moment: trusted for SESSION_CACHE_SECONDS,
never past the session's own expiry, forgotten at once when revoked here."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from services.platform.security import sessioncache
from services.platform.security.sessioncache import SessionCache
from services.platform.security.sessions import Session

NOW = datetime(1805, 10, 21, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.mono = 100.0
        self.wall = NOW

    def advance(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += timedelta(seconds=seconds)


def _cache(clock: Clock, seconds: float = 2.0) -> SessionCache:
    return SessionCache(lambda: clock.wall, seconds=seconds, monotonic=lambda: clock.mono)


def test_a_session_is_trusted_for_its_seconds_and_then_asked_again() -> None:
    clock = Clock()
    cache = _cache(clock)
    session = Session("c", "cornwallis", NOW + timedelta(hours=12))
    cache.remember("tok", session, "row")
    assert cache.get("tok") == (session, "row")
    clock.advance(1.9)
    assert cache.get("tok") == (session, "row")
    clock.advance(0.2)
    assert cache.get("tok") is None  # past 2 s: the database decides again
    assert cache.get("other") is None


def test_never_past_the_sessions_own_expiry() -> None:
    clock = Clock()
    cache = _cache(clock, seconds=60)
    cache.remember("tok", Session("c", "p", NOW + timedelta(seconds=1)), "row")
    clock.advance(1.0)
    assert cache.get("tok") is None


def test_revocations_here_are_forgotten_at_once() -> None:
    clock = Clock()
    cache = _cache(clock)
    late = NOW + timedelta(hours=1)
    cache.remember("a1", Session("c", "cornwallis", late), 1)
    cache.remember("a2", Session("c", "cornwallis", late), 2)
    cache.remember("b", Session("c", "barham", late), 3)
    cache.remember("other", Session("d", "cornwallis", late), 4)
    cache.forget_token("b")
    assert cache.get("b") is None
    cache.forget_player("c", "cornwallis")  # a new password, or logout everywhere
    assert cache.get("a1") is None and cache.get("a2") is None
    assert cache.get("other") is not None  # the same name in another campaign is another player


def test_the_cache_is_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sessioncache, "MAX_ENTRIES", 3)
    clock = Clock()
    cache = _cache(clock)
    for i in range(5):
        cache.remember(f"t{i}", Session("c", f"p{i}", NOW + timedelta(hours=1)), i)
    assert [cache.get(f"t{i}") is not None for i in range(5)] == [False, False, True, True, True]
