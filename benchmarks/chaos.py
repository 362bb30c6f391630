"""``make chaos`` / ``python -m benchmarks.chaos --trials N``: kill things in the middle of turns.

On PostgreSQL (a fresh database on the server given by ``--database``) and a 3-node NATS
cluster (the stream at 3 replicas), each trial plays one turn of a new campaign: two players'
orders, the turn closed, then at a random moment of the pipeline one random target is killed
with SIGKILL (one process of one of the four services, or one NATS node) and restarted a moment
later.  Each service runs ``--replicas`` processes (default 2, as the Kubernetes base runs
them), so a killed worker's message is taken over by its other process after ``ack_wait``
instead of waiting for the restarted one to start; ``--replicas 1`` measures that start.  Each
trial then checks (benchmarks/turncheck.py) that the turn was resolved exactly once, that no
accepted order was lost, that no event or report is doubled, and measures the time from the
kill until the next turn opened.  A table and a summary are printed; the exit code is 1 if
any trial broke a check.  ``--max-seconds`` bounds the run: no trial starts after it; SIGTERM
stops it as Ctrl-C does.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import grpc
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from benchmarks import turncheck
from pate.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    common_pb2,
    orders_pb2,
    orders_pb2_grpc,
    sessions_pb2,
    sessions_pb2_grpc,
)
from services.platform import bus
from services.platform.bus.natscluster import NatsCluster
from services.platform.processes import sigterm_as_ctrl_c
from services.platform.runtime.cluster import SERVICES, Cluster
from services.platform.runtime.cluster import _serving as serving
from services.platform.store.db import make_engine

T = TypeVar("T")
DEFAULT_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
ORDERS = {  # (player, password): orders that keep both fleets afloat, turn after turn
    "cornwallis": [common_pb2.ShipOrder(ship_id="BR1FL", combat=common_pb2.Combat(stance="evade"))],
    "ganteaume": [common_pb2.ShipOrder(ship_id="FR1FL", combat=common_pb2.Combat(stance="evade"))],
}
_RETRY = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


@dataclass
class Trial:
    number: int
    campaign: str
    target: str
    kill_at: float = 0.0  # seconds after the turn was closed
    recovered: float = float("nan")  # seconds from the kill until the next turn opened
    # a killed service: seconds from the kill to its restart, and from the restart until the new
    # process answered its health check (imports, migration check, connections), with the CPU
    # seconds it had used by then: where the recovery time went
    restarted: float = float("nan")
    start: float = float("nan")
    start_cpu: float = float("nan")
    accepted: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def verdict(self, word: str) -> str:
        hit = [p for p in self.problems if word in p]
        return "no" if hit else "yes"


class Desk:
    """The few gRPC calls a trial makes, each retried while the orders service is down."""

    def __init__(self, cluster: Cluster, timeout: float) -> None:
        self.channel = grpc.insecure_channel(cluster.orders_addr)
        self.admin = admin_pb2_grpc.CampaignAdminStub(self.channel)
        self.desk = orders_pb2_grpc.OrderDeskStub(self.channel)
        self.sessions = sessions_pb2_grpc.SessionsStub(self.channel)
        self.md = (("x-pate-admin-token", cluster.admin_token),)
        self.timeout = timeout

    def retry(self, call: Callable[[], T]) -> T:
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                return call()
            except grpc.RpcError as err:
                if err.code() not in _RETRY or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def create(self, campaign: str) -> None:
        passwords = {player: _password(player) for player in ORDERS}
        req = admin_pb2.CreateCampaignRequest(id=campaign, scenario="training", passwords=passwords)
        self.retry(lambda: self.admin.CreateCampaign(req, metadata=self.md, timeout=30))

    def campaign(self, campaign: str) -> admin_pb2.Campaign:
        req = admin_pb2.GetCampaignRequest(campaign_id=campaign)
        found: admin_pb2.Campaign = self.retry(
            lambda: self.admin.GetCampaign(req, metadata=self.md, timeout=5)
        )
        return found

    def wait_open(self, campaign: str, turn: int) -> None:
        deadline = time.monotonic() + self.timeout
        while True:
            c = self.campaign(campaign)
            if c.turn == turn and c.status == admin_pb2.TURN_STATUS_OPEN:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"{campaign}: turn {turn} not open after {self.timeout} s")
            time.sleep(0.05)

    def submit(
        self, campaign: str, player: str, orders: list[common_pb2.ShipOrder], turn: int = 1
    ) -> list[str]:
        rid = uuid.uuid4().hex  # the same id on every retry: a retried submission is not doubled
        req = orders_pb2.SubmitOrdersRequest(
            campaign_id=campaign, turn=turn, orders=orders, client_request_id=rid
        )
        login = sessions_pb2.LoginRequest(campaign_id=campaign, player_id=player, password=_password(player))
        token = self.retry(lambda: self.sessions.Login(login, timeout=30)).token
        md = (("authorization", f"Bearer {token}"),)
        reply = self.retry(lambda: self.desk.SubmitOrders(req, metadata=md, timeout=30))
        return list(reply.ship_ids)

    def close_turn(self, campaign: str, turn: int = 1) -> None:
        req = admin_pb2.CloseTurnRequest(campaign_id=campaign, turn=turn)
        self.retry(lambda: self.admin.CloseTurn(req, metadata=self.md, timeout=30))

    def close(self) -> None:
        self.channel.close()


def _password(player: str) -> str:
    return f"chaos-{player}-password"  # set by the game master at creation (scenarios carry none)


@contextmanager
def fresh_database(server_url: str, workdir: Path) -> Iterator[str]:
    """A new database on a PostgreSQL server (dropped afterwards), or a SQLite file for ``sqlite``."""
    if server_url == "sqlite":
        yield f"sqlite:///{workdir / 'chaos.db'}"
        return
    name = f"pate_chaos_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def kill_and_restart(
    cluster: Cluster, nats: NatsCluster, target: str, rng: random.Random
) -> subprocess.Popen[bytes] | None:
    """Kill ``target`` (a NATS node, or the oldest process of a service) and start it again a
    moment later; the new process of a service."""
    if target.startswith("nats"):
        node = int(target.removeprefix("nats-n")) - 1
        nats.kill(node)
        time.sleep(rng.uniform(0.2, 1.0))
        nats.start_node(node)
        return None
    victim = cluster.procs[target].pop(0)
    victim.kill()
    victim.wait()
    time.sleep(rng.uniform(0.2, 1.0))
    return cluster.start(target)


def start_replicas(cluster: Cluster, replicas: int) -> None:
    """Each service's further processes (the orders processes share one port), all serving."""
    for _ in range(replicas - 1):
        for service in SERVICES:
            cluster.start(service)
    cluster.wait_serving()


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _watch_start(
    cluster: Cluster, proc: subprocess.Popen[bytes], trial: Trial, killed: float
) -> threading.Thread | None:
    """Time the restarted process until it answers its health check (in the background).
    Not timed when its health port is another process's too (orders and reports replicas
    share their service's port): the answer could be the other's."""
    addr, tls = cluster.health[proc.pid], cluster.tls
    begun = time.monotonic()
    trial.restarted = begun - killed
    shared = [p for p in cluster.procs[trial.target] if p is not proc and cluster.health.get(p.pid) == addr]
    if shared:
        return None

    def watch() -> None:
        while proc.poll() is None and time.monotonic() - begun < 120:
            if serving(addr, tls):
                trial.start_cpu = _cpu_seconds(proc.pid)
                trial.start = time.monotonic() - begun
                return
            time.sleep(0.05)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def run_trial(
    number: int, run_id: str, cluster: Cluster, nats: NatsCluster, desk: Desk, rng: random.Random
) -> Trial:
    targets = [*SERVICES, *(f"nats-{n}" for n in nats.names)]
    trial = Trial(number, f"chaos-{run_id}-{number}", rng.choice(targets))
    desk.create(trial.campaign)
    desk.wait_open(trial.campaign, 1)
    for player, orders in ORDERS.items():
        trial.accepted += desk.submit(trial.campaign, player, orders)
    trial.kill_at = rng.uniform(0.0, 1.2)
    desk.close_turn(trial.campaign)
    time.sleep(trial.kill_at)
    killed = time.monotonic()
    proc = kill_and_restart(cluster, nats, trial.target, rng)
    watcher = _watch_start(cluster, proc, trial, killed) if proc is not None else None
    try:
        desk.wait_open(trial.campaign, 2)
        trial.recovered = time.monotonic() - killed
    except TimeoutError as err:
        trial.problems.append(f"not resolved: {err}")
    if watcher is not None:
        watcher.join(timeout=30)
    return trial


