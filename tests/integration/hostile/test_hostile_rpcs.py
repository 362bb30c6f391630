"""Hostile input to every RPC of every PATE service.

The RPCs are found in the contracts' descriptors (pate.v1 and gitm.v1), so an
RPC added later is attacked without a change here; the servers are found by
gRPC reflection.  Requests are built field by field from the descriptors with
hypothesis: control characters (NUL, newline, escape), huge strings and
numbers, out-of-range timestamps, scenario TOML nested thousands deep, path
names, SQL, unicode.  Every answer must be a status the caller can act on
(never UNKNOWN or INTERNAL), carry no SQL and no traceback, and be short; a
refusal stores nothing; no service logs a traceback.  Runs on SQLite, and on
PostgreSQL when PATE_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import pkgutil
import re
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from hypothesis import HealthCheck, given, settings

import gitm.v1
import pate.v1
from pate.v1 import admin_pb2
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from services.platform.security.quoting import MAX_DETAIL_CHARS
from services.platform.store import tables
from services.platform.store.db import make_engine, reader
from tests.e2e.flow import Client
from tests.support.hostile_messages import CAMPAIGN, CURRENT_TURN, PASSWORD, messages, metadata
from tests.support.servers import fresh_schema

pytestmark = pytest.mark.integration

PROTO = Path(__file__).resolve().parents[3] / "proto"
# The players' services first, while the hostile campaign is still at its first turn; then the
# administrator's (which closes turns) and the bot seats' (which may make the campaign solo).
LATE = ("pate.v1.admin_pb2", "pate.v1.bots_pb2")

DEBUG = bool(os.environ.get("HOSTILE_DEBUG"))
EXAMPLES = 15  # per RPC: the suite stays well under a minute per database
# Long polls held until there is work or for up to their request's timeout (a minute): asked with
# a short deadline, whose expiry (DEADLINE_EXCEEDED) is an answer like any refusal.
LONG_POLLS = {"WaitForWork": 2.0}

# Tables whose rows a refused request must leave as they were.  ``audit`` is left
# out on purpose: a refused order submission is audited by design.
STATE_TABLES = (
    "campaigns",
    "players",
    "world_states",
    "turn_events",
    "resolutions",
    "orders",
    "stores_moves",
    "order_requests",
    "knowledge",
    "reports",
    "outbox",
    "processed_messages",
)
FORBIDDEN = {grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
SQL = re.compile(
    r"\b(select|insert|update|delete)\b.*\b(from|into|set|where)\b|sqlalchemy|psycopg|sqlite3|\[SQL:|"
    r"Traceback|File \"",
    re.IGNORECASE | re.DOTALL,
)
NAMES_A_FIELD = re.compile(r"(metadata )?[a-z_][a-z0-9_.\[\]-]*: ")  # "orders[0].movement.port: ..."
SETTLED = {admin_pb2.TURN_STATUS_OPEN, admin_pb2.TURN_STATUS_FINISHED}


def _contracts() -> list[ModuleType]:
    """Every generated message module of pate.v1 and gitm.v1, found by listing the packages, so a
    contract added later is attacked without a change here."""
    found = [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for package in (pate.v1, gitm.v1)
        for info in pkgutil.iter_modules(package.__path__)
        if info.name.endswith("_pb2")
    ]

    def order(mod: ModuleType) -> tuple[bool, int, str]:
        late = LATE.index(mod.__name__) if mod.__name__ in LATE else -1
        return mod.__name__.startswith("gitm."), late, mod.__name__

    return sorted(found, key=order)


def _methods() -> list[MethodDescriptor]:
    return [m for mod in _contracts() for s in mod.DESCRIPTOR.services_by_name.values() for m in s.methods]


def _declared() -> set[str]:
    """Every RPC the .proto files declare, read from their text: ``package.Service.Method``."""
    out = set()
    for path in sorted(PROTO.glob("*/v1/*.proto")):
        text = path.read_text()
        package = re.search(r"^package ([\w.]+);", text, re.MULTILINE)
        assert package, path
        for service, body in re.findall(r"^service (\w+) \{(.*?)^\}", text, re.MULTILINE | re.DOTALL):
            out |= {f"{package.group(1)}.{service}.{rpc}" for rpc in re.findall(r"\brpc (\w+)\s*\(", body)}
    return out


def test_every_declared_rpc_is_attacked() -> None:
    """The attack below is parametrized by _methods(): it must hold every RPC of the contracts
    (ConfirmOrders, SetEarlyClose, the messages, the failed-turn calls, BotAdmirals, Sessions ...)."""
    declared = _declared()
    attacked = {m.full_name for m in _methods()}
    assert len(declared) >= 40 and "pate.v1.BotAdmirals.HandToBot" in declared  # the reading works
    assert declared - attacked == set(), "RPCs left out of the hostile suite"
    assert attacked - declared == set(), "RPCs attacked that no .proto declares"


def _served(addr: str) -> set[str]:
    with grpc.insecure_channel(addr) as ch:
        stub = reflection_pb2_grpc.ServerReflectionStub(ch)
        asked = iter([reflection_pb2.ServerReflectionRequest(list_services="")])
        replies = list(stub.ServerReflectionInfo(asked))  # read to the end: the stream closes cleanly
        return {s.name for r in replies for s in r.list_services_response.service}


class Target:
    def __init__(self, cluster: Cluster, url: str, client: Client) -> None:
        self.cluster, self.url, self.client = cluster, url, client
        self.engine = make_engine(url)
        self.servers = {
            name: addr for addr in (cluster.orders_addr, cluster.reports_addr) for name in _served(addr)
        }
        self.channels = {addr: grpc.insecure_channel(addr) for addr in set(self.servers.values())}

    def close(self) -> None:
        for ch in self.channels.values():
            ch.close()
        self.engine.dispose()

    def fingerprint(self) -> str:
        digest = hashlib.sha256()
        with reader(self.engine) as conn:
            for name in STATE_TABLES:
                t = tables.metadata.tables[name]
                digest.update(
                    f"{name}:{conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()};".encode()
                )
            for name in ("campaigns", "players"):
                t = tables.metadata.tables[name]
                for row in conn.execute(sa.select(t).order_by(*t.primary_key.columns)):
                    digest.update(repr(tuple(row)).encode())
        return digest.hexdigest()

    def settle(self, deadline_set: bool) -> None:
        """After an accepted call: let the deadline scheduler and the pipeline finish its effects."""
        if deadline_set:
            time.sleep(1.5)  # one deadline poll (PATE_DEADLINE_POLL_SECONDS=1) and a little
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            listed = self.client.admin.ListCampaigns(
                admin_pb2.ListCampaignsRequest(), metadata=self.client.admin_md, timeout=10
            )
            with reader(self.engine) as conn:
                pending = conn.execute(
                    sa.select(sa.func.count()).where(
                        tables.outbox.c.published_at.is_(None), tables.outbox.c.quarantined_at.is_(None)
                    )
                ).scalar_one()
            if pending == 0 and all(c.status in SETTLED for c in listed.campaigns):
                time.sleep(0.3)
                CURRENT_TURN[0] = next(c.turn for c in listed.campaigns if c.id == CAMPAIGN)
                return
            time.sleep(0.2)
        raise AssertionError("the cluster did not settle after an accepted call")


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory, postgres_session_url: str | None) -> Iterator[Target]:
    workdir: Path = tmp_path_factory.mktemp("hostile")
    url = fresh_schema(postgres_session_url) if postgres_session_url else f"sqlite:///{workdir}/pate.db"
    # A NATS of its own: the session's carries other tests' deliberately broken messages,
    # whose handling would be logged by these services.
    nats = NatsServer(data_dir=workdir / "nats").start()
    cluster = Cluster(workdir=workdir, nats_url=nats.url, database_url=url)
    found = None
    try:
        cluster.start_all()
    except BaseException:
        cluster.stop()
        nats.stop()
        raise
    client = Client(cluster)
    try:
        client.create(CAMPAIGN)
        client.wait_open(CAMPAIGN, 1)
        for player in ("cornwallis", "ganteaume", "admin"):
            client.admin.SetPlayerPassword(
                admin_pb2.SetPlayerPasswordRequest(campaign_id=CAMPAIGN, player_id=player, password=PASSWORD),
                metadata=client.admin_md,
                timeout=30,
            )
        found = Target(cluster, url, client)
        yield found
        for log in (workdir / "logs").glob("*.log"):
            bad = [line for line in log.read_text(errors="replace").splitlines() if "Traceback" in line]
            assert not bad, f"{log.name} logged a traceback: {bad[0][:3000]}"
    finally:
        if found is not None:
            found.close()
        client.close()
        cluster.stop()
        nats.stop()


@pytest.mark.parametrize("method", _methods(), ids=lambda m: m.full_name)
def test_every_rpc_answers_hostile_input_cleanly(target: Target, method: MethodDescriptor) -> None:
    service = method.containing_service.full_name
    addr = target.servers.get(service)
    if addr is None:
        assert not service.startswith("pate."), f"no PATE server serves {service}"
        pytest.skip(f"{service} is served by GITM, not by PATE")
    response_cls = message_factory.GetMessageClass(method.output_type)
    call = target.channels[addr].unary_unary(
        f"/{service}/{method.name}",
        request_serializer=lambda m: m.SerializeToString(),
        response_deserializer=response_cls.FromString,
    )

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
    @given(request=messages(method.input_type), md=metadata(target.cluster.admin_token))
    def attack(request: Any, md: tuple[tuple[str, str], ...]) -> None:
        before = target.fingerprint()
        try:
            call(request, metadata=md, timeout=LONG_POLLS.get(method.name, 60))
            if DEBUG:
                print("CODE", method.name, "OK")
        except grpc.RpcError as err:
            code, details = err.code(), err.details() or ""
            if DEBUG:
                print("CODE", method.name, code.name, details[:100].replace("\n", " "))
            assert code not in FORBIDDEN, f"{method.full_name}: {code}: {details[:300]}"
            assert not SQL.search(details), f"{method.full_name}: the reply carries SQL or a traceback"
            assert len(details) <= MAX_DETAIL_CHARS, f"{method.full_name}: a {len(details)}-character reply"
            if code == grpc.StatusCode.INVALID_ARGUMENT:
                assert NAMES_A_FIELD.match(details), f"{method.full_name}: names no field: {details[:200]}"
            assert target.fingerprint() == before, f"{method.full_name}: a refusal ({code}) stored something"
            return
        target.settle(deadline_set=method.name in ("SetDeadline", "CreateCampaign"))

    attack()
