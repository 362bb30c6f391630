"""Players' passwords (rule 2.3): argon2id hashes and a throttle on guessing.

Passwords are stored only as argon2id hashes (OWASP's minimum profile,
see ``DEFAULT_HASHER``).  Repeated wrong passwords for
one player slow further attempts down: after ``free_failures`` consecutive
failures, the next attempt is accepted only after a delay that doubles with
each further failure, up to ``max_delay``; attempts made during the delay are
refused without checking the password and do not count.  A right password
clears the record.

The throttle lives in the memory of one process: a restart forgets it, and
with N replicas a guesser gets N times the attempts.  That slows guessing
down by orders of magnitude, which is its purpose; it is not a lockout.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MAX_PASSWORD_LENGTH = 1024  # characters; longer input is refused unhashed

# argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane):
# every order request is authenticated by password, so the cost of a check
# bounds the desk's throughput; this profile costs a few tens of milliseconds.
DEFAULT_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


def hash_password(password: str, *, hasher: PasswordHasher | None = None) -> str:
    """The argon2id hash to store; raises ValueError for an empty or overlong password."""
    if not password or len(password) > MAX_PASSWORD_LENGTH:
        raise ValueError(f"a password has 1 to {MAX_PASSWORD_LENGTH} characters")
    return (hasher or DEFAULT_HASHER).hash(password)


def needs_rehash(stored_hash: str, *, hasher: PasswordHasher | None = None) -> bool:
    """Whether a hash was made with other parameters than the current ones."""
    try:
        return (hasher or DEFAULT_HASHER).check_needs_rehash(stored_hash)
    except (InvalidHashError, ValueError):
        return True


def hash_matches(stored_hash: str, password: str, *, hasher: PasswordHasher | None = None) -> bool:
    """Whether the password matches the hash; never raises."""
    if not password or len(password) > MAX_PASSWORD_LENGTH:
        return False
    try:
        return (hasher or DEFAULT_HASHER).verify(stored_hash, password)
    except (VerificationError, InvalidHashError, ValueError):
        return False


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    free_failures: int = 3  # wrong passwords in a row before any delay
    base_delay: float = 1.0  # seconds, after the first failure beyond the free ones
    factor: float = 2.0  # each further failure multiplies the delay
    max_delay: float = 300.0  # seconds: the delay never exceeds five minutes
    forget_after: float = 3600.0  # seconds without a failure after which a record is dropped
    max_players: int = 100_000  # records kept at most (memory bound against made-up names)

    def delay(self, failures: int) -> float:
        """Seconds to wait after this many failures in a row."""
        beyond = failures - self.free_failures
        if beyond < 0:
            return 0.0
        return min(self.max_delay, self.base_delay * self.factor ** min(beyond, 64))


@dataclass(slots=True)
class _Record:
    failures: int
    last: float  # clock time of the last failure


class PasswordThrottle:
    """Per-player record of wrong passwords in a row (thread-safe)."""

    def __init__(
        self, policy: ThrottlePolicy | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.policy = policy or ThrottlePolicy()
        self._clock = clock
        self._records: dict[str, _Record] = {}
        self._lock = threading.Lock()

    def retry_after(self, player: str) -> float:
        """Seconds until the player may try again; 0 when they may try now."""
        now = self._clock()
        with self._lock:
            rec = self._live(player, now)
            if rec is None:
                return 0.0
            return max(0.0, rec.last + self.policy.delay(rec.failures) - now)

    def failed(self, player: str) -> float:
        """Record a wrong password; returns the delay now imposed."""
        now = self._clock()
        with self._lock:
            rec = self._live(player, now)
            if rec is None:
                self._prune(now)
                rec = self._records[player] = _Record(0, now)
            rec.failures += 1
            rec.last = now
            return self.policy.delay(rec.failures)

    def succeeded(self, player: str) -> None:
        with self._lock:
            self._records.pop(player, None)

    def tracked(self) -> int:
        with self._lock:
            return len(self._records)

    def _live(self, player: str, now: float) -> _Record | None:
        rec = self._records.get(player)
        if rec is not None and now - rec.last > self.policy.forget_after:
            del self._records[player]
            return None
        return rec

    def _prune(self, now: float) -> None:
        if len(self._records) < self.policy.max_players:
            return
        for key in [k for k, r in self._records.items() if now - r.last > self.policy.forget_after]:
            del self._records[key]
        excess = len(self._records) - self.policy.max_players + 1
        if excess > 0:
            for key in sorted(self._records, key=lambda k: self._records[k].last)[:excess]:
                del self._records[key]


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    throttled: bool = False  # refused without checking: too many wrong passwords
    retry_after: float = 0.0  # seconds until the next attempt will be checked


class PasswordChecker:
    """Checks passwords through a throttle.  An unknown player (no stored
    hash) costs the same time as a known one, so timing does not tell which
    player names exist."""

    def __init__(
        self, throttle: PasswordThrottle | None = None, hasher: PasswordHasher | None = None
    ) -> None:
        self.throttle = throttle or PasswordThrottle()
        self._hasher = hasher or DEFAULT_HASHER
        self._dummy: str | None = None

    def check(self, player: str, stored_hash: str | None, password: str) -> Verdict:
        wait = self.throttle.retry_after(player)
        if wait > 0:
            return Verdict(ok=False, throttled=True, retry_after=wait)
        if stored_hash:
            ok = hash_matches(stored_hash, password, hasher=self._hasher)
        else:
            hash_matches(self._dummy_hash(), password, hasher=self._hasher)
            ok = False
        if ok:
            self.throttle.succeeded(player)
            return Verdict(ok=True)
        return Verdict(ok=False, retry_after=self.throttle.failed(player))

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self._hasher.hash("no such player")
        return self._dummy


_CHECKER = PasswordChecker()


def verify_password(player: str, stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` is the player's, through this process's throttle.

    ``player`` keys the throttle; pass a campaign-qualified key when player ids
    repeat across campaigns.  A throttled attempt returns False unchecked; ask
    :func:`retry_after` to tell the player how long to wait."""
    return _CHECKER.check(player, stored_hash, password).ok


