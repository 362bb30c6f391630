"""The reference GITM land service (services/gitm_reference) for the tests:
started in this process on a free port with its own SQLite file, or as a
separate process (``pate serve gitm-reference``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from gitm.v1 import reference_admin_pb2, reference_admin_pb2_grpc
from pate.core.world.state import LandUnit
from services.gitm_reference.main import Running, start
from services.gitm_reference.seed import unit_pb
from services.gitm_reference.servicer import Access
from services.platform.bus.natsserver import free_port

ADMIN_TOKEN = "test-gitm-admin-token"
LAND_TOKEN = "test-gitm-caller-token"  # PATE's caller token (x-pate-gitm-token)
ACCESS = Access(LAND_TOKEN, ADMIN_TOKEN)


class _CallerToken(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """Adds PATE's caller token to every call, as the bridge does."""

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        md = [*(details.metadata or ()), ("x-pate-gitm-token", LAND_TOKEN)]
        return continuation(details._replace(metadata=md), request)


@contextmanager
def land_channel(addr: str) -> Iterator[grpc.Channel]:
    """A channel to the reference service whose calls carry PATE's caller token."""
    with grpc.insecure_channel(addr) as channel:
        yield grpc.intercept_channel(channel, _CallerToken())


class _AdminStub:
    """ReferenceAdminStub whose every call carries the administrator token."""

    def __init__(self, channel: grpc.Channel) -> None:
        self._stub = reference_admin_pb2_grpc.ReferenceAdminStub(channel)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._stub, name)
        return lambda request, **kw: method(request, metadata=[("x-pate-admin-token", ADMIN_TOKEN)], **kw)


@dataclass
class Reference:
    addr: str
    admin: Any  # ReferenceAdminStub's methods, with the administrator token
    running: Running | None = None
    token: str = LAND_TOKEN
    # a real restart of the process (reference_process); the callable given runs while it is down
    restart: Callable[..., None] | None = None

    def reopen(self) -> None:
        """What a restart leaves, without one: the service's store reopened, its memory dropped."""
        self.admin.Reopen(reference_admin_pb2.ReopenRequest(), timeout=10)

    def station(
        self,
        campaign: str,
        port: str,
        city: Iterable[LandUnit],
        near: Iterable[LandUnit] = (),
        supplies: int = 0,
    ) -> None:
        units = [
            reference_admin_pb2.StationedUnit(campaign_id=campaign, unit=unit_pb(u, tactical), city=port)
            for us, tactical in ((city, True), (near, False))
            for u in us
        ]
        stocks = [reference_admin_pb2.SupplyStock(campaign_id=campaign, city=port, supplies=supplies)]
        self.admin.Station(reference_admin_pb2.StationRequest(units=units, supplies=stocks), timeout=10)

    def aboard(self, campaign: str, transport: str, units: Iterable[LandUnit], supplies: int = 0) -> None:
        req = reference_admin_pb2.StationRequest(
            units=[
                reference_admin_pb2.StationedUnit(
                    campaign_id=campaign, unit=unit_pb(u, False), transport_id=transport
                )
                for u in units
            ],
            supplies=[
                reference_admin_pb2.SupplyStock(
                    campaign_id=campaign, transport_id=transport, supplies=supplies
                )
            ],
        )
        self.admin.Station(req, timeout=10)

    def snapshot(self, campaign: str) -> reference_admin_pb2.SnapshotResponse:
        snap: reference_admin_pb2.SnapshotResponse = self.admin.Snapshot(
            reference_admin_pb2.SnapshotRequest(campaign_id=campaign), timeout=10
        )
        return snap

    def faults(self, **kw: Any) -> None:
        self.admin.SetFaults(reference_admin_pb2.Faults(**kw), timeout=10)

    def places(self, campaign: str) -> dict[str, str]:
        """unit -> "city:<port>", "aboard:<transport>", "lost" or "captured:<captor>"."""
        out = {}
        for u in self.snapshot(campaign).units:
            if u.fate:
                out[u.id] = u.fate + (f":{u.captor}" if u.captor else "")
            elif u.transport_id:
                out[u.id] = f"aboard:{u.transport_id}"
            else:
                out[u.id] = f"city:{u.city}"
        return out


@contextmanager
def reference_gitm(tmp_path: Path, scenario: str = "none") -> Iterator[Reference]:
    """The reference service in this process on a free port."""
    db = f"sqlite:///{tmp_path / 'gitm-reference.db'}"
    running = start("127.0.0.1:0", db, scenario=scenario, access=ACCESS)
    addr = f"127.0.0.1:{running.port}"
    channel = grpc.insecure_channel(addr)
    try:
        yield Reference(addr, _AdminStub(channel), running)
    finally:
        channel.close()
        running.stop(grace=0)


@contextmanager
def reference_process(tmp_path: Path, scenario: str = "none", faults: str = "") -> Iterator[Reference]:
    """``pate serve gitm-reference`` as its own process on a free port; ``Reference.restart``
    stops it (SIGTERM) and starts it again on the same address and database."""
    addr = f"127.0.0.1:{free_port()}"
    env = {
        **os.environ,
        "PATE_GITM_ADDR": addr,
        "PATE_GITM_DATABASE_URL": f"sqlite:///{tmp_path / 'gitm-reference.db'}",
        "PATE_GITM_SCENARIO": scenario,
        "PATE_GITM_FAULTS": faults,
        "PATE_GITM_TOKEN": LAND_TOKEN,
        "PATE_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    log = (tmp_path / "gitm-reference.log").open("ab")
    procs: list[subprocess.Popen[bytes]] = []

    def spawn() -> None:
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "services.gitm_reference.main"],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        with grpc.insecure_channel(addr) as ready:
            grpc.channel_ready_future(ready).result(timeout=60)

    def stop() -> None:
        proc = procs[-1]
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def restart(while_down: Callable[[], None] | None = None) -> None:
        stop()
        if while_down is not None:  # e.g. its store restored from a backup
            while_down()
        spawn()

    spawn()
    channel = grpc.insecure_channel(addr)
    try:
        yield Reference(addr, _AdminStub(channel), restart=restart)
    finally:
        channel.close()
        stop()
        log.close()
