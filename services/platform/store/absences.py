"""Absences, the game master's allowance and standing instructions (migration 0019;
docs/bots.md "Absence")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, and_, delete, select, update

from services.platform.store.absence_tables import absence_rules, absences, standing_instructions

DEFAULT_ALLOWANCE = 3  # absent turns a player may declare in a campaign, unless the game master says


@dataclass(frozen=True, slots=True)
class Absence:
    player: str
    from_turn: int
    to_turn: int

    @property
    def turns(self) -> int:
        return self.to_turn - self.from_turn + 1

    def covers(self, turn: int) -> bool:
        return self.from_turn <= turn <= self.to_turn


def allowance(conn: Connection, campaign: str) -> int:
    t = absence_rules
    found = conn.execute(select(t.c.allowance).where(t.c.campaign == campaign)).scalar()
    return DEFAULT_ALLOWANCE if found is None else int(found)


def set_allowance(conn: Connection, campaign: str, turns: int) -> None:
    t = absence_rules
    if conn.execute(update(t).where(t.c.campaign == campaign).values(allowance=turns)).rowcount == 0:
        conn.execute(t.insert().values(campaign=campaign, allowance=turns))


def of_campaign(conn: Connection, campaign: str, player: str | None = None) -> list[Absence]:
    t = absences
    where = (
        t.c.campaign == campaign if player is None else and_(t.c.campaign == campaign, t.c.player == player)
    )
    rows = conn.execute(select(t).where(where).order_by(t.c.player, t.c.from_turn)).all()
    return [Absence(r.player, r.from_turn, r.to_turn) for r in rows]


def add(conn: Connection, campaign: str, a: Absence, now: datetime) -> None:
    conn.execute(
        absences.insert().values(
            campaign=campaign, player=a.player, from_turn=a.from_turn, to_turn=a.to_turn, declared_at=now
        )
    )


def _key(campaign: str, player: str, from_turn: int):  # type: ignore[no-untyped-def]
    t = absences
    return and_(t.c.campaign == campaign, t.c.player == player, t.c.from_turn == from_turn)


def shorten(conn: Connection, campaign: str, a: Absence, to_turn: int) -> None:
    """Ends the absence at ``to_turn``; before its first turn, it is gone."""
    if to_turn < a.from_turn:
        conn.execute(delete(absences).where(_key(campaign, a.player, a.from_turn)))
    else:
        conn.execute(update(absences).where(_key(campaign, a.player, a.from_turn)).values(to_turn=to_turn))


def standing_text(conn: Connection, campaign: str, player: str) -> str:
    t = standing_instructions
    found = conn.execute(
        select(t.c.text).where(and_(t.c.campaign == campaign, t.c.player == player))
    ).scalar()
    return str(found or "")


def set_standing_text(conn: Connection, campaign: str, player: str, text: str, now: datetime) -> None:
    t = standing_instructions
    key = and_(t.c.campaign == campaign, t.c.player == player)
    conn.execute(delete(t).where(key))
    if text:
        conn.execute(t.insert().values(campaign=campaign, player=player, text=text, set_at=now))