def retry_after(player: str) -> float:
    return _CHECKER.throttle.retry_after(player)


class RecentLogins:
    """Successful checks remembered for a minute, in this process's memory only.

    Every order request carries the password, and an argon2 check costs about
    30 ms of CPU; remembering a recent success (keyed by a keyed digest of the
    password and by the stored hash, so a password change forgets it) lets a
    player send many requests without paying for each.  Failures are never
    remembered: they always go through the throttle."""

    def __init__(
        self, ttl: float = 60.0, limit: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl = ttl
        self.limit = limit
        self.clock = clock
        self._secret = secrets.token_bytes(32)
        self._seen: dict[tuple[str, str, bytes], float] = {}
        self._lock = threading.Lock()

    def _key(self, who: str, stored_hash: str, password: str) -> tuple[str, str, bytes]:
        return (who, stored_hash, hmac.new(self._secret, password.encode(), "sha256").digest())

    def known(self, who: str, stored_hash: str, password: str) -> bool:
        key = self._key(who, stored_hash, password)
        with self._lock:
            expiry = self._seen.get(key)
            return expiry is not None and expiry > self.clock()

    def remember(self, who: str, stored_hash: str, password: str) -> None:
        key = self._key(who, stored_hash, password)
        with self._lock:
            if len(self._seen) >= self.limit:
                now = self.clock()
                self._seen = {k: v for k, v in self._seen.items() if v > now}
                if len(self._seen) >= self.limit:
                    self._seen.clear()
            self._seen[key] = self.clock() + self.ttl


_RECENT = RecentLogins()


def login(conn: Any, campaign: str, player: str, password: str) -> Any:
    """The player's row when the password is right.

    Unknown players are checked against a dummy hash too, so the time taken
    does not tell which names exist; throttling is keyed per campaign and
    player.  Raises DeskError (UNAUTHENTICATED or RESOURCE_EXHAUSTED)."""
    from services.common import repository as repo
    from services.common.errors import Code, DeskError
    from services.common.metrics import LOGINS_FAILED

    if not player or not password:
        LOGINS_FAILED.labels(reason="missing").inc()
        raise DeskError(Code.UNAUTHENTICATED, "give x-pate-player and x-pate-password")
    key = f"{campaign}/{player}"
    wait = retry_after(key)
    if wait > 0:
        LOGINS_FAILED.labels(reason="throttled").inc()
        raise DeskError(
            Code.RESOURCE_EXHAUSTED, f"too many wrong passwords: try again in {math.ceil(wait)} s"
        )
    row = repo.get_player(conn, campaign, player)
    stored = row.password_hash if row is not None else None
    if stored and _RECENT.known(key, stored, password):
        return row
    if not verify_password(key, stored, password) or row is None or stored is None:
        LOGINS_FAILED.labels(reason="wrong").inc()
        raise DeskError(Code.UNAUTHENTICATED, "unknown player or wrong password")
    _RECENT.remember(key, stored, password)
    return row
