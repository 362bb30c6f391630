"""Campaign rows, the turn status machine, players and the audit trail."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update

from pate.core.codec import canonical_json
from pate.rulesversion import rules_version
from services.platform.store.repository.base import _t, now

STATUSES = ("STARTING", "OPEN", "CLOSED", "RESOLVING", "RESOLVED", "REPORTED", "FINISHED")


@dataclass(frozen=True, slots=True)
class CampaignRow:
    id: str
    name: str
    scenario: str
    seed: int
    turns: int
    turn: int
    status: str
    deadline: datetime | None
    turn_seconds: int
    combat_rules: str = "pate"  # the world's combat_rules, stored to be shown (docs/rules/eia.md)
    naval_rules: str = "pate"  # the world's naval_rules (docs/rules/eia-operations.md)


def _campaign(row: Any) -> CampaignRow:
    deadline = row.deadline
    if deadline is not None and deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=UTC)
    return CampaignRow(
        id=row.id,
        name=row.name,
        scenario=row.scenario,
        seed=int(row.seed),
        turns=row.turns,
        turn=row.turn,
        status=row.status,
        deadline=deadline,
        turn_seconds=int(row.turn_seconds),
        combat_rules=row.combat_rules,
        naval_rules=row.naval_rules,
    )


def insert_campaign(conn: Connection, c: CampaignRow) -> None:
    values: dict[str, Any] = {
        "id": c.id,
        "name": c.name,
        "scenario": c.scenario,
        "seed": c.seed,
        "turns": c.turns,
        "turn": c.turn,
        "status": c.status,
        "deadline": c.deadline,
        "created_at": now(),
        "version": 1,
        "rules_version": rules_version(),  # the rules and data it is created under
        "turn_seconds": c.turn_seconds,
        "combat_rules": c.combat_rules,
        "naval_rules": c.naval_rules,
    }
    conn.execute(insert(_t("campaigns")).values(**values))


def get_campaign(conn: Connection, campaign: str, *, lock: bool = False) -> CampaignRow | None:
    c = _t("campaigns").c
    q = select(_t("campaigns")).where(c.id == campaign)
    if lock and conn.dialect.name == "postgresql":
        q = q.with_for_update()
    elif lock:
        # SQLite locks on the first write: take the write lock before reading,
        # so the status read cannot change before this transaction commits.
        conn.execute(update(_t("campaigns")).where(c.id == campaign).values(version=c.version))
    row = conn.execute(q).first()
    return _campaign(row) if row else None


def list_campaigns(conn: Connection) -> list[CampaignRow]:
    rows = conn.execute(select(_t("campaigns")).order_by(_t("campaigns").c.id)).all()
    return [_campaign(r) for r in rows]


def set_status(
    conn: Connection,
    campaign: str,
    *,
    turn: int,
    expect: Sequence[str],
    status: str,
    new_turn: int | None = None,
    deadline: datetime | bool | None = False,
) -> bool:
    """Move a campaign's turn from one of ``expect`` to ``status``; False when
    another process got there first (compare-and-set on status and turn)."""
    c = _t("campaigns").c
    values: dict[str, Any] = {"status": status, "version": c.version + 1}
    if new_turn is not None:
        values["turn"] = new_turn
    if deadline is not False:
        values["deadline"] = deadline
    res = conn.execute(
        update(_t("campaigns"))
        .where(and_(c.id == campaign, c.turn == turn, c.status.in_(list(expect))))
        .values(**values)
    )
    return res.rowcount == 1


def due_campaigns(conn: Connection, at: datetime) -> list[CampaignRow]:
    c = _t("campaigns").c
    rows = conn.execute(
        select(_t("campaigns")).where(and_(c.status == "OPEN", c.deadline.is_not(None), c.deadline <= at))
    ).all()
    return [_campaign(r) for r in rows]


# --- players ------------------------------------------------------------------


def insert_players(conn: Connection, campaign: str, rows: Iterable[dict[str, Any]]) -> None:
    for r in rows:
        conn.execute(insert(_t("players")).values(campaign=campaign, **r))


def get_player(conn: Connection, campaign: str, player: str) -> Any:
    c = _t("players").c
    return conn.execute(select(_t("players")).where(and_(c.campaign == campaign, c.id == player))).first()


def set_password(conn: Connection, campaign: str, player: str, password_hash: str) -> bool:
    c = _t("players").c
    res = conn.execute(
        update(_t("players"))
        .where(and_(c.campaign == campaign, c.id == player))
        .values(password_hash=password_hash)
    )
    return res.rowcount == 1


def audit_row(
    campaign: str, turn: int, player: str, action: str, accepted: bool, detail: Any, created_at: datetime
) -> dict[str, Any]:
    """One row of the audit trail."""
    return {
        "campaign": campaign,
        "turn": turn,
        "player": player,
        "action": action,
        "accepted": accepted,
        "detail_json": canonical_json(detail),
        "created_at": created_at,
    }


def audit(
    conn: Connection, campaign: str, turn: int, player: str, action: str, accepted: bool, detail: Any
) -> None:
    conn.execute(
        insert(_t("audit")).values(**audit_row(campaign, turn, player, action, accepted, detail, now()))
    )
