"""The gitm.v1.LandBridge servicer: token, rules, then the work under one lock."""

from __future__ import annotations

import hmac
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

import grpc

from examples.gitm_land6 import campaigns, errors, model, reports, transfers
from examples.gitm_land6.store import Store
from gitm.v1 import land_pb2 as pb
from gitm.v1 import land_pb2_grpc

log = logging.getLogger("gitm_land6")


class LandBridge(land_pb2_grpc.LandBridgeServicer):
    def __init__(self, store: Store, tokens: list[str]) -> None:
        self._store = store
        self._tokens = [t.encode() for t in tokens if t]

    def _authorized(self, context: grpc.ServicerContext) -> bool:
        if not self._tokens:
            return True  # no token configured: __main__ allows that only on loopback
        given = ""
        for key, value in context.invocation_metadata():
            if key == "x-pate-gitm-token":
                given = value if isinstance(value, str) else value.decode()
        ok = False
        for token in self._tokens:
            ok = hmac.compare_digest(given.encode(), token) or ok
        return ok

    def _serve(
        self,
        request: Any,
        context: grpc.ServicerContext,
        work: Callable[[dict[str, Any], Any], Any],
        campaign_required: bool = True,
    ) -> Any:
        call_id = dict(context.invocation_metadata()).get("x-pate-call-id", "")
        try:
            if not self._authorized(context):
                raise errors.LandError(
                    grpc.StatusCode.UNAUTHENTICATED, "caller token missing or wrong", "CALLER_REJECTED"
                )
            errors.check_rules(request)
            with self._store.lock:
                try:
                    answer = work(self._store.state, request)
                    self._store.save()
                except BaseException:
                    self._store.rollback()
                    raise
            log.info("call %s %s ok", type(request).__name__, call_id)
            return answer
        except errors.LandError as error:
            log.info("call %s %s %s", type(request).__name__, call_id, error.code.name)
            context.abort_with_status(errors.to_status(error))
        except sqlite3.OperationalError:
            # a store locked by another process passes by itself (docs/gitm.md "Answers")
            log.warning("store unavailable on %s", type(request).__name__)
            busy = errors.LandError(
                grpc.StatusCode.UNAVAILABLE, "the land's store is busy", "LAND_UNAVAILABLE"
            )
            context.abort_with_status(errors.to_status(busy))
        except Exception:
            log.exception("internal fault on %s", type(request).__name__)
            fault = errors.LandError(
                grpc.StatusCode.INTERNAL, "internal fault of the land service", "INTERNAL_FAULT"
            )
            context.abort_with_status(errors.to_status(fault))
        raise AssertionError("unreachable")

    def GetCapabilities(self, request: Any, context: Any) -> pb.Capabilities:  # noqa: N802 (gRPC names)
        def work(_state: dict[str, Any], _req: Any) -> pb.Capabilities:
            return pb.Capabilities(
                edition=4, calls=model.CALLS, implementation="gitm-land6 1", data_digest=model.DIGEST
            )

        return self._serve(request, context, work)

    def OpenCampaign(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, campaigns.open_campaign)

    def CloseCampaign(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, campaigns.close_campaign)

    def UnitsNear(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, campaigns.units_near)

    def PortHolders(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, campaigns.port_holders)

    def GetLandSnapshot(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, campaigns.snapshot)

    def ListLandEvents(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, campaigns.land_events)

    def ReleaseHold(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, campaigns.release_hold)

    def BeginTransfer(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, transfers.begin)

    def CompleteTransfer(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, transfers.complete)

    def GetTransfer(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, transfers.get)

    def ReportSightings(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, reports.sightings)

    def ReportCargoLoss(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, reports.cargo_loss)

    def ReportCargoMoves(self, request: Any, context: Any) -> Any:  # noqa: N802 (gRPC names)
        return self._serve(request, context, reports.cargo_moves)
