"""pate.v1.CampaignResults served in process on a loopback port, for the archive's tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import grpc
import pytest
from sqlalchemy import Engine

from pate.v1 import result_pb2_grpc
from services.orders.result import CampaignResultsServicer
from services.platform.runtime.grpcutil import bound_port, serve_grpc
from services.platform.security.auth import Authenticator


@contextmanager
def results_stub(engine: Engine) -> Iterator[result_pb2_grpc.CampaignResultsStub]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    servicer = CampaignResultsServicer(engine, Authenticator(engine), "admin-secret")
    start = serve_grpc(
        [(servicer, result_pb2_grpc.add_CampaignResultsServicer_to_server)], "127.0.0.1:0", "orders"
    )
    server = asyncio.run_coroutine_threadsafe(start, loop).result(30)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{bound_port(server)}") as channel:
            yield result_pb2_grpc.CampaignResultsStub(channel)
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(None), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def refusal(call: Any, req: Any) -> tuple[str, str]:
    """(status code name, details) of a call that must be refused."""
    with pytest.raises(grpc.RpcError) as err:
        call(req, timeout=30)
    return err.value.code().name, err.value.details() or ""