def check(trials: list[Trial], database_url: str, nats_url: str) -> None:
    engine = make_engine(database_url)
    try:
        for t in trials:
            if not t.problems:
                t.problems += turncheck.turn_problems(engine, t.campaign, 1, t.accepted)
    finally:
        engine.dispose()

    async def stream() -> None:
        nc, js = await bus.connect(nats_url, "pate-chaos")
        try:
            for t in trials:
                t.problems += turncheck.bus_problems(
                    await turncheck.stream_msg_ids(js, t.campaign), t.campaign, (1,)
                )
        finally:
            await nc.close()

    asyncio.run(stream())


def table(trials: list[Trial]) -> str:
    head = (
        f"{'trial':>5}  {'killed':<10} {'at s':>5} {'recover s':>9} {'start s':>7} {'cpu s':>5}  "
        f"{'once':<4} {'orders':<6} {'no dup':<6}  result"
    )
    lines = [head, "-" * len(head)]
    for t in trials:
        once = (
            "no"
            if any("resolution" in p or "claimed" in p or "not resolved" in p for p in t.problems)
            else "yes"
        )
        orders = t.verdict("accepted order")
        dup = "no" if any("times" in p or "differ" in p or "reports" in p for p in t.problems) else "yes"
        result = "ok" if not t.problems else "; ".join(t.problems)[:80]
        lines.append(
            f"{t.number:>5}  {t.target:<10} {t.kill_at:>5.2f} {t.recovered:>9.2f} "
            f"{_f(t.start):>7} {_f(t.start_cpu):>5}  "
            f"{once:<4} {orders:<6} {dup:<6}  {result}"
        )
    return "\n".join(lines)


