"""CPU per order submission, in the order desk and in its clients, beside the bare
echo server's, for one or more source trees measured side by side in one run.

    python -m benchmarks.intake_cpu [--requests N] [--rounds R] [TREE ...]

Each TREE (a checkout of PATE; default: this one) is measured in its own process
with PYTHONPATH and the working directory set to it, the trees taking turns round
after round, so that a change is compared with what it replaced under the same
load.  Each measurement starts a cluster on SQLite, sends warm-up requests, then
``N`` single-order submissions from ``CLIENTS`` threads (a connection each) and
reads the orders process's user + system CPU from /proc; the echo server (the same
payload, the same clients) is measured in the same process.  CPU, unlike wall
time, stays meaningful on a loaded machine: the ratio it predicts is
(echo server + its clients) / (order desk + its clients), per request.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

CLIENTS = 8
# PATE_BENCH_INTAKE_DATABASE=postgresql: the desk on a fresh PostgreSQL database (bench_platform's
# server), where one answers, instead of SQLite
DATABASE_SETTING = "PATE_BENCH_INTAKE_DATABASE"
WARM_UP = 400


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cpu_of(pid: int, n: int, measure: Callable[[int], object]) -> dict[str, float]:
    """Server and client CPU ms per request, and the rate, over ``n`` requests."""
    server0, client0, wall0 = _cpu_seconds(pid), _own_cpu(), time.perf_counter()
    measure(n)
    wall = time.perf_counter() - wall0
    return {
        "server_ms": 1000 * (_cpu_seconds(pid) - server0) / n,
        "client_ms": 1000 * (_own_cpu() - client0) / n,
        "rate": n / wall,
    }


def _echo(n: int) -> dict[str, float]:
    from benchmarks.bench_platform import _measure, echo_server

    with echo_server() as (pid, connect):
        _measure(connect, WARM_UP)
        return _cpu_of(pid, n, lambda k: _measure(connect, k))


def _desk(n: int) -> dict[str, float]:
    from benchmarks.bench_platform import _cluster, _measure, _order, _postgres, _submitter
    from services.platform.bus.natsserver import NatsServer

    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        nats = stack.enter_context(NatsServer(data_dir=Path(tmp) / "nats"))
        url = f"sqlite:///{tmp}/bench.db"
        if os.environ.get(DATABASE_SETTING) == "postgresql":
            url = stack.enter_context(_postgres()) or url
        with _cluster(url, nats.url, Path(tmp) / "work") as client:
            campaign = f"cpu-{uuid.uuid4().hex[:8]}"
            client.create(campaign)
            client.wait_open(campaign, 1)
            connect = _submitter(client, campaign, "cornwallis", [_order("BR1FL")])
            _measure(connect, WARM_UP)
            pid = client.cluster.procs["orders"][0].pid
            return _cpu_of(pid, n, lambda k: _measure(connect, k))


def one(n: int) -> dict[str, object]:
    """One measurement of the tree this process runs from."""
    return {"echo": _echo(n), "desk": _desk(n)}


def _run_tree(tree: Path, n: int) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.intake_cpu", "--one", "--requests", str(n)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, dict[str, float]] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _median(rows: list[dict[str, dict[str, float]]], side: str, key: str) -> float:
    return statistics.median(r[side][key] for r in rows)


def _print(tree: Path, rows: list[dict[str, dict[str, float]]]) -> None:
    desk = _median(rows, "desk", "server_ms"), _median(rows, "desk", "client_ms")
    echo = _median(rows, "echo", "server_ms"), _median(rows, "echo", "client_ms")
    rates = _median(rows, "desk", "rate") / _median(rows, "echo", "rate")
    print(
        f"{tree}: desk {desk[0]:.3f} ms + clients {desk[1]:.3f} ms; "
        f"echo {echo[0]:.3f} ms + clients {echo[1]:.3f} ms; "
        f"CPU ratio {sum(echo) / sum(desk):.3f}; rate ratio {rates:.3f} "
        f"(medians of {len(rows)}: {[round(r['desk']['server_ms'], 3) for r in rows]})",
        flush=True,
    )


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.intake_cpu")
    p.add_argument("trees", nargs="*", type=Path)
    p.add_argument("--requests", type=int, default=3000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.requests)), flush=True)
        return 0
    trees = [t.resolve() for t in args.trees] or [Path.cwd()]
    results: dict[Path, list[dict[str, dict[str, float]]]] = {t: [] for t in trees}
    load0 = os.getloadavg()[0]
    for _ in range(args.rounds):
        for tree in trees:
            results[tree].append(_run_tree(tree, args.requests))
    print(f"load average {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end", flush=True)
    for tree in trees:
        _print(tree, results[tree])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
