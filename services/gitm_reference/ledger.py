"""The reference land service's ledger: one transaction under one lock per
call, a campaign seeded the first time it is named, and the rows every part
of the store shares (units, supply stocks).

The reference service is one process: two copies of the same call arriving
together are served one after the other (the second finds the first's
record)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, insert, select, update

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t


@dataclass
class Behaviour:
    """Deliberate faults of the store itself (the servicer adds the network ones)."""

    refuse_all: bool = False
    forget: bool = False  # no idempotency: a repeated call is done again
    ignore_sightings: bool = False
    no_refusals: bool = False
    lose_supplies: bool = False  # a completed transfer's supplies leave their place and arrive nowhere


Seeder = Callable[[Connection, str], str]


class Ledger:
    """The database, its lock, the seeder of new campaigns and the store's
    deliberate faults, shared by the transfers, the reports and the admin side."""

    def __init__(self, engine: Engine, seeder: Seeder | None = None) -> None:
        self.engine = engine
        self.seeder = seeder
        self.behaviour = Behaviour()
        self._lock = threading.RLock()
        t.metadata.create_all(engine)

    def tx(self, fn: Callable[[Connection], Any]) -> Any:
        with self._lock, self.engine.begin() as conn:
            return fn(conn)

    def campaign(self, conn: Connection, campaign: str) -> None:
        """A campaign GITM has not seen is seeded once (from the scenario the
        service was started with: PATE_GITM_SCENARIO)."""
        if conn.execute(select(t.campaigns.c.campaign).where(t.campaigns.c.campaign == campaign)).first():
            return
        source = self.seeder(conn, campaign) if self.seeder else ""
        conn.execute(insert(t.campaigns).values(campaign=campaign, seeded_from=source))


def stock(conn: Connection, campaign: str, kind: str, place: str) -> tuple[int, int]:
    c = t.stocks.c
    row = conn.execute(
        select(c.supplies, c.reserved).where(and_(c.campaign == campaign, c.kind == kind, c.place == place))
    ).first()
    return (row.supplies, row.reserved) if row else (0, 0)


def set_stock(conn: Connection, campaign: str, kind: str, place: str, supplies: int, reserved: int) -> None:
    c = t.stocks.c
    where = and_(c.campaign == campaign, c.kind == kind, c.place == place)
    if conn.execute(select(c.place).where(where)).first():
        conn.execute(update(t.stocks).where(where).values(supplies=supplies, reserved=reserved))
    else:
        conn.execute(
            insert(t.stocks).values(
                campaign=campaign, kind=kind, place=place, supplies=supplies, reserved=reserved
            )
        )


def units(conn: Connection, campaign: str, ids: Iterable[str]) -> dict[str, Any]:
    c = t.units.c
    wanted = list(ids)
    rows = conn.execute(select(t.units).where(and_(c.campaign == campaign, c.id.in_(wanted)))).all()
    return {r.id: r for r in rows}


def move_units(conn: Connection, campaign: str, ids: Iterable[str], **values: Any) -> None:
    c = t.units.c
    conn.execute(update(t.units).where(and_(c.campaign == campaign, c.id.in_(list(ids)))).values(**values))


def station_unit(conn: Connection, campaign: str, unit: land_pb2.Unit, *, city: str, transport: str) -> None:
    c = t.units.c
    conn.execute(t.units.delete().where(and_(c.campaign == campaign, c.id == unit.id)))
    conn.execute(
        insert(t.units).values(
            campaign=campaign,
            id=unit.id,
            state=unit.state or unit.id[:2],
            infantry=max(0, unit.infantry),
            cavalry=max(0, unit.cavalry),
            artillery=max(0, unit.artillery),
            batteries=max(0, unit.batteries),
            headquarters=unit.headquarters or "none",
            hq_supplies=max(0, unit.supplies),
            city=city,
            tactical=bool(unit.tactical_square) if city else False,
            transport=transport,
            fate="",
            captor="",
            reserved_by="",
        )
    )
