"""``python -m services.platform.runtime.healthcheck``: exit 0 when this container's service is SERVING.

The container image's HEALTHCHECK runs it.  One image serves every service, so it asks the
gRPC health service at ``PATE_HEALTH_ADDR`` if set, else on 127.0.0.1 at the port of each
service address with a fixed port (a container runs one service, so only its own answers).
The image fixes the workers' ports, which bind any free port by default.  The web desk
answers HTTP, not gRPC: its container is checked on /healthz instead (deploy/compose.yaml).
Kubernetes runs ``pate health`` as an exec probe, its gRPC probe speaking no TLS.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.platform.security import tls

_ADDR_VARIABLES = (
    "PATE_ORDERS_ADDR",
    "PATE_REPORTS_ADDR",
    "PATE_RESOLVER_ADDR",
    "PATE_INTEL_ADDR",
    "PATE_NOTIFIER_ADDR",
    "PATE_ADMIRAL_ADDR",
)
_DEFAULTS = {"PATE_ORDERS_ADDR": "127.0.0.1:50051", "PATE_REPORTS_ADDR": "127.0.0.1:50054"}


def addresses(env: Mapping[str, str]) -> list[str]:
    """Where to ask: 127.0.0.1 and the port of each address (port 0 cannot be asked)."""
    given = env.get("PATE_HEALTH_ADDR", "").strip()
    raw = [given] if given else [env.get(v, "").strip() or _DEFAULTS.get(v, "") for v in _ADDR_VARIABLES]
    out: list[str] = []
    for addr in raw:
        _host, sep, port = addr.rpartition(":")
        if sep and port.isdigit() and int(port) > 0 and f"127.0.0.1:{port}" not in out:
            out.append(f"127.0.0.1:{port}")
    return out


def status(addr: str, service: str = "", timeout: float = 2.0) -> str:
    """The health status's name (``SERVING``, ``NOT_SERVING``...), or the gRPC code of a failed call."""
    try:
        # TLS, verified against PATE_TLS_CA, when the deployment sets it (docs/security.md)
        with tls.channel(addr) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout
            )
    except grpc.RpcError as err:
        return str(err.code().name)
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def serving(addr: str, timeout: float = 2.0) -> bool:
    return status(addr, timeout=timeout) == "SERVING"


def main(env: Mapping[str, str] | None = None) -> int:
    targets = addresses(os.environ if env is None else env)
    return 0 if any(serving(a) for a in targets) else 1


if __name__ == "__main__":
    sys.exit(main())
