"""GITM's ``UnitsNear`` answer carries unit sizes (gitm.v1.Unit fields 4-9), which the bridge
turns into what ``landsync.apply_land_reports`` takes (lost section 9)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gitm.v1 import land_pb2
from pate.core.rules.landsync import PortLandReport, apply_land_reports
from pate.core.world.ships import Cargo
from pate.core.world.state import Headquarters, LandUnit
from services.resolver.gitm import GitmClient
from services.resolver.land_questions import land_reports, land_unit
from tests.cases.turn.turn_world import CTX, harbor, infantry, ship, world
from tests.support.gitm_reference import LAND_TOKEN, reference_gitm

CORPS = LandUnit("FR1HQ", "FR", 200, 0, 0, 0, Headquarters.CORPS, 8)
DIVISION = LandUnit("FR3IN", "FR", infantry=5000, cavalry=300, artillery=40, batteries=1)


def test_the_bridge_reads_sizes_from_a_real_gitm_server_and_the_world_takes_them(tmp_path: Path) -> None:
    """The city's units come with their sizes; a unit GITM reports without a size keeps PATE's
    (FR1IN); the strategic square's units are ids only (5.3)."""
    w = world(
        [ship("FR1TR", harbor("Brest"))],
        ports={"Brest": {"garrison": ("FR1IN",)}},
        units=[infantry("FR1IN", 3000)],
    )
    with reference_gitm(tmp_path) as ref:
        ref.station(
            w.campaign, "Brest", [LandUnit("FR1IN", "FR"), DIVISION, CORPS], near=[infantry("FR4IN", 900)]
        )
        client = GitmClient(ref.addr, token=LAND_TOKEN)
        try:
            reports = land_reports(client, w, CTX.map)
        finally:
            client.close()
    # the reference service answers in unit id order
    # edition 2: the city stock too (none here); edition 4: over gRPC, the hold with the answer
    assert [replace(r, hold="", hold_expires_at=0) for r in reports] == [
        PortLandReport("Brest", (CORPS, LandUnit("FR1IN", "FR"), DIVISION), ("FR4IN",), 0)
    ]
    assert all(r.hold and r.hold_expires_at for r in reports)
    after = apply_land_reports(CTX.map, w, reports)
    assert after.ports["Brest"].garrison == ("FR1HQ", "FR1IN", "FR3IN")
    assert after.land_units == {"FR1HQ": CORPS, "FR1IN": infantry("FR1IN", 3000), "FR3IN": DIVISION}


def test_a_malformed_size_does_not_break_the_turn() -> None:
    """Negative sizes count 0 and an unknown headquarters kind none."""
    u = land_pb2.Unit(id="X1", state="FR", infantry=-3, cavalry=7, headquarters="division", supplies=-1)
    assert land_unit(u) == LandUnit("X1", "FR", cavalry=7)
    assert (
        land_unit(land_pb2.Unit(id="X2", state="BR", headquarters="army")).headquarters is Headquarters.ARMY
    )


def test_a_unit_pate_has_aboard_that_gitm_lists_ashore_stays_aboard_only() -> None:
    """GITM restored from a backup that lost a load lists the loaded unit in the city again: PATE
    keeps it aboard, out of the garrison and the strategic square (never both aboard and ashore,
    which would break the world's invariants and fail the turn); the reconciliation settles the
    disagreement (docs/gitm.md "Reconciliation", R1)."""
    loaded = replace(ship("FR1TR", harbor("Brest")), cargo=Cargo(units=("FR3IN",), space=5300))
    w = world([loaded], ports={"Brest": {"garrison": ("FR1IN",)}}, units=[infantry("FR1IN", 3000), DIVISION])
    report = PortLandReport("Brest", (LandUnit("FR1IN", "FR"), DIVISION), ("FR3IN", "FR4IN"), 0)
    after = apply_land_reports(CTX.map, w, [report])
    assert after.ports["Brest"].garrison == ("FR1IN",)
    assert after.ports["Brest"].strategic_units == ("FR4IN",)
    assert after.ships["FR1TR"].cargo.units == ("FR3IN",) and after.land_units["FR3IN"] == DIVISION
