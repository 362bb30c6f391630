"""The gRPC face: one lock and one transaction per call, errors as status codes, the token."""

from __future__ import annotations

import hmac
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import grpc

from examples.gitm_land import campaigns, reports, transfers
from examples.gitm_land.errors import CallError
from examples.gitm_land.land import Land
from gitm.v1 import land_pb2 as pb
from gitm.v1 import land_pb2_grpc

log = logging.getLogger("gitm_land")
TOKEN_HEADER = "x-pate-gitm-token"
_SERVICE_PREFIX = "/gitm.v1.LandBridge/"
Req = TypeVar("Req")
Resp = TypeVar("Resp")


class LandBridge(land_pb2_grpc.LandBridgeServicer):
    """Every call runs alone (L15): copies arriving together are served one after the other."""

    def __init__(self, land: Land) -> None:
        self._land = land
        self._lock = threading.Lock()

    def _serve(self, work: Callable[[Land, Req], Resp], request: Req, context: grpc.ServicerContext) -> Resp:
        try:
            with self._lock, self._land.store.transaction():
                return work(self._land, request)
        except CallError as error:
            context.abort(error.code, error.details)
        except Exception:
            log.exception("internal error in %s", getattr(work, "__name__", "call"))
            context.abort(grpc.StatusCode.INTERNAL, "internal error of the land service")
        raise AssertionError("unreachable")  # context.abort always raises

    def BeginTransfer(  # noqa: N802
        self, request: pb.BeginTransferRequest, context: Any
    ) -> pb.TransferStatus:
        return self._serve(transfers.begin, request, context)

    def CompleteTransfer(  # noqa: N802
        self, request: pb.CompleteTransferRequest, context: Any
    ) -> pb.TransferStatus:
        return self._serve(transfers.complete, request, context)

    def GetTransfer(  # noqa: N802
        self, request: pb.GetTransferRequest, context: Any
    ) -> pb.TransferStatus:
        return self._serve(transfers.get, request, context)

    def UnitsNear(  # noqa: N802
        self, request: pb.UnitsNearRequest, context: Any
    ) -> pb.UnitsNearResponse:
        return self._serve(campaigns.units_near, request, context)

    def ReportSightings(  # noqa: N802
        self, request: pb.ReportSightingsRequest, context: Any
    ) -> pb.ReportSightingsResponse:
        return self._serve(reports.sightings, request, context)

    def ReportCargoLoss(  # noqa: N802
        self, request: pb.ReportCargoLossRequest, context: Any
    ) -> pb.ReportCargoLossResponse:
        return self._serve(reports.cargo_loss, request, context)

    def ReportCargoMoves(  # noqa: N802
        self, request: pb.ReportCargoMovesRequest, context: Any
    ) -> pb.ReportCargoMovesResponse:
        return self._serve(reports.cargo_moves, request, context)

    def GetCapabilities(  # noqa: N802
        self, request: pb.GetCapabilitiesRequest, context: Any
    ) -> pb.Capabilities:
        return campaigns.capabilities()

    def OpenCampaign(  # noqa: N802
        self, request: pb.OpenCampaignRequest, context: Any
    ) -> pb.OpenCampaignResponse:
        return self._serve(campaigns.open_campaign, request, context)

    def CloseCampaign(  # noqa: N802
        self, request: pb.CloseCampaignRequest, context: Any
    ) -> pb.CloseCampaignResponse:
        return self._serve(campaigns.close_campaign, request, context)

    def PortHolders(  # noqa: N802
        self, request: pb.PortHoldersRequest, context: Any
    ) -> pb.PortHoldersResponse:
        return self._serve(campaigns.port_holders, request, context)


class TokenCheck(grpc.ServerInterceptor):
    """PATE's caller token on every contract call, checked before the request is read (L23)."""

    def __init__(self, token: str) -> None:
        self._token = token.encode()

    def intercept_service(self, continuation: Any, details: Any) -> Any:
        if not details.method.startswith(_SERVICE_PREFIX):
            return continuation(details)  # health and reflection stay open to probes
        given = dict(details.invocation_metadata or ()).get(TOKEN_HEADER, "")
        if isinstance(given, str):
            given = given.encode()
        if hmac.compare_digest(given, self._token):
            return continuation(details)
        return grpc.unary_unary_rpc_method_handler(_unauthenticated)


def _unauthenticated(request: Any, context: grpc.ServicerContext) -> Any:
    context.abort(grpc.StatusCode.UNAUTHENTICATED, "x-pate-gitm-token: missing or wrong")
