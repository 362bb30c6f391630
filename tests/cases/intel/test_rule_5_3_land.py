"""Rule cases for rule 5.3: GITM units and port garrisons."""

from __future__ import annotations

import math
from dataclasses import replace

from intel_world import MAP, coastal, harbor, intel_events, sea, ship, turn_knowledge, world

from pate.core.rules.gathering import LAND_UNITS
from pate.core.world.state import LandUnit, PortState
from pate.reports import render_reports

BREST = PortState("Brest", "FR", 50, garrison=("FR2IN", "FR7CA"), strategic_units=("FR3IN", "FR9AR"))


def _units(k, sid):
    return next(r for r in k.ships if r.id == sid).land_units


def test_rule_5_3_ships_in_on_map_port_report_units_in_its_tactical_square() -> None:
    """5.3: "Ships located in an on-GITM-map port (either harbor or coastal
    waters) will automatically report the identities of GITM units in that
    port's tactical square"."""
    w = world([ship("BR2FL", coastal("Brest")), ship("FR3FL", harbor("Brest"))], ports={"Brest": BREST})
    never = {"land": {"strategic_square_percent": 0}}
    assert _units(turn_knowledge("nelson", w, w, intel=never), "BR2FL") == ("FR2IN", "FR7CA")
    assert _units(turn_knowledge("villeneuve", w, w, intel=never), "FR3FL") == ("FR2IN", "FR7CA")
    text = render_reports(turn_knowledge("nelson", w, w, intel=never), MAP)["text"]
    assert "Land Units Visible FR2IN, FR7CA" in text


def test_rule_5_3_chance_to_report_units_elsewhere_in_the_strategic_square() -> None:
    """5.3: "... and have a chance to report the identities of GITM units in
    the port's strategic square but not in its tactical square." (50% per
    unit per turn, data/rules/intel.toml)"""
    w = world([ship("BR2FL", coastal("Brest"))], ports={"Brest": BREST})
    always = turn_knowledge("nelson", w, w, intel={"land": {"strategic_square_percent": 100}})
    assert _units(always, "BR2FL") == ("FR2IN", "FR3IN", "FR7CA", "FR9AR")
    n, seen = 800, 0
    for seed in range(n):
        seen += sum(len(e.data["units"]) for e in intel_events(w, w, seed=seed) if e.kind == LAND_UNITS)
    p, trials = 0.5, 2 * n
    assert abs(seen / trials - p) < 4 * math.sqrt(p * (1 - p) / trials)


def test_rule_5_3_off_map_port_has_no_strategic_square() -> None:
    """5.3 speaks of on-GITM-map ports; an off-map port has no strategic
    square, so only its garrison is seen (docs/rules/intel.md)."""
    port = PortState("Martinique", "FR", 50, garrison=("FR2IN",), strategic_units=("FR5IN",))
    w = world([ship("BR2FL", coastal("Martinique"))], ports={"Martinique": port})
    k = turn_knowledge("nelson", w, w, intel={"land": {"strategic_square_percent": 100}})
    assert _units(k, "BR2FL") == ("FR2IN",)


def test_rule_5_3_units_in_strategic_square_receive_reports_of_ships_in_port() -> None:
    """5.3: "Units in the strategic square (whether in the city tactical square
    or not) will receive reports of the ships in the port." - delivered to
    their state's naval minister (and to the land game through the event)."""
    w = world([ship("BR2FL", coastal("Brest")), ship("BR3SL", coastal("Brest"))], ports={"Brest": BREST})
    minister = turn_knowledge("decres", w, w)
    (watch,) = minister.port_watch
    assert (watch.port, watch.source, watch.ships) == ("Brest", "land units", ("BR2FL", "BR3SL"))
    assert turn_knowledge("villeneuve", w, w).port_watch == ()  # a commander is not told


def test_rule_5_3_off_map_garrison_reports_to_naval_minister_a_turn_late() -> None:
    """5.3: "Garrisons of off-GITM-map ports will report the presence of ships
    and frigates in those ports to the Naval Minister with a one-turn delay." """
    start = world([ship("BR2FL", coastal("Martinique")), ship("BR4FR", harbor("Martinique"))], turn=5)
    end = world(
        [ship("BR2FL", sea("SOC", 1)), ship("BR4FR", sea("SOC", 1)), ship("BR6SL", coastal("Martinique"))]
    )
    k = turn_knowledge("decres", start, end)
    (watch,) = k.port_watch
    assert (watch.port, watch.source, watch.as_of_turn) == ("Martinique", "garrison", 5)
    assert watch.ships == ("BR2FL", "BR4FR")  # where they were when turn 5 began; BR6SL comes next turn
    assert turn_knowledge("villeneuve", start, end).port_watch == ()
    text = render_reports(k, MAP)["text"]
    assert "The garrison of Martinique reported BR2FL and BR4FR in the port at the start of turn 5" in text


def test_rule_5_3_a_unit_s_report_goes_to_its_own_state_whatever_its_id() -> None:
    """5.3: "Units in the strategic square ... will receive reports of the ships in the
    port."  The report goes to the state of each unit there: the state PATE knows for it
    (GITM reported its size and state), the code its id begins with only for a unit known by
    id alone (docs/gitm.md, "Unit ids").  A French unit named GARDE1 in Brest tells the French
    minister of the British ships, not a state "GA"."""
    brest = PortState("Brest", "FR", 50, garrison=("GARDE1",))
    w = world([ship("BR2FL", coastal("Brest"))], ports={"Brest": brest})
    w = replace(w, land_units={"GARDE1": LandUnit("GARDE1", "FR", infantry=800)})
    (watch,) = turn_knowledge("decres", w, w).port_watch
    assert (watch.port, watch.source, watch.ships) == ("Brest", "land units", ("BR2FL",))
    reports = [e for e in intel_events(w, w) if e.kind == "shore_report"]
    assert [e.data["for_state"] for e in reports] == ["FR"]
