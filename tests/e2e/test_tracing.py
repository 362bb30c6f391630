"""One trace per turn across every process: the operator's CloseTurn call, the
resolver, the intelligence, the reports and the opening of the next turn share its trace id,
in their log lines and in the spans they export over OTLP."""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
import pytest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

from pate.v1 import admin_pb2
from services.platform.bus.natsserver import free_port
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client
from tests.e2e.test_turn_flow import battle_orders

pytestmark = pytest.mark.e2e


class Collector(trace_service_pb2_grpc.TraceServiceServicer):
    """A stand-in OTLP collector: keeps (service.name, trace id, span name) of every span."""

    def __init__(self) -> None:
        self.spans: list[tuple[str, str, str]] = []
        self.lock = threading.Lock()

    def Export(self, request: Any, context: Any) -> Any:  # noqa: N802
        for rs in request.resource_spans:
            attrs = {a.key: a.value.string_value for a in rs.resource.attributes}
            with self.lock:
                self.spans.extend(
                    (attrs.get("service.name", ""), s.trace_id.hex(), s.name)
                    for ss in rs.scope_spans
                    for s in ss.spans
                )
        return trace_service_pb2.ExportTraceServiceResponse()


@pytest.fixture
def collector() -> Iterator[tuple[Collector, int]]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    sink = Collector()
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(sink, server)
    port = server.add_insecure_port(f"127.0.0.1:{free_port()}")
    server.start()
    yield sink, port
    server.stop(None)


def log_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


def test_one_trace_id_runs_through_every_process_of_a_turn(
    tmp_path: Path, nats_url: str, database_url: str, collector: tuple[Collector, int]
) -> None:
    sink, port = collector
    env = {"PATE_OTLP_ENDPOINT": f"http://127.0.0.1:{port}", "OTEL_BSP_SCHEDULE_DELAY": "200"}
    cluster = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url, extra_env=env)
    try:
        cluster.start_all()
        client = Client(cluster)
        campaign = "e2e-trace"
        client.create(campaign)
        client.wait_open(campaign, 1)
        british, french = battle_orders()
        client.submit(campaign, 1, "cornwallis", british)
        client.submit(campaign, 1, "ganteaume", french)
        # the operator's tool traces its call and samples it (W3C trace flags 01)
        trace_id, span_id = secrets.token_hex(16), secrets.token_hex(8)
        client.admin.CloseTurn(
            admin_pb2.CloseTurnRequest(campaign_id=campaign, turn=1),
            metadata=[*client.admin_md, ("traceparent", f"00-{trace_id}-{span_id}-01")],
            timeout=30,
        )
        client.wait_open(campaign, 2)
        client.close()
    finally:
        cluster.stop()

    logs = tmp_path / "logs"
    traced = {
        name: {line["event"] for line in log_lines(logs / f"{name}.log") if line.get("trace_id") == trace_id}
        for name in ("orders", "resolver", "intel", "reports")
    }
    assert {"grpc.call", "turn_closed", "turn_opened"} <= traced["orders"]
    assert "turn_resolved" in traced["resolver"]
    assert "intel_ready" in traced["intel"]
    assert "reports_ready" in traced["reports"]
    # the resolver of the turn logged nothing under another trace id
    resolver = [line for line in log_lines(logs / "resolver.log") if line.get("event") == "turn_resolved"]
    assert [line["trace_id"] for line in resolver] == [trace_id]

    deadline = time.monotonic() + 10
    want = {"pate-orders", "pate-resolver", "pate-intel", "pate-reports"}
    while True:
        with sink.lock:
            services = {svc for svc, tid, _ in sink.spans if tid == trace_id}
            names = {name for _, tid, name in sink.spans if tid == trace_id}
        if want <= services or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert want <= services
    assert {"resolver process", "intel process", "reports process", "orders-turns process"} <= names
    assert {"resolve", "knowledge", "store reports"} <= names  # the work inside each stage
    assert "/pate.v1.CampaignAdmin/CloseTurn" in names
    assert any(name.startswith("publish pate.turn_closed.") for name in names)
