"""python -m examples.gitm_land5 --addr HOST:PORT --db PATH --token TOKEN [--pidfile PATH]"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from gitm.v1 import land_pb2, land_pb2_grpc

from .servicer import LandBridge
from .store import Store

SERVICE = "gitm.v1.LandBridge"


def _loopback(addr: str) -> bool:
    host = addr.rsplit(":", 1)[0].strip("[]")
    return host in ("127.0.0.1", "localhost", "::1")


def server_port(server: grpc.Server, args: argparse.Namespace) -> int:
    """Mutual TLS off one machine ("Security between the services"); plaintext only on loopback."""
    if not (args.tls_cert and args.tls_key and args.client_ca):
        if not _loopback(args.addr):
            print("gitm_land5: off loopback give --tls-cert, --tls-key and --client-ca", file=sys.stderr)
            return 0
        return int(server.add_insecure_port(args.addr))
    with open(args.tls_key, "rb") as key, open(args.tls_cert, "rb") as cert, open(args.client_ca, "rb") as ca:
        credentials = grpc.ssl_server_credentials(
            [(key.read(), cert.read())], root_certificates=ca.read(), require_client_auth=True
        )
    return int(server.add_secure_port(args.addr, credentials))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gitm_land5", description="A GITM land service, gitm.v1 edition 4.")
    parser.add_argument("--addr", default="127.0.0.1:50060")
    parser.add_argument("--db", required=True, help="the SQLite file of the store")
    parser.add_argument(
        "--token", action="append", default=[], help="PATE's caller token; give it twice while it changes"
    )
    parser.add_argument(
        "--tls-cert", default="", help="server certificate (PEM); with --tls-key and --client-ca"
    )
    parser.add_argument("--tls-key", default="", help="server key (PEM)")
    parser.add_argument(
        "--client-ca", default="", help="CA that issues PATE's client certificate (mutual TLS)"
    )
    parser.add_argument("--pidfile", default="", help="write this process's id there (for a restart script)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    tokens = [t.strip() for t in args.token if t.strip()] or [os.environ.get("PATE_GITM_TOKEN", "").strip()]
    tokens = [t for t in tokens if t]
    if not tokens and not _loopback(args.addr):
        print("gitm_land5: a caller token is required off loopback", file=sys.stderr)
        return 2
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    land_pb2_grpc.add_LandBridgeServicer_to_server(LandBridge(Store(args.db), tokens), server)
    checker = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    for name in ("", SERVICE):
        checker.set(name, health_pb2.HealthCheckResponse.SERVING)
    names = (land_pb2.DESCRIPTOR.services_by_name["LandBridge"].full_name, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(names, server)
    if server_port(server, args) == 0:
        print(f"gitm_land5: cannot listen on {args.addr}", file=sys.stderr)
        return 2
    server.start()
    if args.pidfile:
        with open(args.pidfile, "w", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))
    signal.signal(signal.SIGTERM, lambda *_: server.stop(2))
    logging.getLogger("gitm_land5").info("serving %s edition 4 on %s", SERVICE, args.addr)
    server.wait_for_termination()
    return 0


if __name__ == "__main__":
    sys.exit(main())
