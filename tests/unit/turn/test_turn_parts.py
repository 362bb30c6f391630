"""Unit tests of the pieces of the repair, supply and amphibious phases."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from gitm.v1 import land_pb2, reference_admin_pb2
from pate.core.orders.model import Movement
from pate.core.rules.admin import ready_turn
from pate.core.rules.groups import _weighted
from pate.core.rules.homing import course_home
from pate.core.rules.landsync import PortLandReport, apply_land_reports
from pate.core.rules.transport import SpaceRules, unit_space
from pate.core.world.ships import Cargo
from pate.core.world.state import Headquarters, LandUnit, TurnKind
from services.gitm_reference.inprocess import InProcessStub, memory_store
from services.resolver.gitm import GitmClient
from services.resolver.land_questions import land_reports
from tests.cases.turn.turn_world import CTX, coastal, harbor, infantry, sea, ship, world

SPACE = SpaceRules.of(CTX.rules)


def test_space_of_each_kind_of_unit() -> None:
    """Recovered section 9: infantry 1, cavalry 3, artillery 2 a man; headquarters 250 / 500 + 20
    a supply; a battery takes 100 men of its unit as artillerists (cavalry first)."""
    assert unit_space(LandUnit("A", "FR", infantry=3000), SPACE) == 3000
    assert unit_space(LandUnit("A", "FR", cavalry=1250), SPACE) == 3750
    assert unit_space(LandUnit("A", "FR", artillery=400), SPACE) == 800
    assert unit_space(LandUnit("A", "FR", headquarters=Headquarters.ARMY), SPACE) == 250
    assert unit_space(LandUnit("A", "FR", headquarters=Headquarters.CORPS, supplies=8), SPACE) == 660
    assert unit_space(LandUnit("A", "FR", infantry=2000, batteries=2), SPACE) == 1800 + 400
    assert unit_space(LandUnit("A", "FR", infantry=500, cavalry=50, batteries=1), SPACE) == 450 + 200
    assert (
        unit_space(LandUnit("A", "FR", infantry=30, batteries=1), SPACE) == 60
    )  # never more gunners than men


@given(inf=st.integers(0, 9000), cav=st.integers(0, 9000), art=st.integers(0, 900), bat=st.integers(0, 20))
def test_batteries_never_lower_the_space_below_the_men_or_raise_it_above_triple(
    inf: int, cav: int, art: int, bat: int
) -> None:
    space = unit_space(LandUnit("A", "FR", inf, cav, art, bat), SPACE)
    assert inf + cav + art <= space <= 3 * (inf + cav + art)


def test_weighted_mean_rounds_half_up() -> None:
    assert _weighted((1, 2), (1, 1)) == 2
    assert _weighted((3, 0), (2000, 6000)) == 1  # 0.75
    assert _weighted((10, 20), (3000, 3000)) == 15


def test_ready_turn_counts_campaign_turns_only() -> None:
    w = world(
        [], turn=2, turn_kinds=(TurnKind.CAMPAIGN,) * 3 + (TurnKind.PEACE,) * 2 + (TurnKind.CAMPAIGN,) * 10
    )
    assert ready_turn(w, 4) == 2 + 4 + 2
    assert ready_turn(replace(w, turn_kinds=()), 4) == 6


def test_course_home_from_a_port_names_the_sea_area_it_leaves_by() -> None:
    """6.4/6.5: a ship in port must sail to the connected sea area first; Cherbourg has no
    stores, so its nearest stocked friendly harbor is another Channel port."""
    w = world([], ports={"Cherbourg": {"stores": 0}})
    mv = course_home(CTX.map, w, ship("FR1SL", harbor("Cherbourg")))
    assert mv == Movement(sea_areas=("ECH",), port="Boulogne", harbor=True)


def test_course_home_far_away_sails_two_sea_areas_toward_it() -> None:
    """A French ship in the Norwegian Sea with every French and Spanish port but Brest empty:
    Brest is three sea areas away, so the course is the first two, and the port next turn."""
    fr = {n: {"stores": 0} for n, p in CTX.map.ports.items() if p.controller in ("FR", "SP") and n != "Brest"}
    w = world([], ports=fr)
    assert course_home(CTX.map, w, ship("FR1SL", sea("NWS"))) == Movement(("NNS", "NOS"))
    assert course_home(CTX.map, w, ship("FR1SL", sea("NNS"))) == Movement(
        ("NOS", "ECH"), "Brest", harbor=True
    )


def test_course_home_with_no_friendly_port_stays() -> None:
    w = world([], ports={n: {"controller": "BR"} for n in CTX.map.ports})
    assert course_home(CTX.map, w, ship("FR1SL", coastal("Brest"))) == Movement()


def test_land_reports_set_garrisons_and_keep_known_sizes() -> None:
    """A report replaces an on-map port's garrison and strategic units; a unit without a size
    keeps PATE's; units aboard transports are kept; off-map ports are not touched."""
    tr = ship("FR1TR", harbor("Brest"), cargo=Cargo(("FR9IN",), 0, 100))
    w = world(
        [tr],
        ports={"Brest": {"garrison": ("FR1IN", "FR2IN")}, "Martinique": {"garrison": ("FR5IN",)}},
        units=[
            infantry("FR1IN", 3000),
            infantry("FR2IN", 2000),
            infantry("FR9IN", 100),
            infantry("FR5IN", 50),
        ],
    )
    reports = [
        PortLandReport("Brest", (LandUnit("FR1IN", "FR"), infantry("FR3IN", 700)), ("FR4CA",)),
        PortLandReport("Martinique", ()),
    ]
    after = apply_land_reports(CTX.map, w, reports)
    assert after.ports["Brest"].garrison == ("FR1IN", "FR3IN")
    assert after.ports["Brest"].strategic_units == ("FR4CA",)
    assert after.land_units["FR1IN"].infantry == 3000 and after.land_units["FR3IN"].infantry == 700
    assert "FR2IN" not in after.land_units and "FR9IN" in after.land_units
    assert after.ports["Martinique"].garrison == ("FR5IN",)


