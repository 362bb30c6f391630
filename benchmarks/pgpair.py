"""A PostgreSQL primary and its streaming replica on two local ports, for the failover run.

The pair is made the way CloudNativePG makes one (docs/operations.md, "Database failover"): the
replica is a ``pg_basebackup`` of the primary, streams its WAL, and is named in the primary's
``synchronous_standby_names``, so a commit returns only once the replica has it (RPO 0).  The
replica runs with an empty ``synchronous_standby_names`` so that, once promoted, it commits
without waiting for a standby it no longer has.  ``kill_primary`` kills the primary's postmaster
and every backend together (SIGKILL), as the loss of its pod or node does: no backend survives to
take a write that the promoted replica would never see.

Both servers run as the ``postgres`` user when this runs as root (PostgreSQL refuses to run as
root); their folders are made under the system's temporary folder, where that user can reach
them.  ``fsync`` is off: the run kills processes, not the machine, so what a killed server wrote
is still in the kernel's page cache, and the run is about replication, not about disks.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from services.platform.bus.natsserver import free_port

_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
STANDBY_NAME = "replica1"


def find_bin(name: str) -> Path | None:
    """A PostgreSQL server program (initdb, pg_ctl, ...), newest version first."""
    for folder in _BIN_DIRS:
        if (folder / name).exists():
            return folder / name
    found = shutil.which(name)
    return Path(found) if found else None


def available() -> bool:
    return all(find_bin(n) for n in ("initdb", "pg_ctl", "pg_basebackup", "postgres"))


def _as_postgres(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


def _run(argv: list[str]) -> None:
    done = subprocess.run(_as_postgres(argv), capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{Path(argv[0]).name} failed: {(done.stderr or done.stdout).strip()[-400:]}")


@dataclass
class PgNode:
    data: Path
    port: int
    options: list[str] = field(default_factory=list)

    @property
    def log(self) -> Path:
        return self.data.parent / f"{self.data.name}.log"

    def start(self) -> None:
        opts = " ".join(
            [
                f"-p {self.port}",
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={self.data}",
                "-c fsync=off",
                "-c max_connections=200",
                *self.options,
            ]
        )
        _run([str(find_bin("pg_ctl")), "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "start"])

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def kill(self) -> None:
        """SIGKILL the postmaster and every process it started, at once."""
        pm = self.postmaster_pid()
        if pm is None:
            return
        victims = [pm, *_children(pm)]
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(p) for p in victims):
            time.sleep(0.05)

    def promote(self) -> None:
        _run([str(find_bin("pg_ctl")), "-D", str(self.data), "-w", "promote"])

    def stop(self) -> None:
        if self.postmaster_pid() is not None and _alive(self.postmaster_pid() or 0):
            subprocess.run(
                _as_postgres([str(find_bin("pg_ctl")), "-D", str(self.data), "-m", "immediate", "stop"]),
                capture_output=True,
                timeout=60,
                check=False,
            )


def _children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


class PgPair:
    """``with PgPair() as pair:`` a primary and a synchronous streaming replica, both running."""

    def __init__(self, synchronous: bool = True) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="pate-pgpair-"))
        self.synchronous = synchronous
        sync = f"-c synchronous_standby_names={STANDBY_NAME}" if synchronous else ""
        self.primary = PgNode(self.root / "primary", free_port(), [sync] if sync else [])
        self.replica = PgNode(self.root / "replica", free_port(), ["-c synchronous_standby_names=''"])

    def url(self, database: str) -> str:
        """Both hosts, primary first; libpq takes the one that accepts writes."""
        hosts = "&".join(f"host=127.0.0.1:{n.port}" for n in (self.primary, self.replica))
        return f"postgresql+psycopg://postgres@/{database}?{hosts}&target_session_attrs=read-write"

    def server_url(self, node: PgNode, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{node.port}/{database}"

    def __enter__(self) -> PgPair:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        try:
            _run([str(find_bin("initdb")), "-D", str(self.primary.data), "-A", "trust", "-U", "postgres"])
            self.primary.start()
            self._clone_replica()
            self.replica.start()
            self.wait_streaming()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _clone_replica(self) -> None:
        _run(
            [
                str(find_bin("pg_basebackup")),
                *("-h", "127.0.0.1", "-p", str(self.primary.port), "-U", "postgres"),
                *("-D", str(self.replica.data), "-R", "-X", "stream"),
            ]
        )
        conninfo = f"host=127.0.0.1 port={self.primary.port} user=postgres application_name={STANDBY_NAME}"
        with (self.replica.data / "postgresql.auto.conf").open("a") as conf:
            conf.write(f"primary_conninfo = '{conninfo}'\n")

    def wait_streaming(self, timeout: float = 30.0) -> None:
        """Until the primary sees its replica streaming (and, synchronous, as its sync standby)."""
        from sqlalchemy import create_engine, text

        want = "sync" if self.synchronous else "async"
        engine = create_engine(self.server_url(self.primary), isolation_level="AUTOCOMMIT")
        try:
            deadline = time.monotonic() + timeout
            while True:
                with engine.connect() as conn:
                    states = conn.execute(text("SELECT sync_state FROM pg_stat_replication")).scalars().all()
                if want in states:
                    return
                if time.monotonic() > deadline:
                    raise TimeoutError(f"replica not streaming ({states})")
                time.sleep(0.1)
        finally:
            engine.dispose()

    def __exit__(self, *exc: object) -> None:
        for node in (self.replica, self.primary):
            node.stop()
        shutil.rmtree(self.root, ignore_errors=True)
