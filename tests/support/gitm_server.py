"""A real, in-process ``gitm.v1.LandBridge`` server for the bridge's tests.

It records every call, keeps one transfer per transfer id (a repeated call
changes nothing and gets the first answer, as GITM promises), and can be told
to answer UNAVAILABLE for the next calls or to refuse given transfers.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import grpc

from gitm.v1 import land_pb2, land_pb2_grpc
from pate.core.world.state import LandUnit


@dataclass
class Transfer:
    begin: land_pb2.BeginTransferRequest
    completed: bool = False
    cancelled: bool = False


@dataclass
class LandService(land_pb2_grpc.LandBridgeServicer):
    calls: list[tuple[str, str]] = field(default_factory=list)  # (method, transfer id)
    transfers: dict[str, Transfer] = field(default_factory=dict)
    refuse: set[str] = field(default_factory=set)  # transfer ids answered accepted=false
    outages: int = 0  # answer UNAVAILABLE to this many next calls
    units: dict[str, list[land_pb2.Unit]] = field(default_factory=dict)  # by port
    metadata: list[dict[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def station(self, port: str, city: Iterable[LandUnit], near: Iterable[LandUnit] = ()) -> None:
        """GITM's units in ``port``: ``city`` in its tactical square, ``near``
        elsewhere in its strategic square (5.3), reported with their sizes."""
        self.units[port] = [_unit(u, True) for u in city] + [_unit(u, False) for u in near]

    def _enter(self, method: str, tid: str, context: Any) -> None:
        with self.lock:
            self.calls.append((method, tid))
            self.metadata.append({k: v for k, v in context.invocation_metadata()})
            if self.outages > 0:
                self.outages -= 1
                context.abort(grpc.StatusCode.UNAVAILABLE, "GITM is down for maintenance")

    def BeginTransfer(self, request: land_pb2.BeginTransferRequest, context: Any) -> land_pb2.TransferStatus:  # noqa: N802
        self._enter("BeginTransfer", request.transfer_id, context)
        with self.lock:
            t = self.transfers.setdefault(request.transfer_id, Transfer(request))
            return self._status(t)

    def CompleteTransfer(  # noqa: N802
        self, request: land_pb2.CompleteTransferRequest, context: Any
    ) -> land_pb2.TransferStatus:
        self._enter("CompleteTransfer", request.transfer_id, context)
        with self.lock:
            t = self.transfers.get(request.transfer_id)
            if t is None:
                context.abort(grpc.StatusCode.NOT_FOUND, f"no transfer {request.transfer_id}")
            assert t is not None
            if not t.completed:
                t.completed, t.cancelled = True, request.cancelled
            return self._status(t)

    def UnitsNear(self, request: land_pb2.UnitsNearRequest, context: Any) -> land_pb2.UnitsNearResponse:  # noqa: N802
        self._enter("UnitsNear", request.port, context)
        return land_pb2.UnitsNearResponse(units=self.units.get(request.port, []))

    def _status(self, t: Transfer) -> land_pb2.TransferStatus:
        tid = t.begin.transfer_id
        if tid in self.refuse:
            return land_pb2.TransferStatus(transfer_id=tid, accepted=False, reason="units not in the city")
        return land_pb2.TransferStatus(
            transfer_id=tid, accepted=True, units=t.begin.units, supplies=t.begin.supplies
        )


def _unit(u: LandUnit, tactical_square: bool) -> land_pb2.Unit:
    return land_pb2.Unit(
        id=u.id,
        state=u.state,
        tactical_square=tactical_square,
        infantry=u.infantry,
        cavalry=u.cavalry,
        artillery=u.artillery,
        batteries=u.batteries,
        headquarters=u.headquarters.value,
        supplies=u.supplies,
    )


@contextmanager
def gitm_server() -> Iterator[tuple[str, LandService]]:
    """Start a server on a free local port; yields its address and servicer."""
    service = LandService()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    land_pb2_grpc.add_LandBridgeServicer_to_server(service, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}", service
    finally:
        server.stop(grace=None)
