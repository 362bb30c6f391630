"""Reports a commander can use: ships named by their own class,
one sighting per enemy group, each fight of a battle told."""

from __future__ import annotations

from dataclasses import replace

from intel_world import MAP, coastal, event, sea, ship, turn_knowledge, world

from pate.core.intel.model import Sighting
from pate.core.rules.detection import Category, Place
from pate.reports import render_reports


def _villeneuve(events=(), ships=None):
    ships = ships or [
        ship("FR3FL", coastal("Martinique")),
        ship("FR6SL", coastal("Martinique"), attached_to="FR3FL"),
        ship("FR1FR", sea("NOC", 2)),
        ship("FR2FR", sea("NOC", 2)),
    ]
    w = world(ships)
    return turn_knowledge("villeneuve", w, w, list(events))


def test_a_flagship_is_called_a_flagship_not_a_ship_of_the_line() -> None:
    text = render_reports(_villeneuve(), MAP)["text"]
    assert "French flagship and ship of the line in coastal waters: FR3FL, FR6SL" in text
    assert "French frigates at sea: FR1FR, FR2FR" in text
    assert "ships of the line in coastal waters: FR3FL" not in text


def test_two_frigates_sighting_one_group_tell_it_once() -> None:
    """Rule 5.2: each frigate estimates; the report tells the group once, with
    both estimates as a range, and both frigates."""
    k = _villeneuve()
    seen = [
        Sighting("FR1FR", "NOC", Place.SEA, "BR", Category.LINE, 3, tactical=3),
        Sighting("FR2FR", "NOC", Place.SEA, "BR", Category.LINE, 4, tactical=3),
        Sighting("FR2FR", "NOC", Place.SEA, "BR", Category.FRIGATES, 1, tactical=3),
    ]
    text = render_reports(replace(k, sightings=tuple(seen)), MAP)["text"]
    assert text.count("sighted") == 2 + text.count("(sighted by")  # one sentence per group
    assert "FR1FR FR ship 1 and FR2FR FR ship 2 sighted 3 to 4 British ships of the line" in text
    assert "3 to 4 British ships of the line at sea (sighted by FR1FR and FR2FR)" in text
    assert "about 3 British" not in text and "about 4 British" not in text
    assert "FR2FR FR ship 2 sighted a British frigate" in text


def _fight(tier: str, winner: list[str], ships: list[str]) -> dict[str, object]:
    return {"tier": tier, "winner": winner, "ships": ships}


def test_a_battle_fought_apart_tells_each_fight() -> None:
    """Rule 7.1: away from a harbor the frigates fight apart from the line."""
    line = ["FR3FL", "FR6SL", "BR2FL"]
    frigates = ["FR1FR", "BR5FR"]
    fights = [_fight("line", ["BR"], line), _fight("frigates", ["FR"], frigates)]
    battle = event("battle", [*line, *frigates], "Martinique (coastal waters)", winner=["BR"], fights=fights)
    text = render_reports(_villeneuve([battle]), MAP)["text"]
    assert "The frigates fought apart from the ships of the line (rule 7.1)" in text
    assert "Among the ships of the line (BR2FL, FR3FL and FR6SL): the British won the day" in text
    assert "Among the frigates (BR5FR and FR1FR): the day was ours" in text
    one = event("battle", line, "Martinique (coastal waters)", winner=["BR"], fights=fights[:1])
    text = render_reports(_villeneuve([one]), MAP)["text"]
    assert "The British won the day" in text and "fought apart" not in text
