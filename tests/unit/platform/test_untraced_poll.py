"""A poll that finds nothing makes no trace: calls inside ``tracing.untraced()`` make no client
span, while the same call outside makes one (services/platform/telemetry/tracing.py).  Run in
a process of its own, since installing an exporter makes every later span of a process recorded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys
import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from services.gitm_reference.main import start
from services.platform.telemetry import tracing

exporter = InMemorySpanExporter()
tracing.configure_tracing("test", exporter=exporter)
running = start("127.0.0.1:0", "sqlite:///" + sys.argv[1])


def checks():
    for provider in tracing._installed:
        provider.force_flush()
    return sum(s.name == "/grpc.health.v1.Health/Check" for s in exporter.get_finished_spans())


with grpc.insecure_channel(f"127.0.0.1:{running.port}") as ch:
    stub = health_pb2_grpc.HealthStub(ch)
    with tracing.untraced():
        stub.Check(health_pb2.HealthCheckRequest(), timeout=5)
    quiet = checks()
    stub.Check(health_pb2.HealthCheckRequest(), timeout=5)
    loud = checks()
running.server.stop(None)
print(quiet, loud)
"""


def test_an_untraced_call_makes_no_span_and_a_traced_one_does(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "gitm.db")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split()[-2:] == ["0", "1"]
