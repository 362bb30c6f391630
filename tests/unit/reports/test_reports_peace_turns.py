"""Rule 6.12: "During peace and truce turns, a ship can move to any sea area or port it
desires - there is no restriction on distance. However, ... at the end of the turn it may be
placed at either the location to which it was ordered, or to its base port." A player must read
that a turn was, or will be, such a turn: otherwise its moves read as impossible ones."""

from __future__ import annotations

from dataclasses import replace

from intel_world import MAP, sea, ship, turn_knowledge, world

from pate.core.world.state import TurnKind
from pate.reports.html import render_html
from pate.reports.text import render_text

PEACE = TurnKind.PEACE


def _reports(before: TurnKind, after: TurnKind) -> tuple[str, str]:
    ships = [ship("BR1SL", sea("NOC"))]
    start = replace(world(ships), kind=before)
    k = turn_knowledge("nelson", start, replace(world(ships), kind=after))
    return render_text(k, MAP), render_html(k, MAP)


def test_rule_6_12_a_peace_turn_is_named_in_the_event_report() -> None:
    text, html = _reports(PEACE, PEACE)
    assert "EVENT REPORT - turn 3, a peace or truce turn: nobody fights" in text
    assert "Turn 3 was a peace or truce turn" in html


def test_rule_6_12_the_next_turn_being_one_is_said_with_the_positions() -> None:
    text, html = _reports(TurnKind.CAMPAIGN, PEACE)
    assert "Turn 4 is a peace or truce turn (rule 6.12): order each ship to any sea area or port" in text
    assert "Turn 4 is a peace or truce turn" in html
    assert "a peace or truce turn: nobody fights" not in text  # turn 3 was a campaign turn


def test_a_campaign_turn_says_nothing_of_peace() -> None:
    text, html = _reports(TurnKind.CAMPAIGN, TurnKind.CAMPAIGN)
    assert "peace" not in text and "peace" not in html
