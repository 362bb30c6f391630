"""python -m examples.gitm_land8 --addr HOST:PORT --db PATH --token TOKEN --pid-file PATH"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import signal
import sys
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from gitm.v1 import land_pb2_grpc

from . import contract
from .servicer import LandBridge, TokenCheck
from .store import Store


def _loopback(addr: str) -> bool:
    host = addr.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="python -m examples.gitm_land8", description=__doc__)
    parser.add_argument("--addr", default="127.0.0.1:50060")
    parser.add_argument("--db", required=True, help="the SQLite file of the store")
    parser.add_argument(
        "--token",
        action="append",
        default=[],
        help="PATE's caller token; give it twice while a token changes (default $PATE_GITM_TOKEN)",
    )
    parser.add_argument("--pid-file", help="where this process writes its pid")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = _arguments(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    tokens = [t.strip() for t in args.token or [os.environ.get("PATE_GITM_TOKEN", "")] if t.strip()]
    if not tokens:
        sys.exit("a caller token is required (--token or PATE_GITM_TOKEN)")
    if not _loopback(args.addr):
        # Off one machine the contract asks mutual TLS, which this service does not serve.
        sys.exit("plaintext is served on a loopback address only")
    data = contract.load()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16), interceptors=[TokenCheck(tokens)])
    land_pb2_grpc.add_LandBridgeServicer_to_server(LandBridge(Store(args.db), data), server)
    checker = health.HealthServicer()
    for name in ("", "gitm.v1.LandBridge"):
        checker.set(name, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    if server.add_insecure_port(args.addr) == 0:
        sys.exit(f"cannot listen on {args.addr}")
    server.start()
    if args.pid_file:
        with open(args.pid_file, "w", encoding="ascii") as handle:
            handle.write(f"{os.getpid()}\n")
    signal.signal(signal.SIGTERM, lambda *_: server.stop(2))
    logging.getLogger("gitm_land8").info("serving gitm.v1.LandBridge on %s", args.addr)
    server.wait_for_termination()
    return 0


if __name__ == "__main__":
    sys.exit(main())
