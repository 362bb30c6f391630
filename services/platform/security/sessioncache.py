"""Sessions seen a moment ago, kept in the process so that a player's next
calls cost no database read (order intake's hot path).

An entry is trusted for ``SESSION_CACHE_SECONDS`` after the database said
the session is live, and never past the session's own expiry.  Revoking a
session (Logout, RevokeSessions, a new password) drops its entries in the
process that did it at once; another replica may accept the revoked token
for at most ``SESSION_CACHE_SECONDS`` more (docs/security.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from services.platform.security.sessions import Session, token_digest

SESSION_CACHE_SECONDS = 2.0
MAX_ENTRIES = 50_000  # live players of one process; beyond it the oldest entries go


@dataclass(frozen=True, slots=True)
class _Entry:
    trusted_until: float  # time.monotonic()
    session: Session
    row: Any  # the player's row as read with the session


class SessionCache:
    def __init__(
        self,
        clock: Callable[[], datetime],
        seconds: float = SESSION_CACHE_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock
        self.seconds = seconds
        self.monotonic = monotonic
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def remember(self, token: str, session: Session, row: Any) -> None:
        entry = _Entry(self.monotonic() + self.seconds, session, row)
        digest = token_digest(token)
        with self._lock:
            self._entries.pop(digest, None)  # re-inserted last: the dict stays in age order
            self._entries[digest] = entry
            while len(self._entries) > MAX_ENTRIES:
                del self._entries[next(iter(self._entries))]

    def get(self, token: str) -> tuple[Session, Any] | None:
        """The session and player row of ``token`` while still trusted, else None."""
        digest = token_digest(token)
        entry = self._entries.get(digest)
        if entry is None:
            return None
        if entry.trusted_until <= self.monotonic() or entry.session.expires_at <= self.clock():
            with self._lock:
                if self._entries.get(digest) is entry:
                    del self._entries[digest]
            return None
        return entry.session, entry.row

    def forget_token(self, token: str) -> None:
        with self._lock:
            self._entries.pop(token_digest(token), None)

    def forget_player(self, campaign: str, player: str) -> None:
        with self._lock:
            for digest in [
                d
                for d, e in self._entries.items()
                if e.session.campaign == campaign and e.session.player == player
            ]:
                del self._entries[digest]
