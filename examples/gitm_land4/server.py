"""The gRPC server: LandBridge behind the caller token (L23), health (L24), reflection."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from concurrent import futures
from typing import TypeVar

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from examples.gitm_land4 import campaigns, errors, land, reports, transfers
from examples.gitm_land4.common import Clock, wall_clock
from examples.gitm_land4.contract import Contract
from examples.gitm_land4.identity import SERVICE, CallerCheck
from examples.gitm_land4.store import Store
from gitm.v1 import land_pb2 as pb
from gitm.v1 import land_pb2_grpc as pb_grpc

log = logging.getLogger("gitm_land4")
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
T = TypeVar("T", bound=Message)


def answer(context: grpc.ServicerContext, work: Callable[[], T]) -> T:
    """The work's answer, or its error as a google.rpc.Status with details (L29).

    A fault of the service's own is INTERNAL with no text of the exception (A16);
    the rest is logged here, on the land side.
    """
    try:
        return work()
    except errors.LandError as refused:
        failure = refused
    except sqlite3.OperationalError as fault:
        # Another process holding the store's file passes by itself: busy, not a bug.
        if "locked" in str(fault) or "busy" in str(fault):
            failure = errors.busy()
        else:
            log.exception("internal fault")
            failure = errors.internal_fault()
    except Exception:
        log.exception("internal fault")
        failure = errors.internal_fault()
    context.abort_with_status(failure.status())
    raise AssertionError("abort_with_status returns only by raising")


class LandBridge(pb_grpc.LandBridgeServicer):
    def __init__(self, store: Store, contract: Contract, clock: Clock = wall_clock) -> None:
        self.store, self.contract, self.clock = store, contract, clock

    def GetCapabilities(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: campaigns.capabilities(self.contract))

    def OpenCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(
            context,
            lambda: campaigns.open_campaign(self.store, self.contract, self.clock, request),
        )

    def CloseCampaign(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: campaigns.close_campaign(self.store, self.contract, request))

    def BeginTransfer(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: transfers.begin(self.store, self.contract, self.clock, request))

    def CompleteTransfer(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: transfers.complete(self.store, request))

    def GetTransfer(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: transfers.get(self.store, request))

    def UnitsNear(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: land.units_near(self.store, self.contract, self.clock, request))

    def PortHolders(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: land.port_holders(self.store, request))

    def GetLandSnapshot(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: land.snapshot(self.store, self.clock, request))

    def ListLandEvents(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: land.land_events(self.store, request))

    def ReleaseHold(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: land.release_hold(self.store, self.clock, request))

    def ReportSightings(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: reports.sightings(self.store, request))

    def ReportCargoLoss(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: reports.loss(self.store, request))

    def ReportCargoMoves(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        return answer(context, lambda: reports.moves(self.store, request))


def build(
    addr: str,
    store: Store,
    contract: Contract,
    tokens: Sequence[str],
    credentials: grpc.ServerCredentials | None = None,
    clock: Clock = wall_clock,
    client_uri: str = "",
) -> tuple[grpc.Server, int]:
    """The server, not yet started, and the port it is bound to."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=16),
        interceptors=[CallerCheck(tokens, client_uri)],
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ],
    )
    pb_grpc.add_LandBridgeServicer_to_server(LandBridge(store, contract, clock), server)
    checker = health.HealthServicer()
    for name in ("", SERVICE):
        checker.set(name, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    names = (pb.DESCRIPTOR.services_by_name["LandBridge"].full_name, health.SERVICE_NAME)
    reflection.enable_server_reflection((*names, reflection.SERVICE_NAME), server)
    if credentials is None:
        bound = server.add_insecure_port(addr)
    else:
        bound = server.add_secure_port(addr, credentials)
    if not bound:
        raise OSError(f"cannot listen on {addr}")
    return server, bound
