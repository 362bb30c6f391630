"""A deadline rush: many players, each logged in (a session), each
submitting their orders at a random moment of the last seconds before the
deadline of their campaign's turn.

Players come from grand1805 campaigns (29 players each; as many campaigns as
the player count needs); each player orders one ship he commands, deputises
or (a naval minister) one of his state's.  Every submission must be
accepted; after the deadline closed the turn, every accepted submission must
be among the turn's stored orders (none lost).  Prints accepted, lost, p50 /
p99 / max latency and the rate at the peak second.

PATE_BENCH_RUSH_PLAYERS (default 1000) and PATE_BENCH_RUSH_SECONDS (default
60) set the size; PostgreSQL when a server answers, else SQLite.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import tempfile
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import sqlalchemy as sa
from google.protobuf.timestamp_pb2 import Timestamp

from benchmarks.bench_platform import _order, _postgres
from pate.core.intel.knowledge import own_ships
from pate.datafiles import load_scenario
from pate.v1 import admin_pb2
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from services.platform.store.db import make_engine, reader
from services.platform.store.tables import orders
from tests.e2e.flow import Client

SCENARIO = "grand1805"
PLAYERS = int(os.environ.get("PATE_BENCH_RUSH_PLAYERS", "1000"))
WINDOW_SECONDS = float(os.environ.get("PATE_BENCH_RUSH_SECONDS", "60"))
CLIENT_THREADS = 64  # concurrent submissions at most (the players' browsers)
MARGIN_SECONDS = 5.0  # from the last planned submission to the deadline


@dataclass
class RushResult:
    planned: int
    accepted: set[tuple[str, str]] = field(default_factory=set)  # (campaign, request id)
    refused: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # seconds after the rush began
    stored: set[tuple[str, str]] = field(default_factory=set)

    @property
    def lost(self) -> int:
        return len(self.accepted - self.stored)


def _players_with_ships() -> list[tuple[str, str]]:
    """(player, one ship whose orders he may give) of the scenario, in id order."""
    world = load_scenario(SCENARIO).world
    out = []
    for pid in sorted(world.players):
        ships = [s for s in own_ships(world.players[pid], world) if world.ships[s].active]
        if ships:  # an inactive ship takes only "reactivate" (rule 2.6)
            out.append((pid, ships[0]))
    return out


def setup(client: Client, players: int) -> list[tuple[str, str, str]]:
    """Campaigns enough for ``players``; every player logged in.  (campaign, player, ship)."""
    cast = _players_with_ships()
    campaigns = [f"rush-{uuid.uuid4().hex[:8]}" for _ in range(math.ceil(players / len(cast)))]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda c: client.create(c, SCENARIO), campaigns))
    for c in campaigns:
        client.wait_open(c, 1, timeout=300)
    seats = [(c, p, s) for c in campaigns for p, s in cast][:players]
    with ThreadPoolExecutor(4) as pool:  # sessions first: no password on the rush's path
        list(pool.map(lambda seat: client.token(seat[0], seat[1]), seats))
    return seats


def rush(client: Client, seats: list[tuple[str, str, str]], window: float, seed: int = 15) -> RushResult:
    """Every seat submits once at a random moment of ``window`` seconds before the deadline."""
    campaigns = sorted({c for c, _, _ in seats})
    begin = time.monotonic()
    deadline = datetime.now(UTC) + timedelta(seconds=window + MARGIN_SECONDS)
    stamp = Timestamp()
    stamp.FromDatetime(deadline)
    for c in campaigns:
        req = admin_pb2.SetDeadlineRequest(campaign_id=c, turn=1, deadline=stamp)
        client.admin.SetDeadline(req, metadata=client.admin_md, timeout=30)
    rng = random.Random(seed)
    plan = sorted((rng.uniform(0, window), seat) for seat in seats)
    result = RushResult(planned=len(plan))
    lock = threading.Lock()

    def one(at: float, seat: tuple[str, str, str]) -> None:
        campaign, player, ship = seat
        time.sleep(max(0.0, begin + at - time.monotonic()))
        rid = uuid.uuid4().hex
        t0 = time.monotonic()
        try:
            client.submit(campaign, 1, player, [_order(ship)], request_id=rid)
        except grpc.RpcError as err:
            with lock:
                result.refused.append(f"{campaign}/{player}: {err.code().name} {err.details()}")
            return
        t1 = time.monotonic()
        with lock:
            result.accepted.add((campaign, rid))
            result.latencies.append(t1 - t0)
            result.sent_at.append(t0 - begin)

    with ThreadPoolExecutor(CLIENT_THREADS) as pool:
        list(pool.map(lambda p: one(*p), plan))
    for c in campaigns:  # the deadline closes every turn; then the orders are the turn's
        client.wait_open(c, 2, timeout=300)
    result.stored = _stored(client.cluster.database_url, campaigns)
    return result


def _stored(database_url: str, campaigns: list[str]) -> set[tuple[str, str]]:
    engine = make_engine(database_url)
    try:
        with reader(engine) as conn:
            rows = conn.execute(
                sa.select(orders.c.campaign, orders.c.client_request_id).where(
                    orders.c.campaign.in_(campaigns), orders.c.turn == 1
                )
            ).all()
    finally:
        engine.dispose()
    return {(r.campaign, r.client_request_id) for r in rows}


def _rows(name: str, r: RushResult, window: float) -> list[tuple[str, str]]:
    q = statistics.quantiles(r.latencies, n=100) if len(r.latencies) > 1 else [0.0] * 99
    peak = max(Counter(int(t) for t in r.sent_at).values(), default=0)
    return [
        (
            f"rush, {name}: players submitting in the last {window:.0f} s",
            f"{r.planned} ({len(r.accepted)} accepted, {len(r.refused)} refused, {r.lost} lost)",
        ),
        (
            f"  rush, {name}: latency p50 / p99 / max",
            f"{q[49] * 1000:.0f} / {q[98] * 1000:.0f} / {max(r.latencies, default=0) * 1000:.0f} ms",
        ),
        (f"  rush, {name}: submissions in the busiest second", str(peak)),
        *((f"  rush, {name}: refused", why) for why in r.refused[:3]),
    ]


def run() -> list[tuple[str, str]]:
    with (
        tempfile.TemporaryDirectory() as tmp,
        NatsServer(data_dir=Path(tmp) / "nats") as nats,
        _postgres() as pg,
    ):
        name, url = ("PostgreSQL", pg) if pg else ("SQLite", f"sqlite:///{tmp}/rush.db")
        cluster = Cluster(workdir=Path(tmp) / "w", nats_url=nats.url, database_url=url)
        try:
            cluster.start_all()
            client = Client(cluster)
            try:
                seats = setup(client, PLAYERS)
                result = rush(client, seats, WINDOW_SECONDS)
            finally:
                client.close()
        finally:
            cluster.stop()
    return _rows(name, result, WINDOW_SECONDS)


if __name__ == "__main__":
    for label, figure in run():
        print(f"{label:<60} {figure}")
