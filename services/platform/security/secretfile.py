"""A secret kept in a file and read again whenever the file changes.

A Kubernetes Secret mounted as a volume is replaced in place when the Secret is
updated (the kubelet swaps a symlink, within about a minute), so a process that
reads the file again on change takes a rotated secret without a restart.  The
file is looked at (one ``stat``) each time the secret is used; it is read only
when its inode, size or modification time moved.  A file that cannot be read
any more keeps the last value read (a swap in progress, a volume briefly gone)
and logs it once; one that was never readable is a configuration error at start.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from services.platform.config import ConfigError
from services.platform.telemetry.logging import get_logger

log = get_logger(__name__)


class SecretFile:
    """The stripped text of ``path``, at most ``max_chars`` characters, never empty."""

    def __init__(self, path: Path, setting: str, *, max_chars: int = 1024) -> None:
        self.path = path
        self.setting = setting  # the environment variable that named the file, for messages
        self.max_chars = max_chars
        self._lock = threading.Lock()
        self._seen: tuple[int, int, int] | None = None
        self._value = ""
        self._failing = False
        try:
            self._value = self._read(self._identity())
        except OSError as err:
            raise ConfigError(f"{setting}={str(path)!r}: cannot read it ({err.strerror})") from None
        except ValueError as err:
            raise ConfigError(f"{setting}={str(path)!r}: {err}") from None

    def value(self) -> str:
        with self._lock:
            try:
                identity = self._identity()
                if identity != self._seen:
                    self._value = self._read(identity)
                    log.info("secret_file.reloaded", setting=self.setting)
                self._failing = False
            except (OSError, ValueError) as err:
                if not self._failing:  # once per outage, never the secret itself
                    log.warning("secret_file.unreadable", setting=self.setting, error=type(err).__name__)
                self._failing = True
            return self._value

    def _identity(self) -> tuple[int, int, int]:
        st = os.stat(self.path)
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _read(self, identity: tuple[int, int, int]) -> str:
        text = self.path.read_text(encoding="utf-8", errors="strict").strip()
        if not text:
            raise ValueError("the file is empty")
        if len(text) > self.max_chars or "\n" in text:
            raise ValueError(f"one line of at most {self.max_chars} characters is expected")
        self._seen = identity
        return text
