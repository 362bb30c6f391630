"""gitm.v1.LandBridge at edition 4: the token, then the rules, then one transaction a call."""

from __future__ import annotations

import hmac
import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf.message import Message

from gitm.v1 import land_pb2 as pb
from gitm.v1 import land_pb2_grpc as pb_grpc

from . import campaigns, errors, holds, reports, transfers, validation
from .store import Store, Tx, load_contract

LOG = logging.getLogger("gitm_land5")
EDITION_4_CALLS = [
    "BeginTransfer", "CloseCampaign", "CompleteTransfer", "GetCapabilities", "GetLandSnapshot", "GetTransfer",
    "ListLandEvents", "OpenCampaign", "PortHolders", "ReleaseHold", "ReportCargoLoss", "ReportCargoMoves",
    "ReportSightings", "UnitsNear",
]  # fmt: skip


class LandBridge(pb_grpc.LandBridgeServicer):
    def __init__(self, store: Store, tokens: list[str]) -> None:
        self._store = store
        self._tokens = [t.encode() for t in tokens if t]
        self.cities, self.digest = load_contract()

    def _caller_known(self, context: grpc.ServicerContext) -> bool:
        """Compared in constant time against every accepted token (old and new while it changes)."""
        if not self._tokens:
            return True
        given = dict(context.invocation_metadata()).get("x-pate-gitm-token", "")
        given_bytes = given.encode() if isinstance(given, str) else bytes(given)
        return any(hmac.compare_digest(given_bytes, token) for token in self._tokens)

    def _serve(
        self, name: str, request: Message, context: grpc.ServicerContext, work: Callable[[Tx, int], Any]
    ) -> Any:
        call_id = dict(context.invocation_metadata()).get("x-pate-call-id", "")
        try:
            if not self._caller_known(context):
                raise errors.unauthenticated()
            validation.check(request)
            with self._store.tx() as tx:
                answer = work(tx, int(time.time()))
            LOG.info("grpc.call method=%s call_id=%s status=OK", name, call_id)
            return answer
        except errors.LandError as error:
            failure = error
        except sqlite3.OperationalError as error:
            LOG.warning("grpc.call method=%s call_id=%s store busy: %s", name, call_id, error)
            failure = (
                errors.unavailable() if "locked" in str(error) or "busy" in str(error) else errors.internal()
            )
        except Exception:
            LOG.exception("grpc.call method=%s call_id=%s internal fault", name, call_id)
            failure = errors.internal()
        LOG.info("grpc.call method=%s call_id=%s status=%s", name, call_id, failure.code.name)
        context.abort_with_status(failure.status())
        return None

    def GetCapabilities(self, request: Any, context: grpc.ServicerContext) -> pb.Capabilities:  # noqa: N802 (gRPC names)
        answer = pb.Capabilities(
            edition=4, calls=EDITION_4_CALLS, implementation="gitm-land5 1.0", data_digest=self.digest
        )
        self._serve("GetCapabilities", request, context, lambda tx, now: None)
        return answer

    def OpenCampaign(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "OpenCampaign",
            request,
            context,
            lambda tx, now: campaigns.open_campaign(tx, request, self.cities, self.digest),
        )

    def CloseCampaign(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "CloseCampaign",
            request,
            context,
            lambda tx, now: campaigns.close_campaign(tx, request, self.cities),
        )

    def UnitsNear(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "UnitsNear", request, context, lambda tx, now: campaigns.units_near(tx, request, now, self.cities)
        )

    def PortHolders(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "PortHolders", request, context, lambda tx, now: campaigns.port_holders(tx, request)
        )

    def GetLandSnapshot(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "GetLandSnapshot", request, context, lambda tx, now: campaigns.snapshot(tx, request, now)
        )

    def ListLandEvents(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "ListLandEvents", request, context, lambda tx, now: campaigns.list_events(tx, request)
        )

    def ReleaseHold(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve("ReleaseHold", request, context, lambda tx, now: holds.release(tx, request, now))

    def BeginTransfer(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "BeginTransfer", request, context, lambda tx, now: transfers.begin(tx, request, now, self.cities)
        )

    def CompleteTransfer(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "CompleteTransfer", request, context, lambda tx, now: transfers.complete(tx, request)
        )

    def GetTransfer(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve("GetTransfer", request, context, lambda tx, now: transfers.get(tx, request))

    def ReportSightings(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "ReportSightings", request, context, lambda tx, now: reports.sightings(tx, request)
        )

    def ReportCargoLoss(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "ReportCargoLoss", request, context, lambda tx, now: reports.cargo_loss(tx, request)
        )

    def ReportCargoMoves(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(
            "ReportCargoMoves", request, context, lambda tx, now: reports.cargo_moves(tx, request)
        )
