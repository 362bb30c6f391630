"""PATE's side of a GITM campaign for the land team's operators (edition 4, docs/gitm.md
"Export and audit", A5 and A23): ``pate gitm export CAMPAIGN`` (one JSON document, schema
``pate-gitm-export`` version 1) and ``pate gitm audit CAMPAIGN`` (PATE's audit rows about GITM
as JSON lines).  PATE's side is read as ``pate gitm reconcile`` reads it
(:func:`services.resolver.reconcile.pate_side`), so the three agree."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, and_, or_, select

from pate.core.world.ships import InPort
from pate.engine.context import turn_context
from pate.gitmkit.contract_data import data_digest
from services.platform.store import repository as repo
from services.platform.store import tables
from services.resolver import bridge, gitm_end
from services.resolver.reconcile import pate_side
from services.resolver.reconcile_diff import PateSide

FORMAT, VERSION = "pate-gitm-export", 1
# the consumers whose poison rows are about GITM (the bridge's turns, the operators' ends)
GITM_CONSUMERS = (bridge.DURABLE, gitm_end.END_DURABLE)
MAX_ROWS = 100_000  # an audit listing is bounded: a campaign of 100 turns writes far fewer


def export(conn: Connection, campaign: str) -> dict[str, Any]:
    """The document of docs/gitm.md "Export and audit": every transport group and what is
    aboard, every on-map city's holder, garrison, strategic-square units and stock, every
    transfer PATE made and whether its turn's calls reached GITM."""
    side = pate_side(conn, campaign)
    row = repo.get_campaign(conn, campaign)
    assert row is not None  # pate_side found it
    wmap = turn_context().map
    on_map = {n for n, p in wmap.ports.items() if p.on_gitm_map}
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": campaign,
        "turn": side.world.turn - 1,
        "status": row.status,
        "last_turn": row.turns,
        "data_digest": data_digest(),
        "delivered_turns": sorted(side.delivered),
        "transports": _transports(side, on_map),
        "cities": [_city(side, name) for name in sorted(on_map) if name in side.world.ports],
        "transfers": _transfers(side),
    }


def _transports(side: PateSide, on_map: set[str]) -> list[dict[str, Any]]:
    out = []
    for ship in sorted(side.world.ships.values(), key=lambda s: s.id):
        if ship.type.value != "TR" and not ship.cargo.units and not ship.cargo.supplies:
            continue
        port = ship.location.port if isinstance(ship.location, InPort) else ""
        out.append(
            {
                "id": ship.id,
                "state": ship.state,
                "city": port if port in on_map else "",
                "units": list(ship.cargo.units),
                "supplies": ship.cargo.supplies,
            }
        )
    return out


def _city(side: PateSide, name: str) -> dict[str, Any]:
    port = side.world.ports[name]
    return {
        "city": name,
        "holder": port.controller,
        "garrison": sorted(port.garrison),
        "strategic": sorted(port.strategic_units),
        "supplies": port.supplies,
    }


def _transfers(side: PateSide) -> list[dict[str, Any]]:
    out = []
    for tid, (turn, begin, completion) in sorted(side.transfers().items()):
        state = "begun" if completion is None else ("cancelled" if completion.cancelled else "completed")
        out.append(
            {
                "transfer_id": tid,
                "turn": turn,
                "port": begin.port,
                "transport": begin.transport,
                "direction": begin.direction,
                "units": list(begin.units),
                "supplies": begin.supplies,
                "state": state,
                "undone": tid in side.undone,
                "delivered": turn in side.delivered,
            }
        )
    return out


def audit_rows(conn: Connection, campaign: str, since_turn: int = 0) -> Iterator[dict[str, Any]]:
    """PATE's audit rows about GITM for ``campaign`` from ``since_turn`` on, oldest first: the
    rows the bridge and the operators' commands write (``gitm_*``) and the poison rows of the
    bridge's consumers.  Their detail is the calls' content and GITM's own answers: no token,
    password or address of PATE's."""
    if repo.get_campaign(conn, campaign) is None:
        raise LookupError(f"no campaign {campaign!r}")
    a = tables.audit.c
    about = or_(a.action.startswith("gitm_", autoescape=True), a.action == "poison_message")
    rows = conn.execute(
        select(a.id, a.created_at, a.turn, a.action, a.accepted, a.detail_json)
        .where(and_(a.campaign == campaign, about, or_(a.turn.is_(None), a.turn >= since_turn)))
        .order_by(a.id)
        .limit(MAX_ROWS)
    ).all()
    for r in rows:
        detail = json.loads(r.detail_json or "{}")
        if r.action == "poison_message" and detail.get("consumer") not in GITM_CONSUMERS:
            continue
        yield {
            "id": int(r.id),
            "at": r.created_at.isoformat(),
            "campaign": campaign,
            "turn": r.turn,
            "action": r.action,
            "accepted": bool(r.accepted),
            "detail": detail,
        }
