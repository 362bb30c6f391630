"""python -m examples.gitm_land7 --addr HOST:PORT --db PATH --token TOKEN --pid-file PATH"""

import argparse
import logging
import os
import signal
import sys
from concurrent import futures
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from examples.gitm_land7.contract import load
from examples.gitm_land7.servicer import LandBridge
from examples.gitm_land7.store import Store
from gitm.v1 import land_pb2_grpc

SERVICE = "gitm.v1.LandBridge"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m examples.gitm_land7")
    parser.add_argument("--addr", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--token", default=os.environ.get("PATE_GITM_TOKEN", ""))
    parser.add_argument("--pid-file", default="")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    host = args.addr.rsplit(":", 1)[0]
    # This service serves plaintext only, which the contract allows on loopback alone
    # (docs/gitm.md "Security between the services": off loopback, mutual TLS and the token).
    if host not in ("127.0.0.1", "localhost", "[::1]"):
        parser.error("--addr must be a loopback address: this service has no TLS")
    store = Store(args.db)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    land_pb2_grpc.add_LandBridgeServicer_to_server(LandBridge(store, load(), args.token), server)
    checker = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    for name in ("", SERVICE):
        checker.set(name, health_pb2.HealthCheckResponse.SERVING)
    if server.add_insecure_port(args.addr) == 0:
        print(f"cannot listen on {args.addr}", file=sys.stderr)
        return 1
    server.start()
    if args.pid_file:
        Path(args.pid_file).write_text(f"{os.getpid()}\n")
    logging.getLogger("gitm_land7").info("serving %s on %s", SERVICE, args.addr)

    def stop(*_: object) -> None:
        server.stop(grace=2).wait()
        store.close()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.wait_for_termination()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
