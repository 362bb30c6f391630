"""The login throttle: token buckets of password checks, kept in the database.

Every password check (argon2id, tens of milliseconds of CPU) first takes a
token from the buckets, in one short write transaction:

* the bucket of the (account, source) pair: ``source_burst`` checks at once,
  refilled at ``source_per_minute``.  A guesser at one address gets at most
  that many checks a minute, however fast he asks; the account's owner at
  another address has a bucket of his own and is not slowed down by him.
* the bucket of the account (all sources): ``account_burst``, refilled at
  ``account_per_minute``.  It bounds guessing from many addresses at once.
* the bucket of the source address (all accounts): ``address_burst``,
  refilled at ``address_per_minute``.  It bounds the argon2 work one address
  can cause by trying many player names.

A source where the account's right password was given in the last
``trust_days`` days skips the last two buckets, so neither a distributed
guesser nor one sharing the owner's address can lock him out of the places
he logs in from.

A right password fills its source's bucket again, marks the source trusted
and gives the other buckets back the tokens *its own* attempt took (what
``reserve`` charged, remembered for the thread that makes the check: not
what the buckets look like when the check ends, since a concurrent success
may have trusted the source in between): only wrong passwords use up the
budget.

Checks in flight.  A token is taken before the password is known to be
right, so several right-password attempts of one account arriving together
(browser tabs, an older client sending the password with parallel calls, a
bot) could empty a bucket between them and the last ones would be refused
though every one of them was right.  So each taken token is also marked as
a *hold* (a row of its own, ``hold:`` in its source column), which ends
when the check does: at the success, at the next attempt made by the same
thread (its previous check is over), or ``settle_seconds`` after it was
taken.  An attempt that finds a bucket empty while every empty bucket has
holds waits, up to ``settle_seconds``, for them to end: a success among them
refills the bucket and the attempt goes on; if they were wrong guesses it
is refused as before.  A wrong guess so never gets a check it would not
have had; at most ``max_waiters`` attempts of a process wait at a time
(the others are refused at once, as before), so waiting cannot tie up the
service's threads.

An attempt finding an empty bucket (and nothing in flight that could refill
it) is refused without a check and takes nothing: the reply says how many
seconds to wait.

The state is in the database, so every replica shares it.  Keys are SHA-256
digests of the campaign and player and of the source address: a row has a
fixed size whatever the input.  A row whose bucket has filled up again and
whose source is not trusted is equivalent to no row and is deleted
(``idle_at``), and so is a hold once it has ended or expired; so the table
holds only the sources that failed in the last minutes, the trusted ones and
the checks in flight.  docs/security.md has the figures.
"""

from __future__ import annotations

import hashlib
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, func, not_, or_, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite

from services.platform.store import tables
from services.platform.store.db import reader

ANY = "*"  # the key of "every source" (account bucket) or "every account" (address bucket)
HOLD = "hold:"  # the source column of a hold starts so; a bucket's is a digest or ANY
POLL_SECONDS = 0.02  # how often a waiting attempt looks again
_T = tables.login_throttle


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    source_burst: float = 5.0  # checks a source may make at once for one account
    source_per_minute: float = 10.0  # then this many a minute
    account_burst: float = 20.0  # checks all untrusted sources together may make at once
    account_per_minute: float = 20.0  # then this many a minute
    address_burst: float = 30.0  # checks one address may make at once, over all accounts
    address_per_minute: float = 60.0  # then this many a minute
    trust_days: float = 30.0  # a source that gave the right password skips the account bucket this long
    settle_seconds: float = 1.0  # the longest a check is held in flight, and a refusal waits for one
    max_waiters: int = 16  # attempts of one process waiting for checks in flight at a time


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def account_key(campaign: str, player: str) -> str:
    return digest(f"{len(campaign)}:{campaign}/{player}")


def _hold_key(key: tuple[str, str]) -> str:
    """The account column of the holds on bucket ``key`` (never a bucket's own key)."""
    return digest(f"hold/{key[0]}/{key[1]}")


@dataclass(slots=True)
class _Bucket:
    key: tuple[str, str]
    tokens: float
    trusted_until: datetime | None
    burst: float
    per_second: float


@dataclass(frozen=True, slots=True)
class _Attempt:
    """What one attempt's ``reserve`` took, kept for the thread that makes its check."""

    engine: Engine
    account: str
    src_key: str
    hold: str  # the source column of its holds
    charged: tuple[tuple[str, str], ...]  # the buckets it took a token from


_IN_FLIGHT = threading.local()  # .attempt: this thread's last attempt whose check may be running


