"""Close -> next turn open with every report stored, one training campaign on an idle stack.

The real services (four stages, each its own process, over NATS JetStream and SQLite) carry
one training campaign turn after turn: the game master closes the turn (CampaignAdmin.
CloseTurn) and the client polls every 10 ms until the next turn is open (which the orders
service does only once the reports stage has stored every player's report) and one
player's report of the closed turn is readable.  The stages between come from the
services' own log lines (turn_closed, turn_resolved, intel_ready, reports_ready,
turn_opened), each shown as p50/p95 after the close was sent.

    python -m benchmarks close_open --turns 8
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from benchmarks.bench_solo import STEPS, Player, _pq, log_times
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client

READER = "cornwallis"  # whose report of the closed turn is read


def options(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks close_open", description=__doc__.split("\n\n")[0])
    p.add_argument("--turns", type=int, default=8, help="turns closed (at most 14)")
    return p.parse_args(argv or [])


def turns_closed(cluster: Cluster, turns: int, name: str) -> list[dict[str, float]]:
    """Each turn's steps, in seconds after its close was sent."""
    client = Client(cluster)
    try:
        client.create(name)
        client.wait_open(name, 1)
        reader = Player(client, name, client.token(name, READER))
        reader.until_open(1)
        rows = []
        for turn in range(1, turns + 1):
            at = time.time()
            client.close_turn(name, turn)
            opened, readable = reader.until_open(turn + 1)
            rows.append({"turn": turn, "at": at, "opened": opened - at, "readable": readable - at})
        times = log_times(cluster.workdir / "logs", name)
    finally:
        client.close()
    for row in rows:
        t, at = int(row["turn"]), row["at"]
        for step in STEPS:
            got = times.get((step, t + 1 if step == "turn_opened" else t))
            row[step] = got - at if got else float("nan")
    return rows


def measure(turns: int) -> list[dict[str, float]]:
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        env = {"PATE_LOG_LEVEL": "info"}
        cluster = Cluster(Path(tmp), nats.url, f"sqlite:///{tmp}/turns.db", extra_env=env)
        try:
            cluster.start_all()
            cluster.wait_serving()
            return turns_closed(cluster, turns, "bench-close-open")
        finally:
            cluster.stop()


def figures(rows: list[dict[str, float]]) -> list[tuple[str, str]]:
    head = f"training, {len(rows)} turns:"
    out = [
        (f"{head} close -> next turn open p50/p95 ms", _pq([r["opened"] for r in rows])),
        (f"{head} close -> his report readable p50/p95 ms", _pq([r["readable"] for r in rows])),
    ]
    out += [(f"{head}   {step} after the close p50/p95 ms", _pq([r[step] for r in rows])) for step in STEPS]
    return out


def run(argv: list[str] | None = None) -> list[tuple[str, str]]:
    args = options(argv)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rows = figures(measure(max(1, min(args.turns, 14))))
    return [("load average before (1, 5, 15 min)", load), *rows]
