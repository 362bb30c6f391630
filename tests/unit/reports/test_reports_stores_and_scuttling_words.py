"""The words for a ship left without stores and for a ship scuttled (rules
3.4 and 4.10, rule 3.11: the reports tell what happened and why): a play-test
read nothing for ships the yard could not reprovision, and "225 crew went
ashore" for a frigate scuttled in the open Bay of Biscay, her Marines left
out."""

from __future__ import annotations

from typing import Any

from intel_world import MAP, harbor, sea, ship, turn_knowledge, world

from pate.core.events import Event, Phase
from pate.reports.events import event_lines


def told(ships: list[Any], after: list[Any], *events: Event) -> str:
    return "\n".join(event_lines(turn_knowledge("nelson", world(ships), world(after), list(events)), MAP))


def test_rule_4_10_a_crew_scuttled_at_sea_goes_aboard_the_friend_that_stays() -> None:
    """4.10 (recovered): at sea a ship is scuttled only if a friend stays; her crew and Marines
    are taken aboard that friend, not put "ashore" in open water."""
    stays = ship("BR3SL", sea("NOC", 1), name="Hero")
    scuttled = Event(
        Phase.REPAIR,
        "scuttled",
        ("BR2FR",),
        "NOC (tactical area 1)",
        ("BR3SL",),
        {"crew": 225, "marines": 25, "units": [], "supplies": 0, "aboard": "BR3SL"},
    )
    text = told([ship("BR2FR", sea("NOC", 1), name="Egyptienne"), stays], [stays], scuttled)
    assert "her 225 crew and 25 Marines were taken aboard BR3SL Hero (rule 4.10)" in text
    assert "ashore" not in text


def test_rule_4_10_a_crew_scuttled_in_harbor_goes_ashore() -> None:
    """4.10 (recovered): in port the crew and Marines go ashore."""
    scuttled = Event(
        Phase.REPAIR,
        "scuttled",
        ("BR2SL",),
        "Dominica (harbor)",
        data={"crew": 600, "marines": 150, "units": [], "supplies": 0},
    )
    text = told([ship("BR2SL", harbor("Dominica"), name="Ajax")], [], scuttled)
    assert "her 600 crew and 150 Marines went ashore (rule 4.10)" in text


def test_rule_3_4_a_ship_the_yard_could_not_reprovision_is_told_why() -> None:
    """3.4: "A port cannot reprovision more ships than 2 times its yard capacity." The ship
    that got nothing reads why, in place of silence."""
    ships = [ship("BR8SL", harbor("Dominica"), name="Hero", stores=0)]
    full = Event(
        Phase.SUPPLY,
        "not_reprovisioned",
        ("BR8SL",),
        "Dominica (harbor)",
        (),
        {"reason": "yard_full", "places": 4},
    )
    assert (
        "BR8SL Hero could take no stores aboard in Dominica harbor: its yard reprovisions 4 ships a"
        " turn, and every place was taken (rule 3.4)." in told(ships, ships, full)
    )
    empty = Event(
        Phase.SUPPLY,
        "not_reprovisioned",
        ("BR8SL",),
        "Dominica (harbor)",
        (),
        {"reason": "no_stores", "places": 4},
    )
    assert "could take no stores aboard in Dominica harbor: the port city had no stores left" in told(
        ships, ships, empty
    )


def test_rule_3_4_a_ship_out_of_stores_in_a_friendly_harbor_waits_without_losing_crew() -> None:
    """3.4 (decision): a ship out of stores in a friendly harbor loses no crew; with no harbor
    that can replenish her she waits there, and the report says so."""
    ships = [ship("BR8SL", harbor("Dominica"), name="Hero", stores=0)]
    out = Event(
        Phase.SUPPLY,
        "out_of_stores",
        ("BR8SL",),
        "Dominica (harbor)",
        data={"crew_lost": 0, "crew": 600, "homing": False},
    )
    text = told(ships, ships, out)
    assert (
        "BR8SL Hero ran out of stores; no other friendly harbor can replenish her, and she waits"
        " in Dominica harbor (rule 3.4)." in text
    )
    assert "lost" not in text
