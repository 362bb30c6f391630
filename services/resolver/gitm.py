"""Client of the GITM land service (``gitm.v1.LandBridge``, proto/gitm/v1/land.proto).

PATE is the client.  Calls are synchronous (the bridge runs in a consumer's
worker thread), carry the W3C ``traceparent`` metadata, and have a
deadline.  Transfer ids are deterministic, so GITM treats a repeated call as
the same transfer: retrying after a timeout is harmless.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gitm.v1 import land_pb2, land_pb2_grpc
from services.platform.runtime.grpcutil import trace_metadata
from services.platform.security import tls

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
    state: str = ""  # the transport group's state, so GITM can refuse others' units


@dataclass(frozen=True, slots=True)
class Complete:
    """CompleteTransfer: the final amphibious phase of rule 3.9 (cancelled when lost)."""

    transfer_id: str
    cancelled: bool


@dataclass(frozen=True, slots=True)
class CargoLoss:
    """ReportCargoLoss: a transport sank, foundered (lost) or was taken
    (captured) with cargo aboard, from the core's ``cargo_lost`` /
    ``cargo_captured`` events."""

    loss_id: str
    campaign: str
    turn: int
    transport: str
    captured: bool
    units: tuple[str, ...]
    supplies: int
    captor: str = ""


@dataclass(frozen=True, slots=True)
class CargoMoves:
    """ReportCargoMoves: cargo that changed transport group in a turn (rule
    2.5: a divide or a combine), from the core's ``group_divided`` /
    ``groups_combined`` events.  ``moves``: (from, to, units, supplies)."""

    move_id: str
    campaign: str
    turn: int
    moves: tuple[tuple[str, str, tuple[str, ...], int], ...]


@dataclass(frozen=True, slots=True)
class Sightings:
    """ReportSightings: rule 5.3's shore reports of one turn, one call per turn.
    ``reports``: (port, for_state, ((ship, state, type), ...))."""

    report_id: str
    campaign: str
    turn: int
    reports: tuple[tuple[str, str, tuple[tuple[str, str, str], ...]], ...] = field(default=())


class GitmClient:
    def __init__(self, addr: str, *, timeout: float = 5.0, stub: Any = None) -> None:
        """``stub``: anything with LandBridgeStub's methods (the tests drive an
        in-process land store through it); default a channel to ``addr``."""
        self.addr = addr
        self.timeout = timeout
        # TLS when PATE_TLS_CA is set
        self._channel = None if stub is not None else tls.channel(addr)
        self._stub = stub if stub is not None else land_pb2_grpc.LandBridgeStub(self._channel)

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
            state=call.state,
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

    def get(self, transfer_id: str) -> land_pb2.TransferStatus:
        status: land_pb2.TransferStatus = self._stub.GetTransfer(
            land_pb2.GetTransferRequest(transfer_id=transfer_id),
            timeout=self.timeout,
            metadata=trace_metadata(),
        )
        return status

    def report_cargo_loss(self, call: CargoLoss) -> land_pb2.ReportCargoLossResponse:
        fate = land_pb2.CARGO_FATE_CAPTURED if call.captured else land_pb2.CARGO_FATE_LOST
        request = land_pb2.ReportCargoLossRequest(
            loss_id=call.loss_id,
            campaign_id=call.campaign,
            turn=call.turn,
            transport_id=call.transport,
            fate=fate,
            units=list(call.units),
            supplies=call.supplies,
            captor=call.captor,
        )
        answer: land_pb2.ReportCargoLossResponse = self._stub.ReportCargoLoss(
            request, timeout=self.timeout, metadata=trace_metadata()
        )
        return answer

    def report_cargo_moves(self, call: CargoMoves) -> land_pb2.ReportCargoMovesResponse:
        request = land_pb2.ReportCargoMovesRequest(
            move_id=call.move_id,
            campaign_id=call.campaign,
            turn=call.turn,
            moves=[
                land_pb2.CargoMove(from_transport=a, to_transport=b, units=list(u), supplies=n)
                for a, b, u, n in call.moves
            ],
        )
        answer: land_pb2.ReportCargoMovesResponse = self._stub.ReportCargoMoves(
            request, timeout=self.timeout, metadata=trace_metadata()
        )
        return answer

    def report_sightings(self, call: Sightings) -> land_pb2.ReportSightingsResponse:
        request = land_pb2.ReportSightingsRequest(
            report_id=call.report_id,
            campaign_id=call.campaign,
            turn=call.turn,
            sightings=[
                land_pb2.ShoreSighting(
                    port=port,
                    for_state=state,
                    ships=[land_pb2.SightedShip(id=i, state=s, type=k) for i, s, k in ships],
                )
                for port, state, ships in call.reports
            ],
        )
        answer: land_pb2.ReportSightingsResponse = self._stub.ReportSightings(
            request, timeout=self.timeout, metadata=trace_metadata()
        )
        return answer

    def units_near(self, campaign: str, turn: int, port: str) -> Sequence[land_pb2.Unit]:
        request = land_pb2.UnitsNearRequest(campaign_id=campaign, turn=turn, port=port)
        return list(self._stub.UnitsNear(request, timeout=self.timeout, metadata=trace_metadata()).units)

    def close(self) -> None:
        if self._channel is not None:
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
