"""The demo turn, played as a client over gRPC: create the campaign, submit
the demo orders, close the turn, wait for
the reports and fetch them.  The orders are the training examples in
``examples/orders/<player>-<topic>.txt`` (docs/formats/orders.md)."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import grpc

from pate.core.codec import from_plain
from pate.core.intel.model import PlayerKnowledge
from pate.datafiles import data_dir, load_scenario
from pate.v1 import admin_pb2, admin_pb2_grpc, orders_pb2, orders_pb2_grpc, reports_pb2, reports_pb2_grpc
from services.common.cluster import Cluster

SCENARIO = "training"
EXAMPLES = data_dir().parent / "examples" / "orders"
_EXT = {"text": "txt", "html": "html", "json": "json"}


def wait_for_turn(
    admin: admin_pb2_grpc.CampaignAdminStub,
    md: tuple[tuple[str, str], ...],
    campaign: str,
    turn: int,
    timeout: float = 120,
) -> admin_pb2.Campaign:
    """Until the campaign's open turn is ``turn`` (or the campaign is over)."""
    deadline = time.monotonic() + timeout
    while True:
        c: admin_pb2.Campaign = admin.GetCampaign(
            admin_pb2.GetCampaignRequest(campaign_id=campaign), metadata=md, timeout=10
        )
        if (
            c.turn >= turn and c.status == admin_pb2.TURN_STATUS_OPEN
        ) or c.status == admin_pb2.TURN_STATUS_FINISHED:
            return c
        if time.monotonic() > deadline:
            raise TimeoutError(f"turn {turn} of {campaign} did not open in {timeout:.0f} s")
        time.sleep(0.2)


def play_demo_turn(cluster: Cluster, campaign: str, outdir: Path) -> str:
    scenario = load_scenario(SCENARIO)
    admin_md = (("x-pate-admin-token", cluster.admin_token),)
    lines = []
    started = time.monotonic()
    with (
        grpc.insecure_channel(cluster.orders_addr) as och,
        grpc.insecure_channel(cluster.reports_addr) as rch,
    ):
        admin = admin_pb2_grpc.CampaignAdminStub(och)
        desk = orders_pb2_grpc.OrderDeskStub(och)
        reports = reports_pb2_grpc.ReportsStub(rch)
        admin.CreateCampaign(
            admin_pb2.CreateCampaignRequest(id=campaign, scenario=SCENARIO), metadata=admin_md
        )
        wait_for_turn(admin, admin_md, campaign, 1)
        lines.append(f"campaign {campaign!r} created from scenario {SCENARIO!r}; turn 1 open")
        for path in sorted(EXAMPLES.glob("*.txt")):
            player = path.stem.split("-", 1)[0]
            md = (("x-pate-player", player), ("x-pate-password", scenario.passwords[player]))
            resp = desk.SubmitOrders(
                orders_pb2.SubmitOrdersRequest(
                    campaign_id=campaign,
                    turn=1,
                    orders_text=path.read_text(),
                    client_request_id=uuid.uuid4().hex,
                ),
                metadata=md,
            )
            lines.append(f"  {player}: {resp.accepted} orders accepted ({', '.join(resp.ship_ids)})")
        closed = time.monotonic()
        admin.CloseTurn(admin_pb2.CloseTurnRequest(campaign_id=campaign, turn=1), metadata=admin_md)
        wait_for_turn(admin, admin_md, campaign, 2)
        lines.append(f"turn 1 closed, resolved and reported in {time.monotonic() - closed:.2f} s")
        outdir.mkdir(parents=True, exist_ok=True)
        for player in sorted(scenario.passwords):
            md = (("x-pate-player", player), ("x-pate-password", scenario.passwords[player]))
            for fmt in ("text", "html", "json"):
                rep = reports.GetReport(
                    reports_pb2.GetReportRequest(campaign_id=campaign, turn=1, format=fmt), metadata=md
                )
                (outdir / f"{player}-turn-1.{_EXT[fmt]}").write_text(rep.body)
            knowledge: PlayerKnowledge = from_plain(
                PlayerKnowledge, json.loads((outdir / f"{player}-turn-1.json").read_text())
            )
            lines.append(f"  {player}: {_summary(knowledge)}  -> {outdir / (player + '-turn-1.html')}")
            lines += [f"    {line}" for line in _landings(knowledge)]
    if cluster.gitm_addr:
        lines += _land_side(cluster.gitm_addr, campaign)
    lines.insert(0, f"demo played in {time.monotonic() - started:.1f} s")
    return "\n".join(lines)


def _landings(knowledge: PlayerKnowledge) -> list[str]:
    """The player's own loadings and landings of the turn (rules 3.6, 3.9)."""
    out = []
    for e in knowledge.events:
        d = e.data
        if e.kind == "transfer_completed" and not d.get("cancelled") and d.get("units"):
            verb = "landed" if d.get("direction") == "unload" else "loaded"
            out.append(f"{', '.join(e.ships)} {verb} {', '.join(d['units'])} at {d.get('port')}")
    return out


def _land_side(addr: str, campaign: str, timeout: float = 30) -> list[str]:
    """Where the reference GITM land service holds the campaign's units once
    the bridge has told it the turn (its last call is the turn's sightings)."""
    from gitm.v1 import reference_admin_pb2, reference_admin_pb2_grpc

    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(addr) as ch:
        admin = reference_admin_pb2_grpc.ReferenceAdminStub(ch)
        while True:
            snap = admin.Snapshot(reference_admin_pb2.SnapshotRequest(campaign_id=campaign), timeout=10)
            if snap.sighting_reports >= 1 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
    places = [
        f"{u.id} {'aboard ' + u.transport_id if u.transport_id else 'in ' + u.city}"
        for u in snap.units
        if not u.fate
    ]
    told = "told of turn 1" if snap.sighting_reports else "not yet told of turn 1"
    return [f"GITM (reference land service, {told}): {', '.join(places) or 'no units'}"]


def _summary(knowledge: PlayerKnowledge) -> str:
    return f"{len(knowledge.ships)} ships reported, {len(knowledge.events)} events seen"
