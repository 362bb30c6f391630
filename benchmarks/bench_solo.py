"""A solo player's wait (docs/operations.md "The solo wait"): the time from his Confirm to his
next turn open with his reports readable, over the real services (four stages and the bot
admiral, each its own process, over NATS JetStream and SQLite).

He makes a solo campaign of the training scenario (``--scenario trafalgar``: of that one) from
a session in an ordinary campaign (BotAdmirals.CreateSolo, as the web desk does), then turn
after turn waits ``--think`` seconds after his turn opens (0: he confirms at once, racing the
bot) and confirms. The client polls every 10 ms for the close, the next turn's opening and
his report; the stages between come from the services' own log lines (turn_closed,
turn_resolved, intel_ready, reports_ready, turn_opened, bot_played), so the p50/p95 of each
step is shown from the Confirm.

``--before DIR`` runs the same turns a second time with the services of another checkout
(``git archive <commit> | tar -x -C DIR``), side by side in one run, on the same machine load.

    python -m benchmarks solo --turns 8 --think 0,3 --before /tmp/pate-before
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path

from pate.v1 import admin_pb2, bots_pb2, bots_pb2_grpc, desk_pb2, desk_pb2_grpc, reports_pb2
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client, bearer

SEAT = "ganteaume"
STEPS = ("turn_closed", "turn_resolved", "intel_ready", "reports_ready", "turn_opened")
TICK = 0.01


def options(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks solo", description=__doc__.split("\n\n")[0])
    p.add_argument("--turns", type=int, default=6, help="turns confirmed per campaign (at most 14)")
    p.add_argument("--think", default="0", help="seconds he reads before confirming, comma-separated")
    p.add_argument("--before", default="", help="another checkout's services to run the same turns with")
    p.add_argument("--scenario", default="training", help="the solo campaign's scenario: training, trafalgar")
    return p.parse_args(argv or [])


def _stamp(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def log_times(logs: Path, campaign: str) -> dict[tuple[str, int], float]:
    """(event, turn) -> its first time in any service's log, for one campaign."""
    out: dict[tuple[str, int], float] = {}
    for path in logs.glob("*.log"):
        for line in path.read_text(errors="replace").splitlines():
            if campaign not in line or not line.startswith("{"):
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("campaign") != campaign or "turn" not in rec or "timestamp" not in rec:
                continue
            key = (str(rec.get("event")), int(rec["turn"]))
            out[key] = min(out.get(key, float("inf")), _stamp(rec["timestamp"]))
    return out


class Player:
    def __init__(self, client: Client, campaign: str, token: str) -> None:
        self.client, self.campaign, self.md = client, campaign, bearer(token)
        self.desk = desk_pb2_grpc.PlayerDeskStub(client.orders_ch)

    def state(self) -> admin_pb2.Campaign:
        return self.client.campaign(self.campaign)

    def readable(self, turn: int) -> bool:
        req = reports_pb2.GetReportRequest(campaign_id=self.campaign, turn=turn, format="json")
        try:
            self.client.reports.GetReport(req, metadata=self.md, timeout=10)
        except Exception:  # not yet written: NOT_FOUND
            return False
        return True

    def until_open(self, turn: int) -> tuple[float, float]:
        """(when turn ``turn`` was seen open, when his report of the turn before was readable)."""
        while not (self.state().turn == turn and self.state().status == admin_pb2.TURN_STATUS_OPEN):
            time.sleep(TICK)
        opened = time.time()
        while not self.readable(turn - 1):
            time.sleep(TICK)
        return opened, time.time()

    def confirm(self, turn: int) -> tuple[float, float]:
        """(the wall time of his Confirm, when the turn was seen closed)."""
        at = time.time()
        req = desk_pb2.ConfirmOrdersRequest(campaign_id=self.campaign, turn=turn, confirmed=True)
        self.desk.ConfirmOrders(req, metadata=self.md, timeout=30)
        while (c := self.state()).turn == turn and c.status == admin_pb2.TURN_STATUS_OPEN:
            time.sleep(TICK)
        return at, time.time()


