"""The reference service's gRPC face: gitm.v1.LandBridge (the contract) and
gitm.v1.ReferenceAdmin (its own administration), over :class:`LandStore`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import grpc

from gitm.v1 import land_pb2, land_pb2_grpc, reference_admin_pb2, reference_admin_pb2_grpc
from services.gitm_reference.faults import FaultError, FaultGate, Faults, status_of
from services.gitm_reference.store import LandStore

T = TypeVar("T")


def _answer(context: Any, fn: Callable[[], T]) -> T:
    try:
        return fn()
    except Exception as exc:  # mapped to a status; anything else is re-raised
        code, details = status_of(exc)
        context.abort(code, details)
        raise  # pragma: no cover - abort raises


class LandBridge(land_pb2_grpc.LandBridgeServicer):
    def __init__(self, store: LandStore, gate: FaultGate) -> None:
        self.store, self.gate = store, gate

    def BeginTransfer(self, request: land_pb2.BeginTransferRequest, context: Any) -> land_pb2.TransferStatus:  # noqa: N802
        return _answer(context, lambda: self.gate(lambda: self.store.begin(request)))

    def CompleteTransfer(  # noqa: N802
        self, request: land_pb2.CompleteTransferRequest, context: Any
    ) -> land_pb2.TransferStatus:
        return _answer(context, lambda: self.gate(lambda: self.store.complete(request)))

    def GetTransfer(self, request: land_pb2.GetTransferRequest, context: Any) -> land_pb2.TransferStatus:  # noqa: N802
        return _answer(context, lambda: self.gate(lambda: self.store.get(request)))

    def UnitsNear(self, request: land_pb2.UnitsNearRequest, context: Any) -> land_pb2.UnitsNearResponse:  # noqa: N802
        return _answer(context, lambda: self.gate(lambda: self.store.units_near(request)))

    def ReportSightings(  # noqa: N802
        self, request: land_pb2.ReportSightingsRequest, context: Any
    ) -> land_pb2.ReportSightingsResponse:
        return _answer(context, lambda: self.gate(lambda: self.store.report_sightings(request)))

    def ReportCargoLoss(  # noqa: N802
        self, request: land_pb2.ReportCargoLossRequest, context: Any
    ) -> land_pb2.ReportCargoLossResponse:
        return _answer(context, lambda: self.gate(lambda: self.store.report_cargo_loss(request)))

    def ReportCargoMoves(  # noqa: N802
        self, request: land_pb2.ReportCargoMovesRequest, context: Any
    ) -> land_pb2.ReportCargoMovesResponse:
        return _answer(context, lambda: self.gate(lambda: self.store.report_cargo_moves(request)))


class Admin(reference_admin_pb2_grpc.ReferenceAdminServicer):
    def __init__(self, store: LandStore, gate: FaultGate) -> None:
        self.store, self.gate = store, gate

    def Station(  # noqa: N802
        self, request: reference_admin_pb2.StationRequest, context: Any
    ) -> reference_admin_pb2.StationResponse:
        return _answer(context, lambda: self.store.station(request))

    def SetFaults(self, request: reference_admin_pb2.Faults, context: Any) -> reference_admin_pb2.Faults:  # noqa: N802
        try:
            faults = Faults.from_pb(request)
        except FaultError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            raise  # pragma: no cover
        set_faults(self.store, self.gate, faults)
        return faults.to_pb()

    def Snapshot(  # noqa: N802
        self, request: reference_admin_pb2.SnapshotRequest, context: Any
    ) -> reference_admin_pb2.SnapshotResponse:
        return self.store.snapshot(request.campaign_id)


def set_faults(store: LandStore, gate: FaultGate, faults: Faults) -> None:
    gate.faults = faults
    store.behaviour = faults.behaviour()