def test_the_bridge_reads_land_reports_from_gitm() -> None:
    """Against the reference land store in process: only ports where ships lie are asked."""
    store = memory_store()
    store.station(
        reference_admin_pb2.StationRequest(
            units=[
                reference_admin_pb2.StationedUnit(
                    campaign_id="c1",
                    unit=land_pb2.Unit(id="FR1IN", state="FR", tactical_square=True),
                    city="Brest",
                ),
                reference_admin_pb2.StationedUnit(
                    campaign_id="c1",
                    unit=land_pb2.Unit(id="FR4CA", state="FR", tactical_square=False),
                    city="Brest",
                ),
            ]
        )
    )
    stub = InProcessStub(store)
    w = world([ship("FR1SL", harbor("Brest")), ship("FR2SL", harbor("Martinique"))], campaign="c1")
    reports = land_reports(GitmClient("in-process", stub=stub), w, CTX.map)
    # edition 2: the city stock too (none here); edition 4: the hold GITM gave with the answer
    (report,) = reports
    assert report.hold.startswith("hold-") and report.hold_expires_at > 0
    assert replace(report, hold="", hold_expires_at=0) == PortLandReport(
        "Brest", (LandUnit("FR1IN", "FR"),), ("FR4CA",), 0
    )
    assert stub.calls == [("GetCapabilities", ""), ("UnitsNear", "Brest")]  # what it serves, asked once


def test_garrison_combat_wins_with_chance_attack_over_attack_plus_defence() -> None:
    """3.9 (decision): 6,000 landed against Martinique's defence of 2,250 win with chance
    6,000 / 8,250 = 72.7%. 2,000 seeded battles; tolerance 4 standard deviations (4.0 points)."""
    from pate.core.rng import Rng
    from pate.core.rules.context import TurnState
    from pate.core.rules.garrison import GarrisonRules, _battle

    w = world(
        [],
        ports={"Martinique": {"garrison": ("FR9IN", "BR1IN")}},
        units=[infantry("FR9IN", 500), infantry("BR1IN", 6000)],
    )
    rules = GarrisonRules.from_section(CTX.rules.section("amphibious")["garrison_combat"])
    ts = TurnState(world=w, orders={})
    n = 2000
    wins = sum(
        _battle(CTX, ts, "Martinique", ["BR1IN"], rules, Rng(seed)).world.ports["Martinique"].controller
        == "BR"
        for seed in range(n)
    )
    p = 6000 / 8250
    sigma = (p * (1 - p) / n) ** 0.5
    assert abs(wins / n - p) < 4 * sigma