def play(
    cluster: Cluster, turns: int, think: float, name: str, scenario: str = "training"
) -> list[dict[str, float]]:
    """One solo campaign played ``turns`` turns; each turn's steps in seconds after his Confirm."""
    client = Client(cluster)
    try:
        client.create(name)
        client.wait_open(name, 1)
        made = bots_pb2_grpc.BotAdmiralsStub(client.orders_ch).CreateSolo(
            bots_pb2.CreateSoloRequest(
                campaign_id=f"{name}-solo",
                scenario=scenario,
                seat=SEAT,
                session_token=client.token(name, "cornwallis"),
            ),
            metadata=client.admin_md,
            timeout=60,
        )
        me = Player(client, made.campaign_id, made.token)
        me.until_open(1)
        rows = []
        for turn in range(1, turns + 1):
            time.sleep(think)
            at, closed = me.confirm(turn)
            opened, readable = me.until_open(turn + 1)
            rows.append({"turn": turn, "at": at, "closed": closed, "opened": opened, "readable": readable})
        times = log_times(cluster.workdir / "logs", made.campaign_id)
    finally:
        client.close()
    for row in rows:
        t, at = int(row["turn"]), row["at"]
        for step in STEPS:
            got = times.get((step, t + 1 if step == "turn_opened" else t))
            row[step] = got - at if got else float("nan")
        row["bot_played"] = times.get(("bot_played", t), float("nan")) - at
        for seen in ("closed", "opened", "readable"):
            row[seen] -= at
    return rows


def run_cluster(
    turns: int, thinks: list[float], code: str, scenario: str = "training"
) -> dict[float, list[dict[str, float]]]:
    env = {"PATE_SOLO_PER_HOUR": "100", "PATE_SOLO_OPEN_PER_PLAYER": "100", "PATE_LOG_LEVEL": "info"}
    if code:
        env["PYTHONPATH"] = code
    out = {}
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        cluster = Cluster(Path(tmp), nats.url, f"sqlite:///{tmp}/solo.db", extra_env=env)
        try:
            # `python -m` puts the working directory before PYTHONPATH: the services started
            # must start there to be the other checkout's
            os.chdir(code or here)
            cluster.start_all()
            cluster.start("admiral")
            cluster.wait_serving()
            os.chdir(here)
            for n, think in enumerate(thinks):
                out[think] = play(cluster, turns, think, f"bench-solo-{n}", scenario)
        finally:
            os.chdir(here)
            cluster.stop()
    return out


def _pq(values: list[float]) -> str:
    values = [v for v in values if not math.isnan(v)]  # NaN: a step whose log line was not found
    if not values:
        return "-"
    if len(values) < 2:
        return f"{values[0] * 1000:.0f}"
    cuts = statistics.quantiles(values, n=20, method="inclusive")
    return f"{statistics.median(values) * 1000:.0f}/{cuts[18] * 1000:.0f}"


def figures(label: str, think: float, rows: list[dict[str, float]]) -> list[tuple[str, str]]:
    head = f"{label}, think {think:g} s, {len(rows)} turns:"
    out = [(f"{head} Confirm -> next turn readable p50/p95 ms", _pq([r["readable"] for r in rows]))]
    for step in ("bot_played", *STEPS):
        out.append((f"{head}   {step} after Confirm p50/p95 ms", _pq([r[step] for r in rows])))
    return out


def run(argv: list[str] | None = None) -> list[tuple[str, str]]:
    args = options(argv)
    turns = max(1, min(args.turns, 14))
    thinks = [float(t) for t in args.think.split(",")]
    load = os.getloadavg()
    rows = [("load average before (1, 5, 15 min)", " ".join(f"{x:.2f}" for x in load))]
    runs = [("after", "")] + ([("before", str(Path(args.before).resolve()))] if args.before else [])
    for label, code in runs:
        for think, got in run_cluster(turns, thinks, code, args.scenario).items():
            rows += figures(f"{args.scenario}, {label}", think, got)
    rows.append(("load average after (1, 5, 15 min)", " ".join(f"{x:.2f}" for x in os.getloadavg())))
    return rows
