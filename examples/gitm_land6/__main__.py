"""python -m examples.gitm_land6 --addr HOST:PORT --db PATH --token TOKEN --pid-file PATH"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from concurrent import futures
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from examples.gitm_land6.service import LandBridge
from examples.gitm_land6.store import Store
from gitm.v1 import land_pb2_grpc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gitm_land6")
    parser.add_argument("--addr", default="127.0.0.1:50060")
    parser.add_argument("--db", required=True)
    parser.add_argument(
        "--token",
        default=os.environ.get("PATE_GITM_TOKEN", ""),
        help="PATE's caller token; several separated by commas while it changes",
    )
    parser.add_argument("--pid-file", default="")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    tokens = [t for t in args.token.split(",") if t]
    host = args.addr.rsplit(":", 1)[0]
    if not tokens and host not in ("127.0.0.1", "localhost", "[::1]"):
        print("a caller token is required off loopback", file=sys.stderr)
        return 2
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    land_pb2_grpc.add_LandBridgeServicer_to_server(LandBridge(Store(args.db), tokens), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", "gitm.v1.LandBridge"):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    server.add_insecure_port(args.addr)
    server.start()
    if args.pid_file:
        with open(args.pid_file, "w", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))

    def stop(_signum: int, _frame: Any) -> None:
        server.stop(2)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.wait_for_termination()
    return 0


if __name__ == "__main__":
    sys.exit(main())
