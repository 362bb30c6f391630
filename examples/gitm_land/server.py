"""Starting the server: address, store, map, token, TLS, health and reflection."""

from __future__ import annotations

import ipaddress
import logging
import signal
import threading
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from examples.gitm_land.cities import DEFAULT_MAP, load_cities
from examples.gitm_land.land import Land
from examples.gitm_land.service import LandBridge, TokenCheck
from examples.gitm_land.store import Store
from gitm.v1 import land_pb2, land_pb2_grpc

log = logging.getLogger("gitm_land")
SERVICE_NAME = "gitm.v1.LandBridge"


@dataclass
class Settings:
    addr: str = "127.0.0.1:50061"
    db: Path = Path("var/gitm-land.db")
    maps: list[Path] = field(default_factory=lambda: [DEFAULT_MAP])
    token: str = ""
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_client_ca: Path | None = None
    workers: int = 16


def is_loopback(addr: str) -> bool:
    host = addr.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _credentials(s: Settings) -> grpc.ServerCredentials | None:
    if s.tls_cert is None or s.tls_key is None:
        return None
    pair = [(s.tls_key.read_bytes(), s.tls_cert.read_bytes())]
    if s.tls_client_ca is None:
        return grpc.ssl_server_credentials(pair)
    return grpc.ssl_server_credentials(
        pair, root_certificates=s.tls_client_ca.read_bytes(), require_client_auth=True
    )


def build(s: Settings) -> tuple[grpc.Server, Store]:
    """A started server; the caller stops it and closes the store."""
    credentials = _credentials(s)
    if not is_loopback(s.addr) and (not s.token or credentials is None):
        raise SystemExit("off loopback the land service needs both a token and TLS")
    if len(s.token) > 1024:
        raise SystemExit("the caller token is longer than 1,024 characters")
    store = Store(s.db)
    land = Land(store=store, cities=load_cities(s.maps))
    interceptors = [TokenCheck(s.token)] if s.token else []
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=s.workers), interceptors=interceptors)
    land_pb2_grpc.add_LandBridgeServicer_to_server(LandBridge(land), server)
    checker = health.HealthServicer()
    for name in ("", SERVICE_NAME):
        checker.set(name, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    names = (
        land_pb2.DESCRIPTOR.services_by_name["LandBridge"].full_name,
        health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
        reflection.SERVICE_NAME,
    )
    reflection.enable_server_reflection(names, server)
    if credentials is None:
        server.add_insecure_port(s.addr)
    else:
        server.add_secure_port(s.addr, credentials)
    server.start()
    log.info("gitm_land serving on %s, %d cities, store %s", s.addr, len(land.cities), s.db)
    return server, store


def serve(s: Settings) -> None:
    """Serve until SIGTERM or SIGINT; in-flight calls finish first (their answers are stored)."""
    server, store = build(s)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    while not stop.wait(0.2):  # a short wait, so that the signal handler runs at once
        pass
    server.stop(grace=5).wait()
    store.close()
    log.info("gitm_land stopped")
