"""Client of the GITM land service (``gitm.v1.LandBridge``, proto/gitm/v1/land.proto).

PATE is the client.  Calls are synchronous (the bridge runs in a consumer's
worker thread), carry the trace id as ``x-trace-id`` metadata, and have a
deadline.  Transfer ids are deterministic, so GITM treats a repeated call as
the same transfer: retrying after a timeout is harmless.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from gitm.v1 import land_pb2, land_pb2_grpc
from services.common import tls
from services.common.grpcutil import trace_metadata

DIRECTIONS = {"load": land_pb2.DIRECTION_LOAD, "unload": land_pb2.DIRECTION_UNLOAD}


@dataclass(frozen=True, slots=True)
class Begin:
    """BeginTransfer: the initial amphibious phase of rule 3.6."""

    transfer_id: str
    campaign: str
    turn: int
    port: str
    transport: str
    direction: str  # "load" | "unload"
    units: tuple[str, ...]
    supplies: int


@dataclass(frozen=True, slots=True)
class Complete:
    """CompleteTransfer: the final amphibious phase of rule 3.9 (cancelled when lost)."""

    transfer_id: str
    cancelled: bool


class GitmClient:
    def __init__(self, addr: str, *, timeout: float = 5.0) -> None:
        self.addr = addr
        self.timeout = timeout
        self._channel = tls.channel(addr)  # TLS when PATE_TLS_CA is set
        self._stub = land_pb2_grpc.LandBridgeStub(self._channel)

    def begin(self, call: Begin) -> land_pb2.TransferStatus:
        request = land_pb2.BeginTransferRequest(
            transfer_id=call.transfer_id,
            campaign_id=call.campaign,
            turn=call.turn,
            port=call.port,
            transport_id=call.transport,
            direction=DIRECTIONS[call.direction],
            units=list(call.units),
            supplies=call.supplies,
        )
        status: land_pb2.TransferStatus = self._stub.BeginTransfer(
            request, timeout=self.timeout, metadata=trace_metadata()
        )
        return status

    def complete(self, call: Complete) -> land_pb2.TransferStatus:
        request = land_pb2.CompleteTransferRequest(transfer_id=call.transfer_id, cancelled=call.cancelled)
        status: land_pb2.TransferStatus = self._stub.CompleteTransfer(
            request, timeout=self.timeout, metadata=trace_metadata()
        )
        return status

    def units_near(self, campaign: str, turn: int, port: str) -> Sequence[land_pb2.Unit]:
        request = land_pb2.UnitsNearRequest(campaign_id=campaign, turn=turn, port=port)
        return list(self._stub.UnitsNear(request, timeout=self.timeout, metadata=trace_metadata()).units)

    def close(self) -> None:
        self._channel.close()


_CLIENTS: dict[str, GitmClient] = {}
_LOCK = threading.Lock()


def client_for(addr: str) -> GitmClient:
    """One channel per address per process (gRPC channels are thread-safe)."""
    with _LOCK:
        client = _CLIENTS.get(addr)
        if client is None:
            client = _CLIENTS[addr] = GitmClient(addr)
        return client


def close_clients() -> None:
    with _LOCK:
        for client in _CLIENTS.values():
            client.close()
        _CLIENTS.clear()
