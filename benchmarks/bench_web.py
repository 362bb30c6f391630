"""The web desk's campaign page: server time for a commander of
about 30 ships and for the British naval minister (213 ships) in a grand1805
campaign, on the real stack (nats-server, the four services on SQLite, the
web process), read from the page's Server-Timing header and as the client
sees it, with the map and without it (``?map=off``), and the CPU time the web
and orders processes spent per page (from /proc, so a loaded machine's
waiting is not counted).  Target: the minister's page with its map, p50
under 100 ms.  Last, the minister's page and RPC in a second campaign under the EiA
operations rules (docs/rules/eia-operations.md), whose fleets' leads list their legal
operations: goal, under 0.3 s of server time."""

from __future__ import annotations

import os
import re
import statistics
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from pate.core.world.state import EIA_OPERATIONS as OPERATIONS
from pate.datafiles import load_scenario
from pate.v1 import admin_pb2
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


@contextmanager
def _stack() -> Iterator[tuple[Cluster, Client]]:
    """nats-server, the four services on SQLite and the web process, and a client of them."""
    with tempfile.TemporaryDirectory() as tmp, NatsServer(data_dir=Path(tmp) / "nats") as nats:
        cluster = Cluster(
            workdir=Path(tmp), nats_url=nats.url, database_url=f"sqlite:///{tmp}/pate.db", web=True
        )
        cluster.start_all()
        client = Client(cluster)
        try:
            yield cluster, client
        finally:
            client.close()
            cluster.stop()


def _campaign(client: Client, naval_rules: str = "") -> tuple[str, dict[str, str]]:
    """A new grand1805 campaign with turn 1 open, and every player's password."""
    campaign = f"bench-{uuid.uuid4().hex[:6]}"
    passwords = {p: f"{p}-bench-pw" for p in load_scenario(SCENARIO).world.players}
    req = admin_pb2.CreateCampaignRequest(
        id=campaign, scenario=SCENARIO, passwords=passwords, naval_rules=naval_rules
    )
    client.admin.CreateCampaign(req, metadata=client.admin_md, timeout=300)
    client.passwords.update({(campaign, p): pw for p, pw in passwords.items()})
    client.wait_open(campaign, 1, timeout=300)
    return campaign, passwords


def minister_under_operations(requests: int = REQUESTS) -> tuple[Timed, tuple[float, float]]:
    """The British minister's campaign page (map included) and his PlayerDesk.GetMyCampaign in
    a grand1805 campaign under the EiA operations rules, where every fleet's lead lists the
    operations it may declare (services/orders/mydesk.py)."""
    with _stack() as (cluster, client):
        return _operations_desk(cluster, client, requests)


def _operations_desk(cluster: Cluster, client: Client, requests: int) -> tuple[Timed, tuple[float, float]]:
    campaign, passwords = _campaign(client, naval_rules=OPERATIONS)
    pids = {name: cluster.procs[name][0].pid for name in ("web", "orders")}
    page = _page(cluster.web_url, campaign, MINISTER, passwords[MINISTER], "", pids, requests)
    return page, _rpc_times(client, campaign, MINISTER, requests)


def run() -> list[tuple[str, str]]:
    player, _ = _commander()
    with _stack() as (cluster, client):
        t0 = time.perf_counter()
        campaign, passwords = _campaign(client)
        opened = time.perf_counter() - t0
        pids = {name: cluster.procs[name][0].pid for name in ("web", "orders")}
        pages = [
            (who, query, _page(cluster.web_url, campaign, who, passwords[who], query, pids))
            for who, query in ((player, ""), (MINISTER, ""), (MINISTER, "?map=off"))
        ]
        rpc = _rpc_times(client, campaign, player)
        ops, ops_rpc = _operations_desk(cluster, client, REQUESTS)
    out = [
        ("grand1805 campaign created and turn 1 open", f"{opened:.1f} s"),
        ("machine load (1, 5 min) at the end", "{:.2f}, {:.2f}".format(*os.getloadavg()[:2])),
    ]
    for who, query, got in pages:
        shown = "map included" if "map=off" not in query else "without the map"
        out += _page_rows(f"campaign page of {who} ({got.shown} ships shown, {shown}", got)
    out.append(
        (f"  PlayerDesk.GetMyCampaign of {player} p50 / p99 (gRPC)", f"{rpc[0]:.1f} / {rpc[1]:.1f} ms")
    )
    out += _page_rows(f"under {OPERATIONS}: campaign page of {MINISTER} ({ops.shown} ships shown", ops)
    out.append(
        (
            f"  PlayerDesk.GetMyCampaign of {MINISTER} p50 / p99 (gRPC)",
            f"{ops_rpc[0]:.1f} / {ops_rpc[1]:.1f} ms",
        )
    )
    return out


def _page_rows(head: str, got: Timed) -> list[tuple[str, str]]:
    qs, qc = statistics.quantiles(got.server, n=100), statistics.quantiles(got.seen, n=100)
    return [
        (f"{head}, {got.size // 1024} KiB)", f"{len(got.server)} requests"),
        ("  server time p50 / p99 (Server-Timing)", f"{qs[49]:.1f} / {qs[98]:.1f} ms"),
        ("  client time p50 / p99 (localhost HTTP)", f"{qc[49]:.1f} / {qc[98]:.1f} ms"),
        (
            "  CPU per page: web process / orders process",
            f"{got.cpu['web']:.1f} / {got.cpu['orders']:.1f} ms",
        ),
    ]


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


def _page(
    url: str, campaign: str, player: str, password: str, query: str, pids: dict[str, int], n: int = REQUESTS
) -> Timed:
    """Log in, then fetch the campaign page ``n`` times."""
    with httpx.Client(base_url=url, timeout=30) as web:
        page = web.get("/login").text
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
        form = {"csrf": token, "campaign": campaign, "player": player, "password": password}
        r = web.post("/login", data=form, follow_redirects=True)
        assert r.status_code == 200 and "ship-" in r.text and "desk-map" in r.text, r.text[:500]
        web.get(f"/c/{campaign}{query}")  # the first, which fills the caches, is not counted
        server, seen = [], []
        before = {name: _cpu_ms(pid) for name, pid in pids.items()}
        for _ in range(n):
            t = time.perf_counter()
            r = web.get(f"/c/{campaign}{query}")
            seen.append((time.perf_counter() - t) * 1000)
            server.append(float(r.headers["server-timing"].split("dur=")[1]))
        cpu = {name: (_cpu_ms(pid) - before[name]) / n for name, pid in pids.items()}
        assert ("desk-map" in r.text) == ("map=off" not in query)
        return Timed(server, seen, cpu, len(re.findall(r'<li class="ship-row', r.text)), len(r.content))


def _rpc_times(client: Client, campaign: str, player: str, n: int = REQUESTS) -> tuple[float, float]:
    from pate.v1 import desk_pb2, desk_pb2_grpc

    stub = desk_pb2_grpc.PlayerDeskStub(client.orders_ch)
    md = client.player_md(campaign, player)
    times = []
    for _ in range(n):
        t = time.perf_counter()
        stub.GetMyCampaign(desk_pb2.GetMyCampaignRequest(campaign_id=campaign), metadata=md, timeout=30)
        times.append((time.perf_counter() - t) * 1000)
    q = statistics.quantiles(times, n=100)
    return q[49], q[98]
