"""The reference land service in this process, without a network: a stub
with LandBridgeStub's methods over a :class:`LandStore` and its faults, whose
errors are real ``grpc.RpcError``/``grpc.Call`` values.  The bridge's
:class:`~services.resolver.gitm.GitmClient` takes it as ``stub`` (the fault
property test, ``pate campaign simulate --gitm reference``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import grpc
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from gitm.v1 import land_pb2
from pate.gitmkit.status_details import code_of, trailer
from services.gitm_reference.faults import FaultGate, Faults, status_of
from services.gitm_reference.ledger import Seeder
from services.gitm_reference.store import LandStore

T = TypeVar("T")


class LocalRpcError(grpc.RpcError, grpc.Call):  # type: ignore[misc]
    """A failed call, as a channel would raise it."""

    def __init__(self, code: grpc.StatusCode, details: str, trailer: Any = ()) -> None:
        super().__init__(details)
        self._code, self._details, self._trailer = code, details, tuple(trailer)

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def initial_metadata(self) -> Any:
        return ()

    def trailing_metadata(self) -> Any:
        return self._trailer

    def is_active(self) -> bool:
        return False

    def time_remaining(self) -> float | None:
        return None

    def cancel(self) -> bool:
        return False

    def add_callback(self, callback: Any) -> bool:
        return False


def memory_store(seeder: Seeder | None = None) -> LandStore:
    """A store in an in-memory SQLite database (one connection, shared by threads)."""
    engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    return LandStore(engine, seeder)


class InProcessStub:
    def __init__(self, store: LandStore, faults: Faults | None = None) -> None:
        self.store = store
        self.gate = FaultGate(faults or Faults(), sleep=lambda _s: None)
        self.calls: list[tuple[str, str]] = []  # (method, id) as received

    def _do(self, method: str, key: str, work: Callable[[], T]) -> T:
        self.calls.append((method, key))
        try:
            return self.gate(work)
        except Exception as exc:  # mapped to a status as the servicer maps it
            status = status_of(exc)  # with its details, as the servicer answers (docs/gitm.md "Status codes")
            raise LocalRpcError(code_of(status), status.message, trailer(status)) from None

    def BeginTransfer(self, r: land_pb2.BeginTransferRequest, **_: Any) -> land_pb2.TransferStatus:  # noqa: N802
        return self._do("BeginTransfer", r.transfer_id, lambda: self.store.begin(r))

    def CompleteTransfer(self, r: land_pb2.CompleteTransferRequest, **_: Any) -> land_pb2.TransferStatus:  # noqa: N802
        return self._do("CompleteTransfer", r.transfer_id, lambda: self.store.complete(r))

    def GetTransfer(self, r: land_pb2.GetTransferRequest, **_: Any) -> land_pb2.TransferStatus:  # noqa: N802
        return self._do("GetTransfer", r.transfer_id, lambda: self.store.get(r))

    def UnitsNear(self, r: land_pb2.UnitsNearRequest, **_: Any) -> land_pb2.UnitsNearResponse:  # noqa: N802
        return self._do("UnitsNear", r.port, lambda: self.store.units_near(r))

    def ReportSightings(  # noqa: N802
        self, r: land_pb2.ReportSightingsRequest, **_: Any
    ) -> land_pb2.ReportSightingsResponse:
        return self._do("ReportSightings", r.report_id, lambda: self.store.report_sightings(r))

    def ReportCargoLoss(  # noqa: N802
        self, r: land_pb2.ReportCargoLossRequest, **_: Any
    ) -> land_pb2.ReportCargoLossResponse:
        return self._do("ReportCargoLoss", r.loss_id, lambda: self.store.report_cargo_loss(r))

    def ReportCargoMoves(  # noqa: N802
        self, r: land_pb2.ReportCargoMovesRequest, **_: Any
    ) -> land_pb2.ReportCargoMovesResponse:
        return self._do("ReportCargoMoves", r.move_id, lambda: self.store.report_cargo_moves(r))

    def GetCapabilities(self, r: land_pb2.GetCapabilitiesRequest, **_: Any) -> land_pb2.Capabilities:  # noqa: N802
        return self._do("GetCapabilities", "", self.store.capabilities)

    def OpenCampaign(self, r: land_pb2.OpenCampaignRequest, **_: Any) -> land_pb2.OpenCampaignResponse:  # noqa: N802
        return self._do("OpenCampaign", r.campaign_id, lambda: self.store.open_campaign(r))

    def CloseCampaign(self, r: land_pb2.CloseCampaignRequest, **_: Any) -> land_pb2.CloseCampaignResponse:  # noqa: N802
        return self._do("CloseCampaign", r.campaign_id, lambda: self.store.close_campaign(r))

    def PortHolders(self, r: land_pb2.PortHoldersRequest, **_: Any) -> land_pb2.PortHoldersResponse:  # noqa: N802
        return self._do("PortHolders", r.campaign_id, lambda: self.store.port_holders(r))

    def GetLandSnapshot(self, r: land_pb2.GetLandSnapshotRequest, **_: Any) -> land_pb2.LandSnapshot:  # noqa: N802
        return self._do("GetLandSnapshot", r.campaign_id, lambda: self.store.land_snapshot(r))

    def ListLandEvents(  # noqa: N802
        self, r: land_pb2.ListLandEventsRequest, **_: Any
    ) -> land_pb2.ListLandEventsResponse:
        return self._do("ListLandEvents", r.campaign_id, lambda: self.store.list_land_events(r))

    def ReleaseHold(  # noqa: N802
        self, r: land_pb2.ReleaseHoldRequest, **_: Any
    ) -> land_pb2.ReleaseHoldResponse:
        return self._do("ReleaseHold", r.campaign_id, lambda: self.store.release_hold(r))
