"""``make failover`` / ``python -m benchmarks.failover``: lose the database primary in the middle of turns.

A PostgreSQL primary and its synchronous streaming replica run on two local ports
(benchmarks/pgpair.py); every service is pointed at both with ``target_session_attrs=read-write``
(``PATE_DATABASE_URL``, docs/operations.md "Database failover").  Several campaigns each have both
players' orders in; their turns are closed one after another and, at a random moment of the
pipeline, the primary is killed outright (postmaster and backends, SIGKILL) while a further
player's orders are being sent.  After ``--promote-after`` seconds (CloudNativePG's failover
takes a few) the replica is promoted.  Every campaign must then reach its next turn, and play one
more turn on the new primary; the checks of ``make chaos`` (benchmarks/turncheck.py) find each
turn resolved exactly once, no accepted order lost and no event or report doubled, on the
promoted database and the stream.  The exit code is 1 if any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, text

from benchmarks import turncheck
from benchmarks.chaos import ORDERS, Desk
from benchmarks.pgpair import PgPair
from services.platform import bus
from services.platform.bus.natsserver import NatsServer
from services.platform.processes import sigterm_as_ctrl_c
from services.platform.runtime.cluster import Cluster
from services.platform.store.db import make_engine

DATABASE = "pate"


@dataclass
class Outcome:
    campaigns: list[str]
    kill_at: float = 0.0  # seconds after the first close
    recovered: float = float("nan")  # seconds from the kill until every campaign's next turn opened
    accepted: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    late: list[str] = field(default_factory=list)  # orders accepted while the primary was being lost
    problems: list[str] = field(default_factory=list)


def _send_all(desk: Desk, campaign: str, turn: int, out: Outcome) -> None:
    for player, orders in ORDERS.items():
        out.accepted.setdefault((campaign, turn), []).extend(desk.submit(campaign, player, orders, turn))


def _late_orders(desk: Desk, campaign: str, out: Outcome, stop: threading.Event) -> None:
    """Keep sending one player's orders for the next campaign's open turn through the kill:
    each one the desk accepted must survive it."""
    player, orders = next(iter(ORDERS.items()))
    while not stop.is_set():
        try:
            out.late += desk.submit(campaign, player, orders, 1)
        except Exception as err:  # a refusal is recorded, the run goes on
            out.problems.append(f"late orders refused: {type(err).__name__}")
            return
        time.sleep(0.05)


def play(cluster: Cluster, pair: PgPair, campaigns: int, promote_after: float, rng: random.Random) -> Outcome:
    desk = Desk(cluster, timeout=120.0)
    run = uuid.uuid4().hex[:6]
    out = Outcome([f"failover-{run}-{n}" for n in range(1, campaigns + 1)])
    late_campaign = f"failover-{run}-late"
    try:
        for c in [*out.campaigns, late_campaign]:
            desk.create(c)
        for c in [*out.campaigns, late_campaign]:
            desk.wait_open(c, 1)
        for c in out.campaigns:
            _send_all(desk, c, 1, out)
        stop = threading.Event()
        sender = threading.Thread(target=_late_orders, args=(desk, late_campaign, out, stop), daemon=True)
        sender.start()
        out.kill_at = rng.uniform(0.0, 1.5)
        first_close = time.monotonic()
        killer = threading.Timer(out.kill_at, pair.primary.kill)
        killer.start()
        for c in out.campaigns:
            desk.close_turn(c, 1)
            time.sleep(rng.uniform(0.0, 0.3))
        killer.join()
        killed = first_close + out.kill_at
        time.sleep(max(0.0, killed + promote_after - time.monotonic()))
        pair.replica.promote()
        for c in out.campaigns:
            desk.wait_open(c, 2)
        out.recovered = time.monotonic() - killed
        stop.set()
        sender.join(timeout=60)
        out.accepted[(late_campaign, 1)] = sorted(set(out.late))
        out.campaigns.append(late_campaign)
        desk.close_turn(late_campaign, 1)
        desk.wait_open(late_campaign, 2)
        for c in out.campaigns:  # one more turn, all of it on the promoted replica
            _send_all(desk, c, 2, out)
            desk.close_turn(c, 2)
        for c in out.campaigns:
            desk.wait_open(c, 3)
    except TimeoutError as err:
        out.problems.append(f"not resolved: {err}")
    finally:
        desk.close()
    return out


def check(out: Outcome, database_url: str, nats_url: str) -> None:
    engine = make_engine(database_url)
    try:
        for (campaign, turn), ships in sorted(out.accepted.items()):
            out.problems += turncheck.turn_problems(engine, campaign, turn, ships)
    finally:
        engine.dispose()

    async def stream() -> None:
        nc, js = await bus.connect(nats_url, "pate-failover")
        try:
            for c in out.campaigns:
                out.problems += turncheck.bus_problems(await turncheck.stream_msg_ids(js, c), c, (1, 2))
        finally:
            await nc.close()

    asyncio.run(stream())


def _create_database(pair: PgPair) -> None:
    admin = create_engine(pair.server_url(pair.primary), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{DATABASE}"'))
    finally:
        admin.dispose()


def commit_cost(pair: PgPair, commits: int = 300) -> dict[str, float]:
    """The price of RPO 0: the median time of a one-row commit that waits for the replica
    (``synchronous_commit = on``) beside one that does not (``local``), interleaved."""
    engine = create_engine(pair.server_url(pair.primary, DATABASE))
    times: dict[str, list[float]] = {"on": [], "local": []}
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE IF NOT EXISTS commit_cost (n int)"))
        with engine.connect() as conn:
            for n in range(commits):
                for mode in ("on", "local"):
                    conn.execute(text(f"SET synchronous_commit = {mode}"))
                    conn.commit()
                    begun = time.perf_counter()
                    conn.execute(text("INSERT INTO commit_cost VALUES (:n)"), {"n": n})
                    conn.commit()
                    times[mode].append(time.perf_counter() - begun)
    finally:
        engine.dispose()
    return {mode: statistics.median(t) * 1000 for mode, t in times.items()}


def run(campaigns: int, promote_after: float, seed: int, workdir: Path) -> Outcome:
    rng = random.Random(seed)
    with PgPair() as pair, NatsServer(data_dir=workdir / "nats") as nats:
        _create_database(pair)
        cost = commit_cost(pair)
        print(
            f"one-row commit, median of 300: {cost['on']:.3f} ms waiting for the replica, "
            f"{cost['local']:.3f} ms not waiting",
            flush=True,
        )
        env = {"PATE_ACK_WAIT_SECONDS": "2", "PATE_LOG_LEVEL": "warning"}
        cluster = Cluster(workdir=workdir, nats_url=nats.url, database_url=pair.url(DATABASE), extra_env=env)
        try:
            cluster.start_all()
            out = play(cluster, pair, campaigns, promote_after, rng)
        finally:
            cluster.stop()
        check(out, pair.server_url(pair.replica, DATABASE), nats.url)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=4)
    parser.add_argument("--promote-after", type=float, default=3.0, help="seconds from the kill")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--workdir", type=Path, default=None, help="kept (default: a temporary folder)")
    args = parser.parse_args(argv)
    sigterm_as_ctrl_c()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="pate-failover-"))
    print(f"failover: {args.campaigns} campaigns, seed {seed}, work folder {workdir}", flush=True)
    out = run(args.campaigns, args.promote_after, seed, workdir)
    print(report(out))
    return 0 if not out.problems else 1


def report(out: Outcome) -> str:
    lines = [
        f"primary killed {out.kill_at:.2f} s after the first close; every campaign's next turn open "
        f"{out.recovered:.2f} s after the kill",
        f"orders accepted while the primary was lost: {len(out.late)} (each must survive)",
        f"turns checked: {len(out.accepted)}; problems: {len(out.problems)}",
        *(f"  {p}" for p in out.problems),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
