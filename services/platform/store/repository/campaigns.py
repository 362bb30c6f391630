"""Campaign rows, the turn status machine, players and the audit trail."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, Update, and_, bindparam, func, insert, select, update

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
    gitm: bool = False  # played with the GITM land side, fixed at creation (docs/gitm.md)


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
        gitm=bool(row.gitm),
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
        "gitm": c.gitm,
    }
    conn.execute(insert(_t("campaigns")).values(**values))


@cache
def _campaign_query(for_update: bool) -> Select[Any]:
    q = select(_t("campaigns")).where(_t("campaigns").c.id == bindparam("campaign"))
    return q.with_for_update() if for_update else q


@cache
def _touch_campaign() -> Update:
    c = _t("campaigns").c
    return update(_t("campaigns")).where(c.id == bindparam("campaign")).values(version=c.version)


def get_campaign(conn: Connection, campaign: str, *, lock: bool = False) -> CampaignRow | None:
    postgres = conn.dialect.name == "postgresql"
    if lock and not postgres:
        # SQLite locks on the first write: take the write lock before reading,
        # so the status read cannot change before this transaction commits.
        conn.execute(_touch_campaign(), {"campaign": campaign})
    row = conn.execute(_campaign_query(lock and postgres), {"campaign": campaign}).first()
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
    params: dict[str, Any] = {"b_id": campaign, "b_turn": turn, "b_status": status}
    params.update((f"b_expect_{i}", s) for i, s in enumerate(expect))
    if new_turn is not None:
        params["b_new_turn"] = new_turn
    if deadline is not False:
        params["b_deadline"] = deadline
    stmt = _status_update(new_turn is not None, deadline is not False, len(expect))
    return conn.execute(stmt, params).rowcount == 1


@cache
def _status_update(new_turn: bool, deadline: bool, expected: int) -> Update:
    """The compare-and-set of set_status, built once for each set of columns it changes and
    each count of statuses it expects (one parameter each: an expanding parameter made the
    statement's text again at every call, which cost as much as running it)."""
    c = _t("campaigns").c
    values: dict[str, Any] = {"status": bindparam("b_status"), "version": c.version + 1}
    if new_turn:
        values["turn"] = bindparam("b_new_turn")
    if deadline:
        values["deadline"] = bindparam("b_deadline")
    where = and_(
        c.id == bindparam("b_id"),
        c.turn == bindparam("b_turn"),
        c.status.in_([bindparam(f"b_expect_{i}") for i in range(expected)]),
    )
    return update(_t("campaigns")).where(where).values(**values)


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


def count_audit(conn: Connection, campaign: str, turn: int, player: str, action: str) -> int:
    """How many times the player did ``action`` in the turn, by the audit trail."""
    c = _t("audit").c
    query = select(func.count()).where(
        and_(c.campaign == campaign, c.turn == turn, c.player == player, c.action == action)
    )
    return int(conn.execute(query).scalar_one())
