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
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from pate.cli.client import channel

    with channel(args.addr, "PATE_ORDERS_ADDR") as ch:
        try:
            resp = health_pb2_grpc.HealthStub(ch).Check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout
            )
        except grpc.RpcError as err:
            print(f"{args.addr}: {err.code().name}")
            return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(resp.status)
    print(f"{args.addr}: {status}")
    return 0 if resp.status == health_pb2.HealthCheckResponse.SERVING else 1
