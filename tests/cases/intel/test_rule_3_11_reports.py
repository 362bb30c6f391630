"""Rule cases for the reports: rule 3.11 and the samples of rules 1.6, 2.3, 2.4."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from intel_world import MAP, PLAYERS, coastal, context, event, sea, ship, turn_knowledge, world

from pate.core.intel.knowledge import knowledge_for
from pate.core.rules.turn import resolve_turn
from pate.core.world.ships import Cargo, InAtlantic, Quality
from pate.core.world.state import PortState
from pate.reports import render_reports
from pate.reports.svg import SEA, sea_area_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_rule_3_11_event_report_lists_observed_events_in_order() -> None:
    """3.11: "The first one contains a list of all events that happened during
    the turn that were observed by the player's ships, transports, and
    frigates." """
    w = world([ship("FR3FL", sea("NOC", 1)), ship("FR2FR", sea("SOC", 1)), ship("BR2FL", sea("BAH", 1))])
    events = [
        event("sailed", ["FR3FL"], "NOC", to="NOC"),
        event("sailed", ["BR2FL"], "BAH"),  # nobody of ours saw it
        event("storm_damage", ["BR7SL"], "SOC (tactical area 1)", witnesses=["FR2FR"], rigging=[0, 2]),
        event("arrived", ["FR2FR"], "SOC"),
    ]
    k = turn_knowledge("villeneuve", w, w, events)
    assert [(e.index, e.kind) for e in k.events] == [(1, "sailed"), (2, "storm_damage"), (3, "arrived")]
    text = render_reports(k, MAP)["text"]
    assert (
        "2. [movement] The British ship of the line BR7SL was damaged by the storm"
        " in the Southern Caribbean (tactical area 1)." in text
    )
    assert "BAH" not in text.split("POSITION REPORT")[0]


def test_rule_3_11_position_report_at_start_of_following_turn() -> None:
    """3.11: "The second one contains maps and status reports showing the
    positions of the player's ships and transports at the start of the
    following turn." """
    start = world([ship("FR3FL", sea("SOC", 1))], turn=4)
    end = world([ship("FR3FL", coastal("Martinique"))], turn=4)
    k = turn_knowledge("villeneuve", start, end)
    text = render_reports(k, MAP)["text"]
    assert "POSITION REPORT - start of turn 5" in text
    assert "Location: Off Martinique" in text and "Sea Area map - Southern Caribbean (SOC)" in text


def test_rule_3_11_first_report_shows_starting_positions() -> None:
    """3.11: "At the beginning of each campaign players will receive the
    position report showing the positions of their ships and transports at
    the start of the campaign." """
    w = world([ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1))], turn=1)
    k = knowledge_for("villeneuve", w, w, (), MAP)
    assert k.initial and k.events == () and k.next_turn == 1
    text = render_reports(k, MAP)["text"]
    assert "START OF CAMPAIGN - positions at the start of turn 1" in text and "EVENT REPORT" not in text
    assert "Enemy ships: BR2FL at sea" in text


def test_rule_3_11_through_the_turn_pipeline() -> None:
    """3.10 and 3.11 through resolve_turn: the intelligence phase runs last and
    the knowledge reads its reports (5.4: a British squadron that began the
    turn in the Northern Caribbean)."""
    w = world([ship("FR3FL", sea("NOC", 1)), *(ship(f"BR{n}SL", sea("NOC", 2)) for n in (1, 2, 3, 4))])
    ctx = context({"reports": {"report_percent": 100, "wrong_state_percent": 0, "wrong_class_percent": 0}})
    result = resolve_turn(ctx, w, {})
    k = knowledge_for("villeneuve", w, result.state, result.events, MAP, ctx.rules)
    assert k.turn == 3 and k.next_turn == 4
    assert [(i.place, i.state, i.category.value) for i in k.intelligence] == [("NOC", "BR", "line")]


