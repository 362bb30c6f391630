"""Rule cases for rule 5.1: contact, contact lists and the map icons."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from intel_world import MAP, coastal, harbor, sea, ship, turn_knowledge, world

from pate.core.rules.detection import Bearing, Place, Side, contact_groups, enemies_in_contact, in_contact
from pate.reports import render_reports
from pate.reports.svg import sea_area_svg

SVG = "{http://www.w3.org/2000/svg}"


def _visible(k, sid):
    return {s.id: s for s in next(r for r in k.ships if r.id == sid).visible}


def test_rule_5_1_ship_detects_enemy_in_contact() -> None:
    """5.1: "A ship or transport group will detect an enemy ship or transport
    group if it is contact with it." """
    w = world([ship("FR3FL", sea("NOC", 1)), ship("SP3TR", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1))])
    k = turn_knowledge("villeneuve", w, w)
    assert _visible(k, "FR3FL")["BR2FL"].side is Side.ENEMY
    g = turn_knowledge("gravina", w, w)
    assert _visible(g, "SP3TR")["BR2FL"].side is Side.ENEMY  # a transport group detects too


def test_rule_5_1_same_port_harbor_and_coastal_are_in_contact() -> None:
    """5.1: "Two ships are in contact if they are in the same port (even if one
    is in the harbor and the other is in the coastal waters)"."""
    fr, br = ship("FR3FL", harbor("Martinique")), ship("BR2FL", coastal("Martinique"))
    w = world([fr, br])
    assert in_contact(fr, br)
    assert [s.id for s in enemies_in_contact(w, fr)] == ["BR2FL"]
    other_port = ship("BR3FL", coastal("Dominica"))
    assert not in_contact(fr, other_port)


def test_rule_5_1_same_tactical_area_of_a_sea_area() -> None:
    """5.1: "... or if they are in the same tactical location of the same sea
    area.  Ships and transport groups in the same sea area but different
    tactical locations are not in contact." """
    a, b, c = ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1)), ship("BR3FL", sea("NOC", 2))
    assert in_contact(a, b)
    assert not in_contact(a, c)
    groups = contact_groups(world([a, b, c]))
    assert groups[("sea", "NOC", 1)] == ("BR2FL", "FR3FL")
    assert groups[("sea", "NOC", 2)] == ("BR3FL",)
    k = turn_knowledge("villeneuve", world([a, b, c]), world([a, b, c]))
    assert set(_visible(k, "FR3FL")) == {"BR2FL"}


def test_rule_5_1_inactive_ships_are_not_in_contact() -> None:
    """2.6 with 5.1: "When inactive, ships do not appear on the map"."""
    a, b = ship("FR3FL", harbor("Brest")), ship("BR2FL", coastal("Brest"), active=False)
    assert not in_contact(a, b)


def test_rule_5_1_position_report_lists_identities() -> None:
    """5.1: "A ship will list the identities of all ships with which it is in
    contact in its position report (see sample report in rule 2.3)." """
    ships = [ship("FR3FL", sea("NOC", 1)), ship("FR6SL", sea("NOC", 1)), ship("BR10SL", sea("NOC", 1))]
    ships += [ship("BR2FL", sea("NOC", 1)), ship("BR4SL", sea("NOC", 2))]
    w = world(ships)
    text = render_reports(turn_knowledge("villeneuve", w, w), MAP)["text"]
    assert "Ships Visible Allied ships: FR6SL at sea Enemy ships: BR2FL, BR10SL at sea" in text
    assert "BR4SL" not in text  # same sea area, other tactical area, no frigate


def test_rule_5_1_enemies_to_windward_or_leeward() -> None:
    """5.1: "Ships will report whether enemy ships are to windward or to leeward"."""
    ships = [ship("FR3FL", sea("NOC", 1), station=1), ship("BR2FL", sea("NOC", 1), station=0)]
    ships += [ship("BR3FL", sea("NOC", 1), station=2)]
    w = world(ships)
    k = turn_knowledge("villeneuve", w, w)
    seen = _visible(k, "FR3FL")
    assert seen["BR2FL"].bearing is Bearing.WINDWARD
    assert seen["BR3FL"].bearing is Bearing.LEEWARD
    text = render_reports(k, MAP)["text"]
    # whose side each is: the reporting ship's, as the events say whom the weather gauge was with
    assert "Enemy ships: BR2FL at sea to windward of us; BR3FL at sea to leeward of us" in text


def test_rule_5_1_in_port_harbor_or_coastal_waters() -> None:
    """5.1: "if in port, they will also report whether the enemy ships are in
    harbor or in the coastal waters." """
    ships = [ship("FR3FL", harbor("Martinique")), ship("BR2FL", coastal("Martinique"))]
    ships += [ship("BR3FL", harbor("Martinique"))]
    w = world(ships)
    k = turn_knowledge("villeneuve", w, w)
    seen = _visible(k, "FR3FL")
    assert (seen["BR2FL"].place, seen["BR3FL"].place) == (Place.COASTAL, Place.HARBOR)
    text = render_reports(k, MAP)["text"]
    assert "Enemy ships: BR2FL in coastal waters; BR3FL in harbor" in text


def test_rule_5_1_map_shows_icons_where_ships_are_in_contact() -> None:
    """5.1: "A player's position report maps will show ship icons in all
    places where his or her ships/transports ... are in contact with other
    ships/transports." """
    ships = [ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1)), ship("BR4SL", sea("NOC", 3))]
    w = world(ships)
    k = turn_knowledge("villeneuve", w, w)
    root = ET.fromstring(sea_area_svg(k, MAP, "NOC"))
    icons = [(g.get("data-state"), g.get("data-side")) for g in root.iter(f"{SVG}g") if g.get("data-state")]
    assert icons == [("FR", "own"), ("BR", "enemy")]  # BR4SL, out of contact, is not drawn
