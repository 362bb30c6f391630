"""gitm.v1.LandBridge over gRPC: the token, the proto's rules, then the store's work."""

import hmac
import logging
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf.message import Message

from examples.gitm_land7 import campaigns, holds, questions, reports, transfers
from examples.gitm_land7.checks import check_request
from examples.gitm_land7.contract import EDITION, IMPLEMENTATION, ContractData
from examples.gitm_land7.errors import Fault
from examples.gitm_land7.store import Store
from gitm.v1 import land_pb2 as pb
from gitm.v1 import land_pb2_grpc

LOG = logging.getLogger("gitm_land7")


class LandBridge(land_pb2_grpc.LandBridgeServicer):
    def __init__(self, store: Store, data: ContractData, token: str) -> None:
        self._store = store
        self._data = data
        self._token = token.encode()

    def _serve(self, request: Message, context: grpc.ServicerContext, work: Callable[..., Any]) -> Any:
        fault: Fault | None = None
        try:
            self._check_caller(context)
            check_request(request)
            with self._store.transaction() as db:
                return work(db)
        except Fault as caught:
            fault = caught
        except Exception:
            # The detail stays in this service's log; the caller learns only that it was ours.
            LOG.exception("internal fault serving %s", type(request).__name__)
            fault = Fault("INTERNAL_FAULT", "internal fault of the land service")
        context.abort_with_status(fault.status())
        return None

    def _check_caller(self, context: grpc.ServicerContext) -> None:
        sent = b""
        for key, value in context.invocation_metadata():
            if key == "x-pate-gitm-token":
                sent = value.encode() if isinstance(value, str) else value
        if not hmac.compare_digest(sent, self._token):
            raise Fault("CALLER_REJECTED", "x-pate-gitm-token: missing or wrong caller token")

    def GetCapabilities(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(
            request,
            context,
            lambda db: pb.Capabilities(
                edition=EDITION,
                calls=list(self._data.calls),
                implementation=IMPLEMENTATION,
                data_digest=self._data.digest,
            ),
        )

    def OpenCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: campaigns.open_campaign(db, request, self._data))

    def CloseCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: campaigns.close_campaign(db, request, self._data))

    def BeginTransfer(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: transfers.begin(db, request, self._data))

    def CompleteTransfer(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: transfers.complete(db, request))

    def GetTransfer(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: transfers.get(db, request))

    def UnitsNear(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: questions.units_near(db, request, self._data))

    def PortHolders(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: questions.port_holders(db, request))

    def GetLandSnapshot(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: questions.snapshot(db, request))

    def ListLandEvents(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: questions.list_events(db, request))

    def ReleaseHold(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: holds.release(db, request))

    def ReportSightings(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: reports.sightings(db, request))

    def ReportCargoLoss(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: reports.loss(db, request))

    def ReportCargoMoves(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return self._serve(request, context, lambda db: reports.moves(db, request))
