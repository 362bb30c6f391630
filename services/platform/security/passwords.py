"""Players' passwords (rule 2.3): argon2id hashes.

Passwords are stored only as argon2id hashes (OWASP's minimum profile, see
``DEFAULT_HASHER``).  Checks go through the shared login throttle
(services/platform/security/throttle.py) and are made once per session
(services/platform/security/auth.py), not on every call.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MAX_PASSWORD_LENGTH = 1024  # characters; longer input is refused unhashed

# argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): a
# few tens of milliseconds a check, paid once per login (sessions carry the
# calls after that).
DEFAULT_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


# Stored for a seat no one logs in to (a solo campaign's bot seats): no argon2 hash has this
# form, so hash_matches refuses every password, and making it costs nothing.
NO_LOGIN = "!no-login"


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


class RecentLogins:
    """Successful checks remembered for a minute, in this process's memory only.

    Older clients send the password with every call instead of a session
    token, and an argon2 check costs about 30 ms of CPU; remembering a
    recent success (keyed by a keyed digest of the password and by the
    stored hash, so a password change forgets it) lets a player send many
    requests without paying for each.  Failures are never remembered: they
    always go through the throttle."""

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
