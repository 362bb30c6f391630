"""Hostile input to every RPC of every PATE service (issue 10, "Done when").

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
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor
from google.protobuf.timestamp_pb2 import Timestamp
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitm.v1 import land_pb2
from pate.datafiles import data_dir
from pate.v1 import admin_pb2, orders_pb2, reports_pb2
from services.common import tables
from services.common.cluster import Cluster
from services.common.db import make_engine, reader
from services.common.limits import MAX_DETAIL_CHARS
from services.common.natsserver import NatsServer
from tests.e2e.flow import Client
from tests.support.servers import fresh_schema

pytestmark = pytest.mark.integration

# The players' services first, while the hostile campaign is still at its first turn.
CONTRACTS = (orders_pb2, reports_pb2, admin_pb2, land_pb2)
CAMPAIGN = "hostile"
PASSWORD = "hostile-password"

DEBUG = bool(os.environ.get("HOSTILE_DEBUG"))
EXAMPLES = 15  # per RPC: the suite stays well under a minute per database

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
SETTLED = {admin_pb2.TURN_STATUS_OPEN, admin_pb2.TURN_STATUS_FINISHED}


def _deep(opening: str, closing: str, depth: int = 5000) -> str:
    return "a = " + opening * depth + "1" + closing * depth + "\n"


def _scenario_with(old: str, new: str) -> str:
    text = (data_dir() / "scenarios" / "training.toml").read_text()
    return text.replace(old, new, 1)


HOSTILE_TEXTS = [
    "",
    CAMPAIGN,
    "cornwallis",
    "ganteaume",
    "admin",
    "training",
    "BR1FL",
    "ECH",
    "Brest",
    "engage",
    "json",
    "nl\n",
    f"{CAMPAIGN}\n",
    "a\x00b",
    "\x00",
    "\x1b[31m",
    "\u202eevil",
    "é" * 300,
    "x" * 5000,
    "y" * 300_000,
    "z" * (5 * 1024 * 1024),  # over the server's message limit
    "training.toml",
    "pyproject.toml",
    "../../pyproject",
    "/etc/passwd",
    "'; DROP TABLE campaigns; --",
    "order BR1FL\n  combat engage\n",
    "order BR1FL\n" * 40_000,
    _deep("[", "]"),
    _deep("{b = ", "}"),
    ".".join(["k"] * 5000) + " = 1\n",
    _scenario_with("[players.cornwallis]", '[players."corn\\nwallis"]'),
    _scenario_with('name = "training"', 'name = "' + "n" * 500 + '"'),
]
texts = st.one_of(
    st.sampled_from(HOSTILE_TEXTS),
    st.text(st.characters(codec="utf-8"), max_size=40),
    st.text(st.sampled_from("\x00\n\r\t\x1b\x7f\u2028a-"), min_size=1, max_size=8),
)
SPECIAL_INTS = [0, 1, -1, 2, 15, 100, 101, 2**31 - 1, -(2**31), 2**40, 2**63 - 1, 2**63, 2**64 - 1]
INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
}
timestamps = st.builds(
    Timestamp,
    seconds=st.sampled_from(
        [0, -1, -62135596801, 253402300800, 2**62, -(2**62), int(time.time()) + 3600, int(time.time()) - 60]
    ),
    nanos=st.sampled_from([0, 999_999_999, -1, 1_000_000_000]),
)


# Plausible values by field name: most fields of a request are sound and one or two
# hostile, so that the attack reaches past the first check into the services' code.
PLAUSIBLE: dict[str, list[Any]] = {
    "id": ["h-new1", "h-new2", CAMPAIGN],
    "campaign_id": [CAMPAIGN],
    "scenario": ["training"],
    "scenario_toml": [(data_dir() / "scenarios" / "training.toml").read_text()],
    "player_id": ["cornwallis", "ganteaume", ""],
    "password": [PASSWORD],
    "turn": [0, 1],
    "turns": [0, 3],
    "seed": [0, 7],
    "turn_seconds": [0, 3600],
    "client_request_id": ["r-1", "r-2", "r-3"],
    "orders_text": ["order BR1FL\n  combat engage\n", "order FR1FL\n  move ECH\n"],
    "ship_id": ["BR1FL", "BR1SL", "FR1FL"],
    "ship_ids": ["BR1FL"],
    "attach_to": ["BR1FL"],
    "sea_areas": ["ECH", "BIS"],
    "port": ["Brest", "Plymouth"],
    "format": ["json", "text", "html"],
    "mode": ["pursue", "evade"],
    "stance": ["engage"],
    "origin": ["Brest"],
    "destination": ["Plymouth"],
    "amount": [1, 5],
}


CURRENT_TURN = [1]  # the hostile campaign's open turn, followed as accepted calls close turns


def _ints(kind: int) -> st.SearchStrategy[int]:
    lo, hi = INT_RANGES.get(kind, (-(2**31), 2**31 - 1))
    return st.sampled_from([i for i in SPECIAL_INTS if lo <= i <= hi]) | st.integers(lo, hi)


def _field(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    hostile = _hostile(field, depth)
    plausible = PLAUSIBLE.get(field.name)
    if plausible is None:
        return hostile
    sound = st.sampled_from(plausible)
    if field.name == "turn":
        sound = sound | st.builds(lambda: CURRENT_TURN[0])
    return st.integers(0, 3).flatmap(lambda i: hostile if i == 0 else sound)


def _hostile(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    if field.message_type is not None:
        if field.message_type.full_name == "google.protobuf.Timestamp":
            return timestamps
        return messages(field.message_type, depth + 1)
    if field.type == FieldDescriptor.TYPE_STRING:
        return texts
    if field.type == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=64) | st.just(b"\x00" * 100_000)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if field.type == FieldDescriptor.TYPE_ENUM:
        return st.sampled_from([v.number for v in field.enum_type.values])
    if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return st.floats(allow_nan=True, width=32 if field.type == FieldDescriptor.TYPE_FLOAT else 64)
    return _ints(field.type)


def messages(descriptor: Descriptor, depth: int = 0) -> st.SearchStrategy[Any]:
    """A message of this type with any of its fields set to hostile values."""
    cls = message_factory.GetMessageClass(descriptor)
    fields = {}
    for field in descriptor.fields:
        if depth > 3 and field.message_type is not None:
            continue
        one = _field(field, depth)
        many: st.SearchStrategy[Any] = st.lists(one, max_size=3)
        if field.is_repeated:
            if field.message_type is None:
                short = (
                    st.sampled_from(["", "BR1FL", "a\x00"])
                    if field.type == FieldDescriptor.TYPE_STRING
                    else one
                )
                many = many | st.builds(lambda v: [v] * 600, short)
            fields[field.name] = many
        else:
            fields[field.name] = one
    # Fields with plausible values are always sent (the request gets past "is required"), others sometimes.
    chosen = st.fixed_dictionaries(
        {k: v for k, v in fields.items() if k in PLAUSIBLE},
        optional={k: v for k, v in fields.items() if k not in PLAUSIBLE},
    )

    def build(values: dict[str, Any]) -> Any:
        msg = cls()
        for name, value in values.items():
            target = getattr(msg, name) if descriptor.fields_by_name[name].is_repeated else None
            if target is not None:
                if descriptor.fields_by_name[name].message_type is not None:
                    for v in value:
                        target.add().CopyFrom(v)
                else:
                    target.extend(value)
            elif descriptor.fields_by_name[name].message_type is not None:
                getattr(msg, name).CopyFrom(value)
            else:
                setattr(msg, name, value)
        return msg

    return chosen.map(build)


def _methods() -> list[MethodDescriptor]:
    return [m for mod in CONTRACTS for s in mod.DESCRIPTOR.services_by_name.values() for m in s.methods]


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


def _metadata(admin_token: str) -> st.SearchStrategy[tuple[tuple[str, str], ...]]:
    players = st.sampled_from(
        ["cornwallis", "cornwallis", "ganteaume", "admin", "", "nobody", "x" * 5000, "a b"]
    )
    passwords = st.sampled_from([PASSWORD, PASSWORD, PASSWORD, "", "wrong", "p" * 2000])
    tokens = st.sampled_from([admin_token, admin_token, "", "wrong"])
    return st.tuples(players, passwords, tokens).map(
        lambda t: tuple(
            (k, v)
            for k, v in (("x-pate-player", t[0]), ("x-pate-password", t[1]), ("x-pate-admin-token", t[2]))
            if v
        )
    )


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
    @given(request=messages(method.input_type), md=_metadata(target.cluster.admin_token))
    def attack(request: Any, md: tuple[tuple[str, str], ...]) -> None:
        before = target.fingerprint()
        try:
            call(request, metadata=md, timeout=60)
            if DEBUG:
                print("CODE", method.name, "OK")
        except grpc.RpcError as err:
            code, details = err.code(), err.details() or ""
            if DEBUG:
                print("CODE", method.name, code.name, details[:100].replace("\n", " "))
            assert code not in FORBIDDEN, f"{method.full_name}: {code}: {details[:300]}"
            assert not SQL.search(details), f"{method.full_name}: the reply carries SQL or a traceback"
            assert len(details) <= MAX_DETAIL_CHARS, f"{method.full_name}: a {len(details)}-character reply"
            assert target.fingerprint() == before, f"{method.full_name}: a refusal ({code}) stored something"
            return
        target.settle(deadline_set=method.name in ("SetDeadline", "CreateCampaign"))

    attack()