def _take_attempt() -> _Attempt | None:
    attempt: _Attempt | None = getattr(_IN_FLIGHT, "attempt", None)
    _IN_FLIGHT.attempt = None
    return attempt


class LoginThrottle:
    """The shared buckets of one database (thread-safe: state in the database, and per thread
    the attempt whose check that thread is making)."""

    def __init__(
        self,
        engine: Engine,
        policy: ThrottlePolicy | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.engine = engine
        self.policy = policy or ThrottlePolicy()
        self.clock = clock
        self._waiters = threading.BoundedSemaphore(max(1, self.policy.max_waiters))

    def reserve(self, account: str, source: str) -> float:
        """Take a check from the buckets: 0.0 when the check may go on, else
        the seconds until it may (nothing taken).  Blocking: when the buckets
        are empty only because of checks still in flight, it waits for them
        (at most ``settle_seconds``)."""
        src_key = digest(source)
        previous = _take_attempt()  # this thread asks again: its previous check is over
        with self.engine.begin() as conn:
            if previous is not None:
                self._end(conn, previous)
            wait, in_flight = self._take(conn, account, src_key)
        give_up = time.monotonic() + self.policy.settle_seconds
        waiting = False
        try:
            while wait > 0 and in_flight and time.monotonic() < give_up:
                if not waiting:
                    if not self._waiters.acquire(blocking=False):
                        break  # enough attempts wait already: refused at once, as without holds
                    waiting = True
                time.sleep(POLL_SECONDS)
                with reader(self.engine) as conn:
                    short, in_flight = self._look(conn, account, src_key)
                if short:
                    wait = _wait(short)
                else:  # a check in flight succeeded and gave its tokens back: take one
                    with self.engine.begin() as conn:
                        wait, in_flight = self._take(conn, account, src_key)
        finally:
            if waiting:
                self._waiters.release()
        return wait

    def succeeded(self, account: str, source: str) -> None:
        """A right password after ``reserve``: refill the source, trust it, refund the rest."""
        src_key = digest(source)
        attempt = _take_attempt()
        now = self.clock()
        with self.engine.begin() as conn:
            if attempt is not None:
                self._end(conn, attempt)
            p = self.policy
            if attempt is not None and (attempt.account, attempt.src_key) == (account, src_key):
                src = self._load(conn, (account, src_key), p.source_burst, p.source_per_minute, now)
                shared = [self._bucket(conn, key, now) for key in attempt.charged if key != src.key]
            else:  # no reserve of this thread to go by: refund what an untrusted source is charged
                src, *shared = self._buckets(conn, account, src_key, now)
            src.tokens = src.burst
            src.trusted_until = now + timedelta(days=p.trust_days)
            self._store(conn, src, now)
            for b in shared:
                b.tokens = min(b.burst, b.tokens + 1.0)
                self._store(conn, b, now)

    def _take(self, conn: Connection, account: str, src_key: str) -> tuple[float, bool]:
        """Take a token from each bucket and hold it: (0.0, False); or, a bucket
        short, take nothing: (seconds to wait, whether checks in flight hold
        every short bucket)."""
        now = self.clock()
        buckets = self._buckets(conn, account, src_key, now)
        short = [b for b in buckets if b.tokens < 1.0]
        if short:
            return _wait(short), self._held(conn, short, now)
        hold = HOLD + uuid.uuid4().hex
        until = now + timedelta(seconds=self.policy.settle_seconds)
        for b in buckets:
            b.tokens -= 1.0
            self._store(conn, b, now)
            held = {"account": _hold_key(b.key), "source": hold, "tokens": 1.0}
            conn.execute(_T.insert().values(**held, updated_at=now, idle_at=until))
        self._prune(conn, now)
        _IN_FLIGHT.attempt = _Attempt(self.engine, account, src_key, hold, tuple(b.key for b in buckets))
        return 0.0, False

    def _look(self, conn: Connection, account: str, src_key: str) -> tuple[list[_Bucket], bool]:
        """Read only: the short buckets, and whether checks in flight hold every one."""
        now = self.clock()
        short = [b for b in self._buckets(conn, account, src_key, now, write=False) if b.tokens < 1.0]
        return short, bool(short) and self._held(conn, short, now)

    def _held(self, conn: Connection, buckets: list[_Bucket], now: datetime) -> bool:
        for b in buckets:
            live = select(func.count()).where(and_(_T.c.account == _hold_key(b.key), _T.c.idle_at > now))
            if not conn.execute(live).scalar():
                return False
        return True

    def _end(self, conn: Connection, attempt: _Attempt) -> None:
        """The check of ``attempt`` is over: its holds go (its tokens stay taken)."""
        keys = [_hold_key(k) for k in attempt.charged]
        where = and_(_T.c.account.in_(keys), _T.c.source == attempt.hold)
        if attempt.engine is conn.engine:
            conn.execute(delete(_T).where(where))
        else:  # made on another database (tests with several): end it there
            with attempt.engine.begin() as other:
                other.execute(delete(_T).where(where))

    def _buckets(
        self, conn: Connection, account: str, src_key: str, now: datetime, *, write: bool = True
    ) -> list[_Bucket]:
        """The (account, source) bucket, then those a trusted source skips."""
        p = self.policy
        src = self._load(conn, (account, src_key), p.source_burst, p.source_per_minute, now, write=write)
        if src.trusted_until is not None and src.trusted_until > now:
            return [src]
        return [
            src,
            self._load(conn, (account, ANY), p.account_burst, p.account_per_minute, now, write=write),
            self._load(conn, (ANY, src_key), p.address_burst, p.address_per_minute, now, write=write),
        ]

    def _bucket(self, conn: Connection, key: tuple[str, str], now: datetime) -> _Bucket:
        """A shared bucket by its key: the account's (source ANY) or the address's (account ANY)."""
        p = self.policy
        if key[1] == ANY:
            return self._load(conn, key, p.account_burst, p.account_per_minute, now)
        return self._load(conn, key, p.address_burst, p.address_per_minute, now)

    def tracked(self) -> int:
        """Bucket rows held (for tests and metrics)."""
        with self.engine.connect() as conn:
            return len(conn.execute(select(_T.c.account).where(not_(_T.c.source.like(f"{HOLD}%")))).all())

    def in_flight(self) -> int:
        """Hold rows not yet ended or expired: one per bucket charged by a check still running."""
        with self.engine.connect() as conn:
            live = and_(_T.c.source.like(f"{HOLD}%"), _T.c.idle_at > self.clock())
            return len(conn.execute(select(_T.c.account).where(live)).all())

    def _load(
        self,
        conn: Connection,
        key: tuple[str, str],
        burst: float,
        per_minute: float,
        now: datetime,
        *,
        write: bool = True,
    ) -> _Bucket:
        account, source = key
        q = select(_T).where(and_(_T.c.account == account, _T.c.source == source))
        row = None
        if write:
            fresh = {"account": account, "source": source, "tokens": burst, "updated_at": now, "idle_at": now}
            if conn.dialect.name == "postgresql":
                q = q.with_for_update()
            for _ in range(3):  # another transaction's prune may delete the row between the two
                conn.execute(_insert_if_missing(conn).values(**fresh))
                row = conn.execute(q).first()
                if row is not None:
                    break
            else:
                raise RuntimeError("login_throttle: a bucket row vanished three times")
        else:
            row = conn.execute(q).first()
        per_second = per_minute / 60.0
        if row is None:  # read only, and no row: a full bucket
            return _Bucket(key, burst, None, burst, per_second)
        elapsed = max(0.0, (now - row.updated_at).total_seconds())
        tokens = min(burst, row.tokens + elapsed * per_second)
        return _Bucket(key, tokens, row.trusted_until, burst, per_second)

    def _store(self, conn: Connection, b: _Bucket, now: datetime) -> None:
        idle = now + timedelta(seconds=(b.burst - b.tokens) / b.per_second)
        account, source = b.key
        conn.execute(
            update(_T)
            .where(and_(_T.c.account == account, _T.c.source == source))
            .values(tokens=b.tokens, updated_at=now, trusted_until=b.trusted_until, idle_at=idle)
        )

    def _prune(self, conn: Connection, now: datetime) -> None:
        """Delete the rows equivalent to no row: full, untrusted buckets and ended holds.  On
        PostgreSQL only rows no other transaction holds (garbage collection must never wait on
        an attempt in progress: that wait could close a cycle of locks)."""
        stale = and_(_T.c.idle_at <= now, or_(_T.c.trusted_until.is_(None), _T.c.trusted_until <= now))
        if conn.dialect.name == "postgresql":
            free = select(_T.c.account, _T.c.source).where(stale).with_for_update(skip_locked=True)
            conn.execute(delete(_T).where(tuple_(_T.c.account, _T.c.source).in_(free)))
        else:
            conn.execute(delete(_T).where(stale))


def _wait(short: list[_Bucket]) -> float:
    return max((1.0 - b.tokens) / b.per_second for b in short)


def _insert_if_missing(conn: Connection) -> Any:
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(_T).on_conflict_do_nothing(index_elements=["account", "source"])
