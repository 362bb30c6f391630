"""The reference land service's ledger: one transaction under one lock per
call, a campaign seeded the first time it is named, and the rows every part
of the store shares (units, supply stocks).

The reference service is one process: two copies of the same call arriving
together are served one after the other (the second finds the first's
record)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, insert, select, update

from gitm.v1 import land_pb2
from services.gitm_reference import tables as t
from services.gitm_reference.checks import ClosedCampaignError, ReusedIdError, UnknownCityError, request_sha


@dataclass
class Behaviour:
    """Deliberate faults of the store itself (the servicer adds the network ones)."""

    refuse_all: bool = False
    forget: bool = False  # no idempotency: a repeated call is done again
    ignore_sightings: bool = False
    no_refusals: bool = False
    lose_supplies: bool = False  # a completed transfer's supplies leave their place and arrive nowhere
    mutant: str = ""  # one numbered obligation broken on purpose (services/gitm_reference/mutants.py)
    clock_ahead_seconds: float = 0.0  # the holds' clock runs ahead (Faults.clock_ahead_seconds)

    def broken(self, name: str) -> bool:
        return self.mutant == name


Seeder = Callable[[Connection, str], str]


class Ledger:
    """The database, its lock, the seeder of new campaigns and the store's
    deliberate faults, shared by the transfers, the reports and the admin side."""

    def __init__(
        self, engine: Engine, seeder: Seeder | None = None, cities: frozenset[str] | None = None
    ) -> None:
        self.engine = engine
        self.seeder = seeder
        self.cities = cities  # the port cities on GITM's map; None: any name is a city
        self.behaviour = Behaviour()
        self._lock = threading.RLock()
        self.clock: Callable[[], float] = time.time  # the holds' expiry (edition 4); tests move it
        t.metadata.create_all(engine)

    def tx(self, fn: Callable[[Connection], Any]) -> Any:
        with self._lock, self.engine.begin() as conn:
            return fn(conn)

    def campaign(self, conn: Connection, campaign: str) -> None:
        """A campaign GITM has not seen is seeded once (from the scenario the
        service was started with: PATE_GITM_SCENARIO) unless PATE opens it
        (OpenCampaign); a closed campaign takes no more calls."""
        if closed(conn, campaign) and not self.behaviour.broken("close_ignored"):
            raise ClosedCampaignError(f"campaign {campaign} is closed", campaign_id=campaign)
        if conn.execute(select(t.campaigns.c.campaign).where(t.campaigns.c.campaign == campaign)).first():
            return
        source = self.seeder(conn, campaign) if self.seeder else ""
        conn.execute(insert(t.campaigns).values(campaign=campaign, seeded_from=source))

    def known(self, conn: Connection, campaign: str) -> None:
        """UnitsNear of a campaign neither opened nor seeded from a scenario is NOT_FOUND."""
        c = t.campaigns.c
        if self.seeder is not None or self.behaviour.broken("near_unopened_ok"):
            return
        if not conn.execute(select(c.campaign).where(c.campaign == campaign)).first():
            raise UnknownCityError(
                f"no campaign {campaign!r}: PATE has not opened it",
                reason="CAMPAIGN_NOT_OPENED",
                campaign_id=campaign,
            )

    def city(self, port: str) -> None:
        if not self.on_map(port):
            raise UnknownCityError(f"no city {port!r} on the GITM map", port=port)

    def on_map(self, port: str) -> bool:
        return self.cities is None or port in self.cities

    def first_time(self, conn: Connection, kind: str, key: str, msg: Any) -> bool:
        """Whether the call ``kind`` with id ``key`` is new; a repeat with other
        content is ALREADY_EXISTS (docs/gitm.md, L12)."""
        sha = request_sha(msg)
        c = t.request_shas.c
        row = conn.execute(select(c.sha).where(and_(c.kind == kind, c.id == key))).first()
        if row is None:
            conn.execute(insert(t.request_shas).values(kind=kind, id=key, sha=sha))
            return True
        if row.sha != sha and not self.behaviour.broken("accept_reused"):
            raise ReusedIdError(f"{kind} {key} was received before with other content", call=kind, id=key)
        return False


def closed(conn: Connection, campaign: str) -> bool:
    c = t.closed_campaigns.c
    return conn.execute(select(c.campaign).where(c.campaign == campaign)).first() is not None


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
