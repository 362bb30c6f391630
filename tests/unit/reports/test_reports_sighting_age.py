"""Old sightings in the reports (docs/formats/reports.md, "The picture"): a
sighting the player has not confirmed this turn is never drawn as current; it
is drawn faded by its age, and its tooltip and the intelligence list tell
where it came from and when."""

from __future__ import annotations

import re
from dataclasses import replace

from intel_world import MAP, intel_events, rules, sea, ship, world

from pate.core.intel.knowledge import knowledge_for
from pate.reports.intel import intelligence_items
from pate.reports.svg import overview_svg, sea_area_svg
from pate.reports.text import render_text

RULES = rules()


def _turn(ships, previous=(), *, turn=3):
    start = world(ships, turn=turn)
    end = replace(start, turn=turn + 1)
    return knowledge_for(
        "villeneuve", start, end, intel_events(start, start, seed=3), MAP, RULES, previous=previous
    )


SEEN = [ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1))]
LEFT = [ship("FR3FL", sea("NOC", 3)), ship("BR2FL", sea("WCA", 2))]


def _two_turns_later():
    k = _turn(SEEN)
    k = _turn(LEFT, k.picture, turn=4)
    return _turn(LEFT, k.picture, turn=5)


def _glyphs(svg: str) -> list[str]:
    return re.findall(r'<g class="ship[^"]*"[^>]*>.*?</g>', svg)


def test_a_current_contact_is_drawn_whole() -> None:
    svg = sea_area_svg(_turn(SEEN), MAP, "NOC")
    enemy = [g for g in _glyphs(svg) if 'data-state="BR"' in g]
    assert len(enemy) == 1 and "stale" not in enemy[0] and 'opacity="0.' not in enemy[0].split(">")[0]
    tip = re.search(r"<title>(.*?)</title>", enemy[0]).group(1)
    assert tip.endswith("BR2FL - named by FR3FL, in contact; seen in turn 3")  # its source on hover


def test_a_two_turn_old_sighting_is_drawn_faded_with_its_source() -> None:
    k = _two_turns_later()
    assert not any(v.id == "BR2FL" for r in k.ships for v in r.visible)
    enemy = [g for g in _glyphs(sea_area_svg(k, MAP, "NOC")) if 'data-state="BR"' in g]
    assert len(enemy) == 1
    head = enemy[0].split(">")[0]
    assert 'class="ship stale"' in head and 'data-age="2"' in head and 'opacity="0.45"' in head
    assert "stroke-dasharray" in enemy[0]
    tip = re.search(r"<title>(.*?)</title>", enemy[0]).group(1)
    assert "BR2FL" in tip and "named by FR3FL, in contact" in tip
    assert "last seen at turn 3, 2 turns ago, not seen since" in tip


def test_the_overview_marks_the_old_sighting_faded() -> None:
    k = _two_turns_later()
    marker = re.search(
        r'<g class="icon stale" data-at="NOC"[^>]*>.*?</g>', overview_svg(k, MAP, MAP.sea_areas["NOC"].map)
    )
    assert marker is not None
    assert 'data-age="2"' in marker.group(0) and "named by FR3FL" in marker.group(0)


def test_the_text_report_lists_the_old_sighting() -> None:
    k = _two_turns_later()
    items = [text for kind, text in intelligence_items(k, MAP) if kind == "earlier_sighting"]
    assert items == [
        "Last seen at turn 3, 2 turns ago, not seen since: BR2FL (British) at sea in NOC"
        " (named by FR3FL, in contact)."
    ]
    assert items[0] in render_text(k, MAP)
