"""A campaign the reference service has not seen starts as a scenario starts
(PATE_GITM_SCENARIO, default "training"): the units and supplies of every
on-GITM-map port city and those aboard the transport groups (rule 1.5:
off-GITM-map ports have no land side).

Every such city and every transport group gets its supply stock, also when
it is zero: the snapshot reports what GITM holds, and "none here" is part of
it (docs/gitm.md, "Conservation")."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection

from gitm.v1 import land_pb2
from pate.core.world.ships import ShipType
from pate.core.world.state import LandUnit, WorldState
from services.gitm_reference import tables as t
from services.gitm_reference.ledger import Seeder, station_unit

NO_SCENARIO = "none"


def unit_pb(u: LandUnit, tactical: bool) -> land_pb2.Unit:
    return land_pb2.Unit(
        id=u.id,
        state=u.state,
        tactical_square=tactical,
        infantry=u.infantry,
        cavalry=u.cavalry,
        artillery=u.artillery,
        batteries=u.batteries,
        headquarters=u.headquarters.value,
        supplies=u.supplies,
    )


def seed_world(conn: Connection, campaign: str, world: WorldState, on_map: Callable[[str], bool]) -> None:
    units = world.land_units
    for name, port in sorted(world.ports.items()):
        if not on_map(name):
            continue
        for uid, tactical in [(u, True) for u in port.garrison] + [(u, False) for u in port.strategic_units]:
            known = units.get(uid) or LandUnit(uid, uid[:2])
            station_unit(conn, campaign, unit_pb(known, tactical), city=name, transport="")
        conn.execute(
            t.stocks.insert().values(campaign=campaign, kind="city", place=name, supplies=port.supplies)
        )
    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        for uid in ship.cargo.units:
            known = units.get(uid) or LandUnit(uid, uid[:2])
            station_unit(conn, campaign, unit_pb(known, False), city="", transport=ship.id)
        if ship.type is ShipType.TR or ship.cargo.supplies:
            conn.execute(
                t.stocks.insert().values(
                    campaign=campaign, kind="transport", place=ship.id, supplies=ship.cargo.supplies
                )
            )


def scenario_seeder(name: str) -> Seeder | None:
    """Seeds each new campaign from scenario ``name``; "none": no seeder, a
    campaign's land is what OpenCampaign (or the administration) puts there."""
    if name == NO_SCENARIO:
        return None

    def seed(conn: Connection, campaign: str) -> str:
        from pate.datafiles import load_scenario, load_world_map

        wmap = load_world_map()
        seed_world(
            conn, campaign, load_scenario(name).world, lambda p: p in wmap.ports and wmap.ports[p].on_gitm_map
        )
        return name

    return seed
