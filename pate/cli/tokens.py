"""The command line's token file: the session tokens of ``pate login``.

One JSON file, readable by its owner only (0600, in a 0700 folder), at
``$PATE_TOKEN_FILE``, else ``$XDG_STATE_HOME/pate/sessions.json``, else
``~/.local/state/pate/sessions.json``.  It holds one token per campaign and
player; passwords are never written anywhere.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from pate.cli.main import UserError


@dataclass(frozen=True, slots=True)
class StoredSession:
    campaign: str
    player: str
    token: str
    expires_at: str  # ISO 8601, UTC
    server: str = ""

    def expired(self, now: datetime | None = None) -> bool:
        try:
            expires = datetime.fromisoformat(self.expires_at)
        except ValueError:
            return True
        return expires <= (now or datetime.now(UTC))


def token_file() -> Path:
    explicit = os.environ.get("PATE_TOKEN_FILE", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    state = os.environ.get("XDG_STATE_HOME", "").strip()
    base = Path(state).expanduser() if state else Path.home() / ".local" / "state"
    return base / "pate" / "sessions.json"


def load(path: Path | None = None) -> list[StoredSession]:
    path = path or token_file()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as err:
        raise UserError(f"token file {path}: cannot read it ({err.__class__.__name__}); delete it") from None
    out = []
    for item in raw.get("sessions", []) if isinstance(raw, dict) else []:
        try:
            out.append(
                StoredSession(
                    **{k: str(item[k]) for k in ("campaign", "player", "token", "expires_at")},
                    server=str(item.get("server", "")),
                )
            )
        except (KeyError, TypeError):
            continue
    return out


def save(sessions: list[StoredSession], path: Path | None = None) -> Path:
    """Write the file atomically, owner-only."""
    path = path or token_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    body = json.dumps({"sessions": [asdict(s) for s in sessions]}, indent=1, sort_keys=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".sessions-", suffix=".tmp")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(body)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    os.chmod(path, 0o600)
    return path


def remember(session: StoredSession, path: Path | None = None) -> Path:
    kept = [
        s
        for s in load(path)
        if (s.campaign, s.player) != (session.campaign, session.player) and not s.expired()
    ]
    return save([*kept, session], path)


def forget(campaign: str, player: str | None, path: Path | None = None) -> list[StoredSession]:
    """Drop the campaign's session(s) (one player's, or all); the ones dropped."""
    sessions = load(path)
    gone = [s for s in sessions if s.campaign == campaign and (player is None or s.player == player)]
    save([s for s in sessions if s not in gone], path)
    return gone


def find(campaign: str, player: str | None, path: Path | None = None) -> StoredSession:
    """The stored session for the campaign (and player, when several are logged in)."""
    live = [
        s
        for s in load(path)
        if s.campaign == campaign and (player is None or s.player == player) and not s.expired()
    ]
    who = f" --player {player}" if player else " --player YOU"
    if not live:
        raise UserError(f"not logged in to campaign {campaign!r}: run pate login --campaign {campaign}{who}")
    if len(live) > 1:
        names = ", ".join(sorted(s.player for s in live))
        raise UserError(f"several players are logged in to {campaign!r} ({names}): give --player")
    return live[0]