def test_rule_2_3_sample_ship_report() -> None:
    """2.3: the sample ship report of Revolutionnaire (FR3FL), line by line.
    The sample puts the ships "at sea" though the flagship is off Martinique;
    rule 5.1 words ships in a port's coastal waters "in coastal waters"."""
    allies = [ship(f"FR{n}SL", coastal("Martinique"), attached_to="FR3FL") for n in (6, 9, 10, 11)]
    enemies = [ship(f"BR{n}FL", coastal("Martinique")) for n in (2, 3, 4)]
    enemies += [ship(f"BR{n}SL", coastal("Martinique")) for n in range(10, 32)]
    flagship = ship(
        "FR3FL",
        coastal("Martinique"),
        name="Revolutionnaire",
        deputy="ganteaume",
        quality=Quality.VERY_GOOD,
        experience=11,
        stores=11,
        marines=200,
        rigging=2,
    )
    garrison = {"Martinique": PortState("Martinique", "FR", 40, garrison=("FR2IN",))}
    w = world([flagship, ship("FR1FL", coastal("Martinique")), *allies, *enemies], ports=garrison)
    text = render_reports(turn_knowledge("villeneuve", w, w), MAP)["text"]
    brits = ", ".join([f"BR{n}FL" for n in (2, 3, 4)] + [f"BR{n}SL" for n in range(10, 32)])
    expected = [
        "Ship Report - Revolutionnaire (FR3FL)",
        "",
        "Commander: Pierre Villeneuve\t\tDeputy: Honore Ganteaume",
        "Location: Off Martinique\t\tBase: Brest",
        "Quality: Very Good\tExperience: 11\tMorale: 2\tStores: 11",
        "Crew: 800\tMarines: 200\tHull Damage: 0\tRigging Damage: 2",
        "Attached Ships FR6SL, FR9SL, FR10SL, FR11SL",
        "Ships Visible Allied ships: FR1FL, FR6SL, FR9SL, FR10SL, FR11SL in coastal waters "
        f"Enemy ships: {brits} in coastal waters",
        "Land Units Visible FR2IN",
    ]
    assert "\n".join(expected) + "\n" in text


def test_rule_2_4_sample_transport_group_report() -> None:
    """2.4: the sample transport group report of SP3TR, crossing the Atlantic
    with SP2FL (ships that entered together stay together, 6.11)."""
    crossing = InAtlantic(destination="SWA", arrives_turn=6, group="g1")
    tr = ship(
        "SP3TR",
        crossing,
        base="Ferrol",
        quality=Quality.FAIR,
        experience=3,
        stores=11,
        capacity=5000,
        deputy="villeneuve",
        cargo=Cargo(units=("SP16IN",), supplies=15),
    )
    w = world([tr, ship("SP2FL", crossing)])
    text = render_reports(turn_knowledge("gravina", w, w), MAP)["text"]
    expected = [
        "Transport Group Report - SP3TR",
        "",
        f"Commander: {PLAYERS['gravina'].name}\t\tDeputy: Pierre Villeneuve",
        "Location: Atlantic Ocean (sailing to Southwest Atlantic)\t\tBase: Ferrol",
        "Quality: Fair\tExperience: 3\tMorale: 2\tStores: 11",
        "Crew: 500\tCapacity: 5000\tHull Damage: 0\tRigging Damage: 0",
        "Carrying: SP16IN, 15 supplies",
        "Ships Visible Allied ships: SP2FL",
    ]
    assert "\n".join(expected) + "\n" in text


def test_rule_1_6_sample_sea_area_map() -> None:
    """1.6: the sample map of the Northern Caribbean: "Winds are moderate from
    the west", "French frigates at sea", the Bahamas to the north, the Western
    Caribbean to the west, the Southwest Atlantic to the east and the Southern
    Caribbean to the south, NOC in the middle."""
    w = world([ship("FR2FR", sea("NOC", 1)), ship("FR4FR", sea("NOC", 1))])
    svg = sea_area_svg(turn_knowledge("villeneuve", w, w), MAP, "NOC")
    root = ET.fromstring(svg)
    texts = {"".join(t.itertext()).strip(): t for t in root.iter(f"{SVG}text")}
    assert "Winds are moderate from the west" in texts and "NOC" in texts
    x0, y0, x1, y1 = SEA

    def xy(name: str) -> tuple[float, float]:
        t = texts[name]
        return float(t.get("x", 0)), float(t.get("y", 0))

    assert xy("Bahamas")[1] < y0 and xy("Southern Caribbean")[1] > y1
    assert xy("WesternCaribbean")[0] < x0 and xy("SouthwestAtlantic")[0] > x1
    titles = ["".join(t.itertext()) for t in root.iter(f"{SVG}title")]
    assert "French frigates at sea: FR2FR, FR4FR" in titles
