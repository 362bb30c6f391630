"""Unit tests of the report renderers (text, HTML, SVG)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from intel_world import MAP, coastal, event, harbor, sea, ship, turn_knowledge, world

from pate.core.codec import to_plain
from pate.core.world.geography import MapName
from pate.reports import render_reports
from pate.reports.svg import overview_svg


def _knowledge():
    ships = [
        ship("FR3FL", coastal("Martinique"), name="Revolutionnaire <b>&", deputy="ganteaume", rigging=2),
        ship("FR6SL", coastal("Martinique"), attached_to="FR3FL"),
        ship("FR2FR", sea("NOC", 2)),
        ship("BR2FL", sea("NOC", 2), station=0),
        ship("BR4SL", sea("NOC", 4)),
        ship("BR7SL", harbor("Martinique")),
        ship("FR9SL", sea("ECH", 1)),
    ]
    w = world(ships)
    events = [
        event("battle", ["FR3FL", "FR6SL", "BR7SL"], "Martinique (coastal waters)", winner="FR"),
        event("mystery_kind", ["FR2FR"], "NOC", strange_detail=3, nested={"a": 1}),
    ]
    intel = {"scouting": {"patrolling_percent": 100}}
    return turn_knowledge("villeneuve", w, w, events, intel=intel)


def test_rendering_is_deterministic_and_works_from_plain_data() -> None:
    k = _knowledge()
    a, b = render_reports(k, MAP), render_reports(to_plain(k), MAP)
    assert a == b == render_reports(k, MAP)
    assert set(a) == {"text", "html"}


def test_events_in_rule_book_words_and_unknown_kinds_kept() -> None:
    text = render_reports(_knowledge(), MAP)["text"]
    assert (
        "1. [movement] Battle off Martinique (rule 7). Our side: 1 flagship and 1 ship of the line"
        " (FR3FL and FR6SL). The enemy: 1 ship of the line (BR7SL). The day was ours." in text
    )
    assert (
        "2. [movement] FR2FR FR ship 2 mystery kind in the Northern Caribbean"
        " (nested: a 1; strange detail 3)." in text
    )


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_html_is_self_contained_and_escaped() -> None:
    html = render_reports(_knowledge(), MAP)["html"]
    parser = _Tags()
    parser.feed(html)
    tags = [t for t, _ in parser.tags]
    assert "script" not in tags and "link" not in tags and "img" not in tags
    assert all(
        not (v or "").startswith("http") for _, attrs in parser.tags for k, v in attrs.items() if k != "xmlns"
    )
    assert "Revolutionnaire &lt;b&gt;&amp;" in html and "<b>&" not in html
    for svg in re.findall(r"<svg.*?</svg>", html, re.S):
        ET.fromstring(svg)  # every map is well-formed XML
    assert 'id="ship-FR3FL"' in html and 'data-area="NOC"' in html
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids))


def test_overview_marks_areas_with_own_ships() -> None:
    k = _knowledge()
    america = overview_svg(k, MAP, MapName.AMERICA)
    root = ET.fromstring(america)
    titles = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert "Your ships in NOC: 1" in titles and "Your ships in SOC: 2" in titles
    assert "Frigate sightings (5.2)" in titles
    assert "Your ships in ECH: 1" in overview_svg(k, MAP, MapName.EUROPE)
