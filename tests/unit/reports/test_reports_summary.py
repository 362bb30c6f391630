"""The summary at the top of a report, the compact report and the naval
minister's report, on the hand-built world and on the grand 1805
scenario, whose largest player commands two hundred ships."""

from __future__ import annotations

from functools import cache

from intel_world import MAP, coastal, event, harbor, sea, ship, turn_knowledge, world

from pate.core.campaign import start_campaign
from pate.core.intel.knowledge import knowledge_for
from pate.core.intel.model import PlayerKnowledge
from pate.core.world.ships import InAtlantic
from pate.core.world.state import PortState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.reports import render_reports
from pate.reports.summary import summary_lines
from pate.reports.text import render_text

SCREEN = 50  # lines


def _villeneuve() -> PlayerKnowledge:
    ships = [
        ship("FR3FL", coastal("Martinique"), rigging=2),
        ship("FR6SL", coastal("Martinique"), attached_to="FR3FL"),
        ship("FR7SL", coastal("Martinique"), attached_to="FR6SL"),
        ship("FR1FR", sea("NOC", 2), stores=2),
        ship("FR2FR", InAtlantic("SWA", 5, "g1")),
        ship("FR4FR", sea("NOC", 3)),
    ]
    w = world(ships)
    arrived = event("arrived", ["FR4FR"], "NOC (tactical area 3)", came_from="Atlantic Ocean")
    homing = event("out_of_stores", ["FR1FR"], "NOC (tactical area 2)", homing=True, crew=200, crew_lost=20)
    return turn_knowledge("villeneuve", w, w, [arrived, homing])


def test_the_summary_groups_ships_by_place_and_squadron_and_warns() -> None:
    lines = summary_lines(_villeneuve(), MAP)
    text = "\n".join(lines)
    assert lines[0] == "SUMMARY - 6 ships and transport groups in 4 squadrons in 3 places"
    assert "  Off Martinique: 3 - FR3FL+2" in lines  # FR7SL is attached to FR6SL, attached to FR3FL
    assert "  Northern Caribbean (NOC): 2 - FR1FR, FR4FR" in lines
    assert "To order (3, the leads and single ships): FR3FL, FR1FR, FR4FR" in lines
    assert "Crossing the Atlantic, no orders taken (6.11): FR2FR" in lines
    assert "Stores 3 or fewer: FR1FR (2)" in lines
    assert "Damaged: FR3FL (rigging 2)" in lines
    assert "Arrived from the Atlantic: FR4FR" in lines
    assert "Out of stores, sailing home (rule 3.4): FR1FR" in lines
    full = render_reports(_villeneuve(), MAP)
    assert full["text"].index("SUMMARY") < full["text"].index("EVENT REPORT")
    assert '<section id="summary"><h2>Summary</h2>' in full["html"] and "FR3FL+2" in full["html"]
    assert text.count("FR7SL") == 0  # an attached ship is counted under its lead


def test_the_compact_report_gives_one_line_a_ship() -> None:
    k = _villeneuve()
    full, compact = render_text(k, MAP), render_text(k, MAP, compact=True)
    assert len(compact.splitlines()) < len(full.splitlines()) / 2
    line = "  FR6SL FR ship 6 (Off Martinique): Average, exp 0, stores 24, crew 600, marines 0"
    assert f"{line}, attached to FR3FL" in compact
    assert "Ship Report" not in compact and "Ship Report" in full
    assert compact.startswith(full.split("POSITION REPORT")[0])  # summary and events as in the full


@cache
def _grand1805_minister() -> PlayerKnowledge:
    ctx = turn_context()
    scenario = load_scenario("grand1805")
    w = start_campaign(ctx, scenario.world, "g", scenario.world.seed, 15, place=True)
    return knowledge_for("barham", w, w, (), ctx.map, ctx.rules)  # the minister sees every British ship


def test_a_grand1805_summary_fits_on_one_screen() -> None:
    k = _grand1805_minister()
    assert len(k.ships) > 200
    text = render_text(k, turn_context().map)
    summary = text.split("\n\n")[1].splitlines()
    assert summary[0].startswith("SUMMARY - ")
    assert len(summary) <= SCREEN and max(len(line) for line in summary) <= 100
    compact = render_text(k, turn_context().map, compact=True)
    assert len(compact.splitlines()) < len(text.splitlines()) / 4


def test_the_naval_ministers_report_shows_ports_yards_building_laid_up_and_trade() -> None:
    ships = [
        ship("FR3FL", harbor("Brest"), hull=1),
        ship("FR6SL", harbor("Brest"), active=False),
        ship("FR1FR", sea("NOC", 2)),
    ]
    ports = {"Brest": PortState("Brest", "FR", 77, building=2, garrison=("FR1IN",), supplies=5)}
    w = world(ships, ports=ports)
    moved = event("stores_moved", [], "Brest", state="FR", origin="Brest", destination="Lorient", amount=10)
    k = turn_knowledge("decres", w, w, [moved])
    assert k.naval_minister and any(p.name == "Brest" for p in k.ports)
    text = render_text(k, MAP)
    assert "NAVAL MINISTER'S REPORT" in text
    brest = next(line for line in text.splitlines() if line.startswith("  Brest ("))
    assert "stores 77" in brest and "(2 ships building)" in brest and "1 ship in harbor, 1 damaged" in brest
    assert "5 supplies on the quay" in brest and "garrison FR1IN" in brest
    assert "Ships laid up (1; rule 2.6)\n  Brest: FR6SL" in text
    trade = text.split("Trade: store moves (rule 3.5) and commerce\n", 1)[1].splitlines()[0]
    assert "Brest" in trade and "Lorient" in trade
    html = render_reports(k, MAP)["html"]
    assert '<section id="minister">' in html and "stores 77" in html
    commander = turn_knowledge("villeneuve", w, w, [moved])
    assert not commander.ports and "NAVAL MINISTER" not in render_text(commander, MAP)


def test_the_naval_minister_counts_transport_groups_apart_from_ships() -> None:
    """Rule 2.1: "the term 'ships' refers only to flagships, ships of the line, and frigates,
    not to transports": two transport groups in Boulogne harbor are not "2 ships"."""
    ships = [ship("FR1TR", harbor("Brest")), ship("FR2TR", harbor("Brest")), ship("FR3FL", harbor("Brest"))]
    w = world(ships, ports={"Brest": PortState("Brest", "FR", 77)})
    text = render_text(turn_knowledge("decres", w, w), MAP)
    brest = next(line for line in text.splitlines() if line.startswith("  Brest ("))
    assert "1 ship and 2 transport groups in harbor" in brest
    alone = world([ship("FR1TR", harbor("Brest"))], ports={"Brest": PortState("Brest", "FR", 77)})
    only = next(
        line
        for line in render_text(turn_knowledge("decres", alone, alone), MAP).splitlines()
        if line.startswith("  Brest (")
    )
    assert "1 transport group in harbor" in only and "ship in harbor" not in only
