"""The reference service's gRPC face: gitm.v1.LandBridge (the contract) and
gitm.v1.ReferenceAdmin (its own administration), over :class:`LandStore`.

Who may call (docs/gitm.md "Security", docs/security.md): LandBridge takes
calls carrying PATE's caller token (metadata ``x-pate-gitm-token`` =
``PATE_GITM_TOKEN``) when one is configured; ReferenceAdmin takes calls
carrying the administrator token (``x-pate-admin-token`` =
``PATE_ADMIN_TOKEN``) and refuses every call when none is configured.  Both
are compared in constant time, before the request is looked at."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
from google.rpc import status_pb2
from grpc_status import rpc_status

from gitm.v1 import land_pb2, land_pb2_grpc, reference_admin_pb2, reference_admin_pb2_grpc
from pate.gitmkit.status_details import code_of, rich_status
from services.gitm_reference.faults import FaultError, FaultGate, Faults, status_of
from services.gitm_reference.store import LandStore
from services.platform.telemetry.logging import get_logger

T = TypeVar("T")
log = get_logger("gitm-reference")
CALLER_TOKEN = "x-pate-gitm-token"  # docs/gitm.md "Security"
ADMIN_TOKEN = "x-pate-admin-token"


@dataclass(frozen=True)
class Access:
    land_token: str = field(default="", repr=False)  # empty: loopback development only (main.py)
    admin_token: str = field(default="", repr=False)  # empty: every administration call refused
    # PATE's client certificate's URI SAN (PATE_GITM_CLIENT_URI); empty: the certificate's CA only
    client_uri: str = ""


def _peer_is(context: Any, uri: str) -> bool:
    """The caller's certificate names ``uri`` among its URI SANs (never its CN, docs/gitm.md)."""
    names = (context.auth_context() or {}).get("peer_uri", [])
    return any(n.decode("utf-8", "replace") == uri for n in names)


def _given(context: Any, key: str) -> str:
    return next((str(v) for k, v in (context.invocation_metadata() or ()) if k == key), "")


def _same(given: str, wanted: str) -> bool:
    return bool(wanted) and hmac.compare_digest(given.encode(), wanted.encode())


def _answer(context: Any, fn: Callable[[], T], broken: Callable[[str], bool] = lambda _n: False) -> T:
    """``fn()``, or its error as a status with its details (docs/gitm.md "Status codes"): a
    fault of the service's own is INTERNAL, its stack in this service's log only."""
    try:
        return fn()
    except Exception as exc:
        status = status_of(exc, internal=True, broken=broken)
        if status.code == grpc.StatusCode.INTERNAL.value[0]:
            log.error("gitm_reference.internal_fault", error=type(exc).__name__, exc_info=exc)
        if broken("unknown_on_bad") and status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]:
            status = rich_status(grpc.StatusCode.UNKNOWN, "error")
        _abort(context, status, broken)
        raise  # pragma: no cover - abort raises


def _abort(context: Any, status: status_pb2.Status, broken: Callable[[str], bool]) -> None:
    if broken("bare_errors"):  # the mutant whose errors carry no details
        context.abort(code_of(status), status.message)
    context.abort_with_status(rpc_status.to_status(status))


def _without_codes(answer: T) -> T:
    """The mutant refusal_no_code: every refusal of an answer without its code."""
    for r in getattr(answer, "refusals", ()):
        r.ClearField("code")
    return answer


