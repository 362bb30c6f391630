"""The web desk's campaign page: server time for a commander of
about 30 ships and for the British naval minister (213 ships) in a grand1805
campaign, on the real stack (nats-server, the four services on SQLite, the
web process), read from the page's Server-Timing header and as the client
sees it, with the map and without it (``?map=off``), and the CPU time the web
and orders processes spent per page (from /proc, so a loaded machine's
waiting is not counted).  Target: the minister's page with its map, p50
under 100 ms."""

from __future__ import annotations

import os
import re
import statistics
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx

from pate.datafiles import load_scenario
from services.platform.bus.natsserver import NatsServer
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client

SCENARIO = "grand1805"
SHIPS = 30
MINISTER = "barham"  # the British naval minister: 213 ships on his page
REQUESTS = 60


def _commander() -> tuple[str, int]:
    counts = Counter(s.commander for s in load_scenario(SCENARIO).world.ships.values() if s.commander)
    return min(counts.items(), key=lambda kv: (abs(kv[1] - SHIPS), kv[0]))


def run() -> list[tuple[str, str]]:
    player, _ = _commander()
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        cluster = Cluster(
            workdir=Path(tmp), nats_url=nats.url, database_url=f"sqlite:///{tmp}/pate.db", web=True
        )
        cluster.start_all()
        client = Client(cluster)
        try:
            campaign = f"bench-{uuid.uuid4().hex[:6]}"
            passwords = {p: f"{p}-bench-pw" for p in load_scenario(SCENARIO).world.players}
            t0 = time.perf_counter()
            client.create(campaign, scenario=SCENARIO, passwords=passwords)
            client.wait_open(campaign, 1, timeout=300)
            opened = time.perf_counter() - t0
            pids = {name: cluster.procs[name][0].pid for name in ("web", "orders")}
            pages = [
                (who, query, _page(cluster.web_url, campaign, who, passwords[who], query, pids))
                for who, query in ((player, ""), (MINISTER, ""), (MINISTER, "?map=off"))
            ]
            rpc = _rpc_times(client, campaign, player)
        finally:
            client.close()
            cluster.stop()
    out = [
        ("grand1805 campaign created and turn 1 open", f"{opened:.1f} s"),
        ("machine load (1, 5 min) at the end", "{:.2f}, {:.2f}".format(*os.getloadavg()[:2])),
    ]
    for who, query, got in pages:
        qs, qc = statistics.quantiles(got.server, n=100), statistics.quantiles(got.seen, n=100)
        shown = "map included" if "map=off" not in query else "without the map"
        out += [
            (
                f"campaign page of {who} ({got.shown} ships shown, {shown}, {got.size // 1024} KiB)",
                f"{REQUESTS} requests",
            ),
            ("  server time p50 / p99 (Server-Timing)", f"{qs[49]:.1f} / {qs[98]:.1f} ms"),
            ("  client time p50 / p99 (localhost HTTP)", f"{qc[49]:.1f} / {qc[98]:.1f} ms"),
            (
                "  CPU per page: web process / orders process",
                f"{got.cpu['web']:.1f} / {got.cpu['orders']:.1f} ms",
            ),
        ]
    out.append(
        (f"  PlayerDesk.GetMyCampaign of {player} p50 / p99 (gRPC)", f"{rpc[0]:.1f} / {rpc[1]:.1f} ms")
    )
    return out


@dataclass
class Timed:
    server: list[float]  # ms, the web process's own measure (Server-Timing)
    seen: list[float]  # ms, as the client saw it
    cpu: dict[str, float]  # ms of CPU per page, by process
    shown: int  # ships listed
    size: int  # bytes


def _cpu_ms(pid: int) -> float:
    """User and system CPU time of a process so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _page(url: str, campaign: str, player: str, password: str, query: str, pids: dict[str, int]) -> Timed:
    """Log in, then fetch the campaign page REQUESTS times."""
    with httpx.Client(base_url=url, timeout=30) as web:
        page = web.get("/login").text
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
        form = {"csrf": token, "campaign": campaign, "player": player, "password": password}
        r = web.post("/login", data=form, follow_redirects=True)
        assert r.status_code == 200 and "ship-" in r.text and "desk-map" in r.text, r.text[:500]
        web.get(f"/c/{campaign}{query}")  # the first, which fills the caches, is not counted
        server, seen = [], []
        before = {name: _cpu_ms(pid) for name, pid in pids.items()}
        for _ in range(REQUESTS):
            t = time.perf_counter()
            r = web.get(f"/c/{campaign}{query}")
            seen.append((time.perf_counter() - t) * 1000)
            server.append(float(r.headers["server-timing"].split("dur=")[1]))
        cpu = {name: (_cpu_ms(pid) - before[name]) / REQUESTS for name, pid in pids.items()}
        assert ("desk-map" in r.text) == ("map=off" not in query)
        return Timed(server, seen, cpu, len(re.findall(r'<li class="ship-row', r.text)), len(r.content))


def _rpc_times(client: Client, campaign: str, player: str) -> tuple[float, float]:
    from pate.v1 import desk_pb2, desk_pb2_grpc

    stub = desk_pb2_grpc.PlayerDeskStub(client.orders_ch)
    md = client.player_md(campaign, player)
    times = []
    for _ in range(REQUESTS):
        t = time.perf_counter()
        stub.GetMyCampaign(desk_pb2.GetMyCampaignRequest(campaign_id=campaign), metadata=md, timeout=30)
        times.append((time.perf_counter() - t) * 1000)
    q = statistics.quantiles(times, n=100)
    return q[49], q[98]
