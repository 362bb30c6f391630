"""Fifteen turns of grand1805 under the EiA operations rules through the real
stack (nats-server, the four services, SQLite), a bot in every seat declaring
the operations the desk offers (tests/e2e/ops_flow.py).  Figures: the time to
read every desk and send the orders, the time from closing a turn to the next
one open (the resolution and the reports), the operations declared and the
reports read back.  Wall times: say the machine's load beside them (printed).

``python -m benchmarks ops_campaign [--turns N]``; not part of ``make test``
(the e2e test plays two turns)."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client
from tests.e2e.ops_flow import TurnFigures, play

TURNS = 15


def _rows(
    turns: list[TurnFigures], wall: float, cpu: float, load: tuple[float, float]
) -> list[tuple[str, str]]:
    resolve = [t.seconds_resolve for t in turns]
    send = [t.seconds_orders for t in turns]
    events: dict[str, int] = {}
    for t in turns:
        for k, n in t.events.items():
            events[k] = events.get(k, 0) + n
    kinds = ("operation_revealed", "interception", "contest", "column_battle", "trade_route", "treasury")
    return [
        ("turns resolved (grand1805, eia-operations, a bot in every seat)", f"{len(turns)}"),
        (
            "operations declared per turn (mean, min, max)",
            f"{statistics.mean(t.orders for t in turns):.0f}, "
            f"{min(t.orders for t in turns)}, {max(t.orders for t in turns)}",
        ),
        ("reports read back per turn (min)", f"{min(t.reports for t in turns)}"),
        ("close to next turn open, s (mean, max)", f"{statistics.mean(resolve):.1f}, {max(resolve):.1f}"),
        ("reading the desks and sending the orders, s per turn (mean)", f"{statistics.mean(send):.1f}"),
        ("whole run, wall s / this process's CPU s", f"{wall:.0f} / {cpu:.0f}"),
        ("load average at start / end (1 min)", f"{load[0]:.1f} / {load[1]:.1f}"),
        (
            "events seen by the players in all (" + ", ".join(kinds) + ")",
            ", ".join(str(events.get(k, 0)) for k in kinds),
        ),
    ]


def run(argv: list[str] | None = None) -> list[tuple[str, str]]:
    ap = argparse.ArgumentParser(prog="python -m benchmarks ops_campaign")
    ap.add_argument("--turns", type=int, default=TURNS)
    args = ap.parse_args(argv or [])
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        work = Path(tmp)
        cluster = Cluster(workdir=work, nats_url=nats.url, database_url=f"sqlite:///{work}/pate.db")
        try:
            cluster.start_all()
            cluster.wait_serving()
            client = Client(cluster)
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                turns = play(client, "bench-ops", args.turns)
            finally:
                client.close()
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            replay = subprocess.run(
                [sys.executable, "-m", "pate.cli.main", "turn", "replay", "bench-ops", str(args.turns)],
                env=cluster.env,
                check=False,
                capture_output=True,
                text=True,
                timeout=900,
            )
            replayed = "identical" if replay.returncode == 0 and "identical" in replay.stdout else "DIFFERENT"
        finally:
            cluster.stop()
    rows = _rows(turns, wall, cpu, (load0, os.getloadavg()[0]))
    return [*rows, (f"turn {args.turns} replayed from the store", replayed)]


if __name__ == "__main__":
    for label, figure in run(sys.argv[1:]):
        print(f"  {label:<60} {figure}")