def _f(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}"


def starts(trials: list[Trial]) -> str:
    """Where a killed service's recovery went: its restart, the new process's start, and
    whether the turn waited for that process (else another process, or nothing, took over)."""
    timed = [t for t in trials if not (math.isnan(t.start) or math.isnan(t.recovered))]
    if not timed:
        return "no killed service was timed"
    waited = [t for t in timed if t.recovered > t.restarted + t.start]
    return (
        f"{len(timed)} service kills: restarted {statistics.median(t.restarted for t in timed):.2f} s "
        f"after the kill (median); the new process serving {statistics.median(t.start for t in timed):.2f} s "
        f"later (median, max {max(t.start for t in timed):.2f}; its CPU by then "
        f"{statistics.median(t.start_cpu for t in timed):.2f} s median); "
        f"{len(waited)} of them recovered only after the new process served"
    )


def summary(trials: list[Trial]) -> str:
    recovered = sorted(t.recovered for t in trials if t.recovered == t.recovered)
    ok = sum(1 for t in trials if not t.problems)
    lost = sum(1 for t in trials if t.verdict("accepted order") == "no")
    p50 = statistics.median(recovered) if recovered else float("nan")
    worst = recovered[-1] if recovered else float("nan")
    return (
        f"{len(trials)} trials: {ok} whole (resolved exactly once, no accepted order lost, no duplicate "
        f"events or reports); trials losing an accepted order: {lost}; "
        f"time to recover p50 {p50:.2f} s, max {worst:.2f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: a new one, printed)")
    parser.add_argument("--database", default=DEFAULT_SERVER, help="PostgreSQL server URL, or 'sqlite'")
    parser.add_argument("--max-seconds", type=float, default=1800.0, help="start no trial after this")
    parser.add_argument("--turn-timeout", type=float, default=90.0)
    replicas = "processes of each service (default 2, as deploy/k8s/base runs them); one is killed"
    parser.add_argument("--replicas", type=int, default=2, help=replicas)
    parser.add_argument("--workdir", type=Path, default=None, help="kept (default: a temporary folder)")
    args = parser.parse_args(argv)
    sigterm_as_ctrl_c()
    if args.workdir is not None:
        return _run(args, args.workdir)
    workdir = Path(tempfile.mkdtemp(prefix="pate-chaos-"))
    code = 1
    try:
        code = _run(args, workdir)
    finally:
        if code == 0:  # a failed run keeps its logs for the person who reads the table
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f"chaos: logs kept in {workdir}", flush=True)
    return code


def _run(args: argparse.Namespace, workdir: Path) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    rng = random.Random(seed)
    started = time.monotonic()
    print(
        f"chaos: {args.trials} trials, seed {seed}, {args.replicas} process(es) a service, "
        f"work folder {workdir}",
        flush=True,
    )
    trials: list[Trial] = []
    with fresh_database(args.database, workdir) as database_url, NatsCluster(workdir / "nats") as nats:
        env = {"PATE_STREAM_REPLICAS": "3", "PATE_ACK_WAIT_SECONDS": "2", "PATE_LOG_LEVEL": "warning"}
        cluster = Cluster(workdir=workdir, nats_url=nats.url, database_url=database_url, extra_env=env)
        try:
            cluster.start_all()
            start_replicas(cluster, max(1, args.replicas))
            desk = Desk(cluster, args.turn_timeout)
            run_id = uuid.uuid4().hex[:6]
            for n in range(1, args.trials + 1):
                if time.monotonic() - started > args.max_seconds:
                    print(f"chaos: time budget of {args.max_seconds} s spent after {n - 1} trials")
                    break
                trials.append(run_trial(n, run_id, cluster, nats, desk, rng))
                nats.wait_healthy()
            desk.close()
        finally:
            cluster.stop()
        check(trials, database_url, nats.url)
    print(table(trials))
    print(summary(trials))
    print(starts(trials))
    print(f"chaos: {time.monotonic() - started:.1f} s in all")
    return 0 if trials and all(not t.problems for t in trials) else 1


if __name__ == "__main__":
    sys.exit(main())
