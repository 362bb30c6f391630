"""Resolutions, events, knowledge and reports of each turn (world states: worlds.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, and_, bindparam, case, select

from pate.core.codec import canonical_json, from_plain, parse_json, to_plain
from pate.core.events import Event
from pate.rulesversion import rules_version
from services.platform.store.repository.base import _t, insert_into, now, of_turn

# --- resolution and events ------------------------------------------------------


def save_resolution(conn: Connection, campaign: str, turn: int, orders_json: str, result_sha: str) -> None:
    """The replay record of a turn, with the version of the rules that resolved it."""
    values = {
        "campaign": campaign,
        "turn": turn,
        "orders_json": orders_json,
        "result_sha256": result_sha,
        "resolved_at": now(),
        "rules_version": rules_version(),
    }
    conn.execute(insert_into("resolutions"), values)


def resolution_rules(conn: Connection, campaign: str, turn: int) -> str | None:
    """The rules version a turn was resolved under (None: resolved before it was recorded)."""
    c = _t("resolutions").c
    found: str | None = conn.execute(
        select(c.rules_version).where(and_(c.campaign == campaign, c.turn == turn))
    ).scalar()
    return found


def load_resolution(conn: Connection, campaign: str, turn: int) -> tuple[str, str] | None:
    query = of_turn("resolutions", "orders_json", "result_sha256")
    row = conn.execute(query, {"campaign": campaign, "turn": turn}).first()
    return (row.orders_json, row.result_sha256) if row else None


def save_events(conn: Connection, campaign: str, turn: int, events: Sequence[Event]) -> str:
    """Store the events of a turn; returns them as one canonical JSON array (events_json),
    made from the rows' own texts rather than by encoding every event again."""
    texts = [canonical_json(to_plain(e)) for e in events]
    if texts:
        conn.execute(
            insert_into("turn_events"),
            [
                {
                    "campaign": campaign,
                    "turn": turn,
                    "seq": i,
                    "phase": e.phase.value,
                    "kind": e.kind,
                    "event_json": text,
                }
                for i, (e, text) in enumerate(zip(events, texts, strict=True))
            ],
        )
    return "[" + ",".join(texts) + "]"  # what canonical_json makes of the list


def load_events(conn: Connection, campaign: str, turn: int) -> list[Event]:
    query = of_turn("turn_events", "event_json").order_by(_t("turn_events").c.seq)
    rows = conn.execute(query, {"campaign": campaign, "turn": turn}).all()
    # one parse of them all as one array: the same values, without a parse's fixed cost per event
    return [from_plain(Event, e) for e in parse_json("[" + ",".join(r.event_json for r in rows) + "]")]


def events_json(events: Sequence[Event]) -> str:
    return canonical_json([to_plain(e) for e in events])


# --- knowledge and reports --------------------------------------------------------


def save_knowledge(conn: Connection, campaign: str, turn: int, player: str, text: str) -> None:
    save_all_knowledge(conn, campaign, turn, {player: text})


def save_all_knowledge(conn: Connection, campaign: str, turn: int, texts: Mapping[str, str]) -> None:
    """Every player's knowledge of a turn in one statement (rows in player order)."""
    if texts:
        conn.execute(
            insert_into("knowledge"),
            [
                {"campaign": campaign, "turn": turn, "player": p, "knowledge_json": texts[p]}
                for p in sorted(texts)
            ],
        )


def knowledge_exists(conn: Connection, campaign: str, turn: int) -> bool:
    query = of_turn("knowledge", "player").limit(1)
    return conn.execute(query, {"campaign": campaign, "turn": turn}).first() is not None


@cache
def _knowledge_of_two() -> Select[Any]:
    c = _t("knowledge").c
    text = case((c.turn == bindparam("before"), c.knowledge_json), else_=None).label("text")
    where = and_(c.campaign == bindparam("campaign"), c.turn.in_([bindparam("before"), bindparam("turn")]))
    return select(c.turn, c.player, text).where(where).order_by(c.turn, c.player)


def knowledge_before(conn: Connection, campaign: str, turn: int) -> dict[str, str] | None:
    """Each player's knowledge of the turn before ``turn``, or None when the knowledge of
    ``turn`` is stored already: knowledge_exists and load_knowledge in one statement (the
    rows of ``turn`` come without their text)."""
    params = {"campaign": campaign, "turn": turn, "before": turn - 1}
    rows = conn.execute(_knowledge_of_two(), params).all()
    if any(r.turn == turn for r in rows):
        return None
    return {r.player: r.text for r in rows}


def load_knowledge(conn: Connection, campaign: str, turn: int) -> dict[str, str]:
    query = of_turn("knowledge", "player", "knowledge_json").order_by(_t("knowledge").c.player)
    rows = conn.execute(query, {"campaign": campaign, "turn": turn}).all()
    return {r.player: r.knowledge_json for r in rows}


def load_player_knowledge(conn: Connection, campaign: str, turn: int, player: str) -> str | None:
    """One player's knowledge of a turn (his JSON report), or None."""
    query = of_turn("knowledge", "knowledge_json").where(_t("knowledge").c.player == bindparam("player"))
    row = conn.execute(query, {"campaign": campaign, "turn": turn, "player": player}).first()
    return row.knowledge_json if row else None


def save_report(conn: Connection, campaign: str, turn: int, player: str, fmt: str, body: str) -> None:
    save_reports(conn, campaign, turn, fmt, {player: body})


def save_reports(conn: Connection, campaign: str, turn: int, fmt: str, bodies: Mapping[str, str]) -> None:
    """The reports of one form for many players in one statement (rows in player order)."""
    if bodies:
        conn.execute(
            insert_into("reports"),
            [
                {"campaign": campaign, "turn": turn, "player": p, "format": fmt, "body": bodies[p]}
                for p in sorted(bodies)
            ],
        )


@cache
def _report_query() -> Select[Any]:
    c = _t("reports").c
    return of_turn("reports", "body").where(c.player == bindparam("player"), c.format == bindparam("fmt"))


def load_report(conn: Connection, campaign: str, turn: int, player: str, fmt: str) -> str | None:
    params = {"campaign": campaign, "turn": turn, "player": player, "fmt": fmt}
    row = conn.execute(_report_query(), params).first()
    return row.body if row else None


def list_reports(conn: Connection, campaign: str, player: str | None) -> list[tuple[int, str]]:
    c = _t("reports").c
    q = select(c.turn, c.player).where(c.campaign == campaign).distinct().order_by(c.turn, c.player)
    if player:
        q = q.where(c.player == player)
    return [(r.turn, r.player) for r in conn.execute(q).all()]