class LandBridge(land_pb2_grpc.LandBridgeServicer):
    def __init__(self, store: LandStore, gate: FaultGate, access: Access | None = None) -> None:
        self.store, self.gate, self.access = store, gate, access or Access()

    def _serve(self, context: Any, work: Callable[[], T]) -> T:
        broken = self.store.behaviour.broken
        wanted = self.access.land_token
        if wanted and not broken("no_auth") and not _same(_given(context, CALLER_TOKEN), wanted):
            denied = rich_status(
                grpc.StatusCode.UNAUTHENTICATED, f"{CALLER_TOKEN}: missing or wrong", reason="CALLER_REJECTED"
            )
            _abort(context, denied, broken)
        if self.access.client_uri and not _peer_is(context, self.access.client_uri):
            not_pate = "client certificate: not PATE's (URI SAN)"
            stranger = rich_status(grpc.StatusCode.UNAUTHENTICATED, not_pate, reason="CALLER_REJECTED")
            _abort(context, stranger, broken)
        answer = _answer(context, lambda: self.gate(work), broken)
        return _without_codes(answer) if broken("refusal_no_code") else answer

    def BeginTransfer(self, request: land_pb2.BeginTransferRequest, context: Any) -> land_pb2.TransferStatus:  # noqa: N802
        return self._serve(context, lambda: self.store.begin(request))

    def CompleteTransfer(  # noqa: N802
        self, request: land_pb2.CompleteTransferRequest, context: Any
    ) -> land_pb2.TransferStatus:
        return self._serve(context, lambda: self.store.complete(request))

    def GetTransfer(self, request: land_pb2.GetTransferRequest, context: Any) -> land_pb2.TransferStatus:  # noqa: N802
        return self._serve(context, lambda: self.store.get(request))

    def UnitsNear(self, request: land_pb2.UnitsNearRequest, context: Any) -> land_pb2.UnitsNearResponse:  # noqa: N802
        return self._serve(context, lambda: self.store.units_near(request))

    def ReportSightings(  # noqa: N802
        self, request: land_pb2.ReportSightingsRequest, context: Any
    ) -> land_pb2.ReportSightingsResponse:
        return self._serve(context, lambda: self.store.report_sightings(request))

    def ReportCargoLoss(  # noqa: N802
        self, request: land_pb2.ReportCargoLossRequest, context: Any
    ) -> land_pb2.ReportCargoLossResponse:
        return self._serve(context, lambda: self.store.report_cargo_loss(request))

    def ReportCargoMoves(  # noqa: N802
        self, request: land_pb2.ReportCargoMovesRequest, context: Any
    ) -> land_pb2.ReportCargoMovesResponse:
        if self.store.behaviour.broken("caps_lie"):
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "Method not implemented!")
        return self._serve(context, lambda: self.store.report_cargo_moves(request))

    def GetCapabilities(  # noqa: N802
        self, request: land_pb2.GetCapabilitiesRequest, context: Any
    ) -> land_pb2.Capabilities:
        return self._serve(context, self.store.capabilities)

    def OpenCampaign(  # noqa: N802
        self, request: land_pb2.OpenCampaignRequest, context: Any
    ) -> land_pb2.OpenCampaignResponse:
        return self._serve(context, lambda: self.store.open_campaign(request))

    def CloseCampaign(  # noqa: N802
        self, request: land_pb2.CloseCampaignRequest, context: Any
    ) -> land_pb2.CloseCampaignResponse:
        return self._serve(context, lambda: self.store.close_campaign(request))

    def PortHolders(  # noqa: N802
        self, request: land_pb2.PortHoldersRequest, context: Any
    ) -> land_pb2.PortHoldersResponse:
        return self._serve(context, lambda: self.store.port_holders(request))

    def GetLandSnapshot(  # noqa: N802
        self, request: land_pb2.GetLandSnapshotRequest, context: Any
    ) -> land_pb2.LandSnapshot:
        return self._serve(context, lambda: self.store.land_snapshot(request))

    def ListLandEvents(  # noqa: N802
        self, request: land_pb2.ListLandEventsRequest, context: Any
    ) -> land_pb2.ListLandEventsResponse:
        return self._serve(context, lambda: self.store.list_land_events(request))

    def ReleaseHold(  # noqa: N802
        self, request: land_pb2.ReleaseHoldRequest, context: Any
    ) -> land_pb2.ReleaseHoldResponse:
        return self._serve(context, lambda: self.store.release_hold(request))


class Admin(reference_admin_pb2_grpc.ReferenceAdminServicer):
    def __init__(self, store: LandStore, gate: FaultGate, access: Access | None = None) -> None:
        self.store, self.gate, self.access = store, gate, access or Access()

    def _admit(self, context: Any) -> None:
        if not self.access.admin_token:
            context.abort(grpc.StatusCode.PERMISSION_DENIED, "no administrator token is configured")
        if not _same(_given(context, ADMIN_TOKEN), self.access.admin_token):
            context.abort(grpc.StatusCode.UNAUTHENTICATED, f"{ADMIN_TOKEN}: missing or wrong")

    def Station(  # noqa: N802
        self, request: reference_admin_pb2.StationRequest, context: Any
    ) -> reference_admin_pb2.StationResponse:
        self._admit(context)
        return _answer(context, lambda: self.store.station(request))

    def SetFaults(self, request: reference_admin_pb2.Faults, context: Any) -> reference_admin_pb2.Faults:  # noqa: N802
        self._admit(context)
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
        self._admit(context)
        return self.store.snapshot(request.campaign_id)

    def InjectLandEvent(  # noqa: N802
        self, request: reference_admin_pb2.InjectLandEventRequest, context: Any
    ) -> land_pb2.LandEvent:
        self._admit(context)
        return _answer(context, lambda: self.store.inject_land_event(request.campaign_id, request.event))

    def Reopen(  # noqa: N802
        self, request: reference_admin_pb2.ReopenRequest, context: Any
    ) -> reference_admin_pb2.ReopenResponse:
        self._admit(context)
        self.store.reopen()
        return reference_admin_pb2.ReopenResponse()


def set_faults(store: LandStore, gate: FaultGate, faults: Faults) -> None:
    gate.faults = faults
    store.behaviour = faults.behaviour()
