"""``pate health ADDR``: ask a service's gRPC health check (TLS-aware).

Exit 0 when SERVING, 1 otherwise.  Kubernetes' own gRPC probe speaks no TLS,
so the manifests in deploy/k8s run this as an exec probe, with the pod's
PATE_TLS_* variables.
"""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("health", help="check a service's gRPC health (exit 0 when SERVING)")
    p.add_argument("addr", help="HOST:PORT of the service")
    p.add_argument("--service", default="", help="service name to ask about (default: the server)")
    p.add_argument("--timeout", type=float, default=2.0)
    p.set_defaults(handler=_health)


def _health(args: argparse.Namespace) -> int:
    from pate.cli.main import UserError
    from services.platform.config import ConfigError
    from services.platform.runtime.healthcheck import status

    try:
        found = status(args.addr, args.service, args.timeout)  # the image's HEALTHCHECK asks the same way
    except ConfigError as err:
        raise UserError(str(err)) from None
    print(f"{args.addr}: {found}")
    return 0 if found == "SERVING" else 1
