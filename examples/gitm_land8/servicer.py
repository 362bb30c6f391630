"""The gRPC side: LandBridge methods, the caller token (L23) and the error answers (L29)."""
# ruff: noqa: N802 -- the method names are the proto's, which gRPC looks up by name

from __future__ import annotations

import hmac
import logging
import sqlite3
import time

import grpc

from gitm.v1 import land_pb2_grpc

from . import errors, lifecycle, questions, reports, transfers

LOG = logging.getLogger("gitm_land8")
TOKEN_HEADER = "x-pate-gitm-token"
_PREFIX = "/gitm.v1.LandBridge/"


class TokenCheck(grpc.ServerInterceptor):
    """UNAUTHENTICATED before the request is read, unless the token is one of ours."""

    def __init__(self, tokens: list[str]):
        self._tokens = [t.encode() for t in tokens]

    def _known(self, given: str | None) -> bool:
        if given is None:
            return False
        raw = given.encode()
        # Every token is compared, so the time taken says nothing of which one nearly matched.
        return any([hmac.compare_digest(raw, token) for token in self._tokens])

    def intercept_service(self, continuation, details):
        if not details.method.startswith(_PREFIX):
            return continuation(details)  # health and reflection answer without it
        given = dict(details.invocation_metadata or ()).get(TOKEN_HEADER)
        if self._known(given):
            return continuation(details)
        rejected = errors.LandError("CALLER_REJECTED", "caller token missing or wrong")

        def refuse(_request, context):
            rejected.abort(context)

        return grpc.unary_unary_rpc_method_handler(refuse)


class LandBridge(land_pb2_grpc.LandBridgeServicer):
    def __init__(self, store, data, clock=time.time):
        self.store = store
        self.data = data
        self.clock = clock

    def _serve(self, context, name: str, work):
        call_id = dict(context.invocation_metadata()).get("x-pate-call-id", "")
        try:
            with self.store.transaction():
                answer = work()
            LOG.info("call %s call_id=%s OK", name, call_id)
            return answer
        except errors.LandError as err:
            failure = err
        except sqlite3.OperationalError as exc:
            busy = "locked" in str(exc) or "busy" in str(exc)
            LOG.exception("call %s call_id=%s store error", name, call_id)
            failure = errors.unavailable() if busy else errors.internal()
        except Exception:  # a fault of our own: logged here, never sent
            LOG.exception("call %s call_id=%s fault", name, call_id)
            failure = errors.internal()
        LOG.info("call %s call_id=%s %s %s", name, call_id, failure.code.name, failure.reason)
        failure.abort(context)

    def _now(self) -> int:
        return int(self.clock())

    def GetCapabilities(self, request, context):
        return self._serve(context, "GetCapabilities", lambda: lifecycle.capabilities(self.data))

    def OpenCampaign(self, request, context):
        return self._serve(context, "OpenCampaign", lambda: lifecycle.open_(self.store, self.data, request))

    def CloseCampaign(self, request, context):
        return self._serve(context, "CloseCampaign", lambda: lifecycle.close(self.store, self.data, request))

    def BeginTransfer(self, request, context):
        return self._serve(
            context,
            "BeginTransfer",
            lambda: transfers.begin(self.store, self.data.cities, self._now(), request),
        )

    def CompleteTransfer(self, request, context):
        return self._serve(context, "CompleteTransfer", lambda: transfers.complete(self.store, request))

    def GetTransfer(self, request, context):
        return self._serve(context, "GetTransfer", lambda: transfers.get(self.store, request))

    def UnitsNear(self, request, context):
        return self._serve(
            context,
            "UnitsNear",
            lambda: questions.units_near(self.store, self.data, self._now(), request),
        )

    def ReleaseHold(self, request, context):
        return self._serve(
            context, "ReleaseHold", lambda: questions.release_hold(self.store, self._now(), request)
        )

    def PortHolders(self, request, context):
        return self._serve(context, "PortHolders", lambda: questions.port_holders(self.store, request))

    def ListLandEvents(self, request, context):
        return self._serve(context, "ListLandEvents", lambda: questions.land_events(self.store, request))

    def GetLandSnapshot(self, request, context):
        return self._serve(
            context, "GetLandSnapshot", lambda: questions.snapshot(self.store, self._now(), request)
        )

    def ReportSightings(self, request, context):
        return self._serve(context, "ReportSightings", lambda: reports.sightings(self.store, request))

    def ReportCargoLoss(self, request, context):
        return self._serve(context, "ReportCargoLoss", lambda: reports.cargo_loss(self.store, request))

    def ReportCargoMoves(self, request, context):
        return self._serve(context, "ReportCargoMoves", lambda: reports.cargo_moves(self.store, request))
