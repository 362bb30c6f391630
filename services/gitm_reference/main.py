"""``pate serve gitm-reference``: the reference GITM land service as a process.

Configuration (environment, docs/gitm.md):
- PATE_GITM_ADDR: where to listen (the address PATE's resolver dials),
  default 127.0.0.1:50060;
- PATE_GITM_DATABASE_URL: its own store, default sqlite:///<cwd>/var/gitm-reference.db;
- PATE_GITM_SCENARIO: the scenario a new campaign's land starts as (default
  "training"; "none": empty);
- PATE_GITM_FAULTS: faults from the start, e.g. "down_calls=3,delay_seconds=1";
- PATE_GITM_TOKEN: PATE's caller token (metadata x-pate-gitm-token); empty is
  allowed only on a loopback address;
- PATE_ADMIN_TOKEN: the administrator token ReferenceAdmin asks for;
- PATE_TLS_CERT, PATE_TLS_KEY, PATE_TLS_CLIENT_CA: TLS and mutual TLS, as
  every PATE server (docs/security.md);
- PATE_GITM_CLIENT_URI: the URI SAN PATE's client certificate must carry
  (spiffe://pate/resolver in PATE's Kubernetes deployment); empty: not checked.
Serves gitm.v1.LandBridge, gitm.v1.ReferenceAdmin, gRPC health and reflection;
SIGTERM or SIGINT stops it cleanly.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from gitm.v1 import land_pb2, land_pb2_grpc, reference_admin_pb2, reference_admin_pb2_grpc
from services.gitm_reference.faults import FaultError, FaultGate, Faults, StalledCalls
from services.gitm_reference.seed import scenario_seeder
from services.gitm_reference.servicer import Access, Admin, LandBridge, set_faults
from services.gitm_reference.store import LandStore
from services.platform.config import ConfigError, load_settings
from services.platform.processes import die_with_launcher
from services.platform.security.certwatch import server_credentials
from services.platform.security.tls import TlsSettings, check_bind, is_loopback, load_tls
from services.platform.store.db import make_engine
from services.platform.telemetry import metrics, tracing
from services.platform.telemetry.logging import configure_logging, get_logger
from services.platform.telemetry.observe import MetricsInterceptor

DEFAULT_ADDR = "127.0.0.1:50060"
log = get_logger("gitm-reference")


@dataclass
class Running:
    server: grpc.Server
    port: int
    store: LandStore
    gate: FaultGate

    def stop(self, grace: float = 2.0) -> None:
        self.server.stop(grace).wait()
        self.store.engine.dispose()


def default_database_url() -> str:
    return f"sqlite:///{Path.cwd().resolve() / 'var' / 'gitm-reference.db'}"


class _Health(health.HealthServicer):  # type: ignore[misc]
    """gRPC health, which the mutant ``no_health`` does not serve."""

    def __init__(self, gate: FaultGate) -> None:
        super().__init__()
        self.gate = gate

    def Check(self, request: Any, context: Any) -> Any:  # noqa: N802
        if self.gate.faults.mutant == "no_health":
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "Method not found!")
        return super().Check(request, context)


def map_cities() -> frozenset[str]:
    """The port cities on the GITM map (rule 1.5), from PATE's map data: the
    reference land side's map; UnitsNear of any other name is NOT_FOUND."""
    from pate.datafiles import load_world_map

    return frozenset(name for name, port in load_world_map().ports.items() if port.on_gitm_map)


def start(
    addr: str,
    database_url: str,
    *,
    scenario: str = "training",
    faults: Faults | None = None,
    access: Access | None = None,
    tls: TlsSettings | None = None,
) -> Running:
    """Start the service on ``addr`` (port 0: any free port) in this process."""
    access, tls = access or Access(), tls or TlsSettings()
    check_bind(addr, tls)
    if not access.land_token and not is_loopback(addr):
        raise ConfigError(f"{addr}: PATE_GITM_TOKEN is required off a loopback address (docs/gitm.md)")
    faults = faults or Faults()
    store = LandStore(
        make_engine(database_url, application_name="pate-gitm-reference"),
        scenario_seeder(scenario),
        map_cities(),
    )
    pruned = store.prune()  # docs/gitm.md A19: test campaigns 30 days after their last call
    if pruned:
        log.info("gitm_reference.pruned", campaigns=len(pruned))
    gate = FaultGate(Faults())
    set_faults(store, gate, faults)
    if faults.mutant == "volatile":  # its answers were only ever in memory: a start has none
        store.reopen()
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=8), interceptors=[MetricsInterceptor(), StalledCalls(gate)]
    )
    land_pb2_grpc.add_LandBridgeServicer_to_server(LandBridge(store, gate, access), server)
    reference_admin_pb2_grpc.add_ReferenceAdminServicer_to_server(Admin(store, gate, access), server)
    names = [
        land_pb2.DESCRIPTOR.services_by_name["LandBridge"].full_name,
        reference_admin_pb2.DESCRIPTOR.services_by_name["ReferenceAdmin"].full_name,
    ]
    checker = _Health(gate)
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    served = [*names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME]
    reflection.enable_server_reflection(served, server)
    if tls.serving:
        port = server.add_secure_port(addr, server_credentials(tls))
    else:
        port = server.add_insecure_port(addr)
    if port == 0:
        raise OSError(f"gitm-reference: cannot listen on {addr}")
    server.start()
    for name in ("", "gitm-reference", *names):
        checker.set(name, health_pb2.HealthCheckResponse.SERVING)
    return Running(server, port, store, gate)


def main() -> int:
    die_with_launcher()
    addr = os.environ.get("PATE_GITM_ADDR", "").strip() or DEFAULT_ADDR
    url = os.environ.get("PATE_GITM_DATABASE_URL", "").strip() or default_database_url()
    scenario = os.environ.get("PATE_GITM_SCENARIO", "").strip() or "training"
    try:
        faults = Faults.parse(os.environ.get("PATE_GITM_FAULTS", ""))
    except FaultError as exc:
        print(f"gitm-reference: {exc}", file=sys.stderr)
        return 2
    access = Access(
        os.environ.get("PATE_GITM_TOKEN", "").strip(),
        os.environ.get("PATE_ADMIN_TOKEN", "").strip(),
        os.environ.get("PATE_GITM_CLIENT_URI", "").strip(),
    )
    try:
        settings = load_settings()
        configure_logging("gitm-reference", settings)
        tls = load_tls()
    except ConfigError as exc:
        print(f"gitm-reference: {exc}", file=sys.stderr)
        return 2
    metrics.serve_metrics(settings.metrics_addr)  # pate_grpc_server_* of its calls
    tracing.configure_tracing("gitm-reference", settings.otlp_endpoint)  # a span a call, in PATE's trace
    try:
        running = start(addr, url, scenario=scenario, faults=faults, access=access, tls=tls)
    except (
        OSError,
        RuntimeError,
        ValueError,
    ) as exc:  # an address in use, a bad database URL: one line, no traceback
        print(f"gitm-reference: {exc}", file=sys.stderr)
        return 2
    log.info("gitm_reference.serving", addr=addr, port=running.port, scenario=scenario)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    running.stop()
    log.info("gitm_reference.stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
