"""python -m examples.gitm_land4 --addr 127.0.0.1:PORT --db PATH --token TOKEN"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import signal
import sys
from pathlib import Path

import grpc

from examples.gitm_land4 import contract, server
from examples.gitm_land4.store import Store


def _loopback(addr: str) -> bool:
    host = addr.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _credentials(args: argparse.Namespace) -> grpc.ServerCredentials | None:
    if not args.tls_cert:
        return None
    key = Path(args.tls_key).read_bytes()
    cert = Path(args.tls_cert).read_bytes()
    client_ca = Path(args.tls_client_ca).read_bytes() if args.tls_client_ca else None
    return grpc.ssl_server_credentials(
        [(key, cert)], root_certificates=client_ca, require_client_auth=client_ca is not None
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m examples.gitm_land4")
    parser.add_argument("--addr", default="127.0.0.1:50060")
    parser.add_argument("--db", required=True, help="the SQLite file of the land's store")
    parser.add_argument(
        "--token", action="append", default=[],
        help="PATE's caller token (repeat it while a token changes); default $PATE_GITM_TOKEN",
    )  # fmt: skip
    parser.add_argument("--tls-cert", default="")
    parser.add_argument("--tls-key", default="")
    parser.add_argument("--tls-client-ca", default="", help="PATE's CA: mutual TLS")
    parser.add_argument(
        "--client-uri", default="",
        help="with mutual TLS: the URI SAN PATE's certificate must carry (spiffe://pate/resolver)",
    )  # fmt: skip
    parser.add_argument("--pid-file", default="")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    tokens = [t.strip() for t in args.token if t.strip()]
    if not tokens and os.environ.get("PATE_GITM_TOKEN", "").strip():
        tokens = [os.environ["PATE_GITM_TOKEN"].strip()]
    if not _loopback(args.addr) and not (tokens and args.tls_client_ca):
        print("off loopback, a token and mutual TLS are required", file=sys.stderr)
        return 2
    store = Store(Path(args.db))
    grpc_server, _ = server.build(
        args.addr, store, contract.load(), tokens, _credentials(args), client_uri=args.client_uri
    )
    grpc_server.start()
    if args.pid_file:
        Path(args.pid_file).write_text(f"{os.getpid()}\n", encoding="utf-8")
    logging.getLogger("gitm_land4").info("serving gitm.v1.LandBridge on %s", args.addr)

    def stop(_signum: int, _frame: object) -> None:
        grpc_server.stop(grace=2)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    grpc_server.wait_for_termination()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
