"""Sentences found wrong in headless play-tests (rule 3.11: the reports in
the rule book's language): one ship is "her", one ship is "1 ship"."""

from __future__ import annotations

from itertools import pairwise

from intel_world import MAP, sea, ship, turn_knowledge, world

from pate.core.events import Event, Phase
from pate.reports.events import event_lines

WHERE = "NOC (tactical area 1)"
SHIPS = [
    ship("FR1FR", sea("NOC", 1), name="Armide"),
    ship("FR2FR", sea("NOC", 1), name="Gloire"),
    ship("FR3FR", sea("NOC", 1), name="Cornelie"),
    ship("BR1SL", sea("NOC", 1), name="Mars"),
    ship("BR2SL", sea("NOC", 1), name="Ajax"),
]


def told(events: list[Event]) -> str:
    return "\n".join(event_lines(turn_knowledge("villeneuve", world(SHIPS), world(SHIPS), events), MAP))


def moved(kind: str, about: list[str], **data: object) -> Event:
    return Event(Phase.MOVEMENT, kind, tuple(about), WHERE, tuple(s.id for s in SHIPS), data)


def test_rule_3_11_joining_one_ship_is_in_company_with_her() -> None:
    """3.11 with 6.9: "FR1FR Armide joined FR2FR Gloire ... and lies in company
    with her", not "with them" (grand1805 play-test); and no promise that they sail on
    together, which their movement orders decide (4.5, 6.7; a play-test saw a transport
    group "joined ... and will sail with her" sail off alone the same turn)."""
    one = told([moved("joined_allies", ["FR1FR"], allies=["FR2FR"])])
    assert "lies in company with her (rule 6.9)" in one and "will sail" not in one
    two = told([moved("joined_allies", ["FR1FR"], allies=["FR2FR", "FR3FR"])])
    assert "lies in company with them (rule 6.9)" in two


def test_rule_3_11_to_leeward_of_one_ship_is_of_her() -> None:
    """3.11 with 6.9: meeting one enemy ship to leeward is "to leeward of her", and says whose
    the weather gauge was, so that it never reads as the opposite of the position report's
    "to windward of us"."""
    one = told([moved("met_enemy", ["FR1FR"], enemies=["BR1SL"], side="leeward")])
    assert "to leeward of her: she held the weather gauge (rule 6.9)" in one
    two = told([moved("met_enemy", ["FR1FR"], enemies=["BR1SL", "BR2SL"], side="leeward")])
    assert "to leeward of them: they held the weather gauge (rule 6.9)" in two
    ahead = told([moved("met_enemy", ["FR1FR"], enemies=["BR1SL"], side="windward")])
    assert "to windward of her, holding the weather gauge (rule 6.9)" in ahead


def test_rule_3_11_sea_area_map_keeps_every_name_readable() -> None:
    """3.11: "The second one contains maps and status reports showing the
    positions of the player's ships". A play-test's Bay of Biscay map hid
    Bordeaux and La Rochelle under a tactical area's circle, and the
    Northwest Atlantic printed "Chesapeake" over "Middle Atlantic Coast"."""
    import re

    from pate.datafiles import load_world_map
    from pate.reports.svg import sea_area_svg

    real = load_world_map()
    fleet = [ship(f"BR{n}SL", sea("BIS", 1)) for n in range(1, 4)] + [ship("BR1FR", sea("NWA", 1))]
    k = turn_knowledge("nelson", world(fleet), world(fleet), [])
    biscay = sea_area_svg(k, real, "BIS")
    assert biscay.rindex('class="ta"') < biscay.index('class="pl"')  # circles first, port names on top
    nwa = sea_area_svg(k, real, "NWA")
    rows: list[float] = []
    for y, body in re.findall(r'<text x="\d+" y="(-?\d+)" class="nb" text-anchor="end">(.*?)</text>', nwa):
        rows += [float(y) + 14 * n for n in range(max(1, body.count("<tspan")))]
    rows.sort()
    assert len(rows) >= 3  # Chesapeake, and Middle Atlantic Coast on two lines
    assert all(b - a >= 14 for a, b in pairwise(rows)), rows


def test_rule_3_11_bermuda_takes_no_article() -> None:
    """3.11: the reports in good English: "Battle in Bermuda", not "in the
    Bermuda" (a grand1805 play-test); "the Sargasso Sea" keeps its article."""
    from pate.datafiles import load_world_map
    from pate.reports.words import place_title

    real = load_world_map()
    assert place_title(real, "BER") == "Bermuda"
    assert place_title(real, "SAR") == "the Sargasso Sea"
