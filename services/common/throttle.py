"""The login throttle: token buckets of password checks, kept in the database.

Every password check (argon2id, tens of milliseconds of CPU) first takes a
token from two buckets, in one short write transaction:

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

An attempt finding an empty bucket is refused without a check and takes
nothing (the reply says how many seconds to wait).  A right password fills
its source's bucket again, marks the source trusted and gives the other
buckets their token back: only wrong passwords use up the budget.

The state is in the database, so every replica shares it.  Keys are SHA-256
digests of the campaign and player and of the source address: a row has a
fixed size whatever the input.  A row whose bucket has filled up again and
whose source is not trusted is equivalent to no row and is deleted
(``idle_at``), so the table holds only the sources that failed in the last
minutes and the trusted ones.  docs/security.md has the figures.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from services.common import tables

ANY = "*"  # the key of "every source" (account bucket) or "every account" (address bucket)
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


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def account_key(campaign: str, player: str) -> str:
    return digest(f"{len(campaign)}:{campaign}/{player}")


@dataclass(slots=True)
class _Bucket:
    key: tuple[str, str]
    tokens: float
    trusted_until: datetime | None
    burst: float
    per_second: float


class LoginThrottle:
    """The shared buckets of one database (thread-safe: state only in the database)."""

    def __init__(
        self,
        engine: Engine,
        policy: ThrottlePolicy | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.engine = engine
        self.policy = policy or ThrottlePolicy()
        self.clock = clock

    def reserve(self, account: str, source: str) -> float:
        """Take a check from the buckets: 0.0 when the check may go on, else
        the seconds until it may (nothing taken)."""
        now = self.clock()
        with self.engine.begin() as conn:
            buckets = self._buckets(conn, account, digest(source), now)
            short = [b for b in buckets if b.tokens < 1.0]
            if short:
                return max((1.0 - b.tokens) / b.per_second for b in short)
            for b in buckets:
                b.tokens -= 1.0
                self._store(conn, b, now)
            self._prune(conn, now)
        return 0.0

    def succeeded(self, account: str, source: str) -> None:
        """A right password after ``reserve``: refill the source, trust it, refund the rest."""
        now = self.clock()
        with self.engine.begin() as conn:
            src, *shared = self._buckets(conn, account, digest(source), now)
            src.tokens = src.burst
            src.trusted_until = now + timedelta(days=self.policy.trust_days)
            self._store(conn, src, now)
            for b in shared:  # charged only when the source was not trusted yet
                b.tokens = min(b.burst, b.tokens + 1.0)
                self._store(conn, b, now)

    def _buckets(self, conn: Connection, account: str, src_key: str, now: datetime) -> list[_Bucket]:
        """The (account, source) bucket, then those a trusted source skips."""
        p = self.policy
        src = self._load(conn, (account, src_key), p.source_burst, p.source_per_minute, now)
        if src.trusted_until is not None and src.trusted_until > now:
            return [src]
        return [
            src,
            self._load(conn, (account, ANY), p.account_burst, p.account_per_minute, now),
            self._load(conn, (ANY, src_key), p.address_burst, p.address_per_minute, now),
        ]

    def tracked(self) -> int:
        """Rows held (for tests and metrics)."""
        with self.engine.connect() as conn:
            return len(conn.execute(select(_T.c.account)).all())

    def _load(
        self, conn: Connection, key: tuple[str, str], burst: float, per_minute: float, now: datetime
    ) -> _Bucket:
        account, source = key
        fresh = {"account": account, "source": source, "tokens": burst, "updated_at": now, "idle_at": now}
        conn.execute(_insert_if_missing(conn).values(**fresh))
        q = select(_T).where(and_(_T.c.account == account, _T.c.source == source))
        if conn.dialect.name == "postgresql":
            q = q.with_for_update()
        row = conn.execute(q).one()
        per_second = per_minute / 60.0
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
        conn.execute(
            delete(_T).where(
                and_(_T.c.idle_at <= now, or_(_T.c.trusted_until.is_(None), _T.c.trusted_until <= now))
            )
        )


def _insert_if_missing(conn: Connection) -> Any:
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(_T).on_conflict_do_nothing(index_elements=["account", "source"])
