"""``python -m examples.gitm_land serve|start|stop|restart`` (README.md here)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

_STOP_WAIT_SECONDS = 15.0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m examples.gitm_land")
    p.add_argument("command", choices=("serve", "start", "stop", "restart"))
    p.add_argument("--addr", default=os.environ.get("GITM_LAND_ADDR", "127.0.0.1:50061"))
    p.add_argument("--db", type=Path, default=Path(os.environ.get("GITM_LAND_DB", "var/gitm-land.db")))
    p.add_argument(
        "--map",
        type=Path,
        action="append",
        dest="maps",
        help="a PATE map file whose on_gitm_map ports are the cities (repeatable)",
    )
    p.add_argument("--tls-cert", type=Path)
    p.add_argument("--tls-key", type=Path)
    p.add_argument("--tls-client-ca", type=Path, help="require client certificates from this CA")
    p.add_argument("--pidfile", type=Path, default=Path("var/gitm-land.pid"))
    p.add_argument("--log", type=Path, default=Path("var/gitm-land.log"))
    return p


def _serve_args(a: argparse.Namespace) -> list[str]:
    args = ["--addr", a.addr, "--db", str(a.db)]
    for m in a.maps or []:
        args += ["--map", str(m)]
    for flag, value in (
        ("--tls-cert", a.tls_cert),
        ("--tls-key", a.tls_key),
        ("--tls-client-ca", a.tls_client_ca),
    ):
        if value is not None:
            args += [flag, str(value)]
    return args


def _stop(pidfile: Path) -> None:
    """End the server of the pid file, and wait until it has gone (its answers are stored)."""
    if not pidfile.exists():
        return
    pid = int(pidfile.read_text().strip())
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pidfile.unlink()
        return
    deadline = time.monotonic() + _STOP_WAIT_SECONDS
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    pidfile.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    """Still running: an ended server nobody has reaped yet (a zombie) counts as gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _start(a: argparse.Namespace) -> None:
    """Start a detached server; the token passes in the environment, never on a command line."""
    a.log.parent.mkdir(parents=True, exist_ok=True)
    a.pidfile.parent.mkdir(parents=True, exist_ok=True)
    with a.log.open("ab") as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "examples.gitm_land", "serve", *_serve_args(a)],
            stdout=out,
            stderr=out,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    a.pidfile.write_text(f"{child.pid}\n")


def main(argv: list[str] | None = None) -> None:
    a = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if a.command == "serve":
        # imported here: start, stop and restart need no gRPC and return sooner
        from examples.gitm_land.cities import DEFAULT_MAP
        from examples.gitm_land.server import Settings, serve

        serve(
            Settings(
                addr=a.addr,
                db=a.db,
                maps=a.maps or [DEFAULT_MAP],
                token=os.environ.get("PATE_GITM_TOKEN", ""),
                tls_cert=a.tls_cert,
                tls_key=a.tls_key,
                tls_client_ca=a.tls_client_ca,
            )
        )
        return
    if a.command in ("stop", "restart"):
        _stop(a.pidfile)
    if a.command in ("start", "restart"):
        _start(a)


if __name__ == "__main__":
    main()
