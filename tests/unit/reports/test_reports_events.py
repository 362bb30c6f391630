"""The event report's sentences (rule 3.11): each names its subject rightly,
tells the player's own ships in full and anyone else's only as seen."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from intel_world import MAP, sea, ship, turn_knowledge, world

from pate.core.events import Event, Phase
from pate.core.intel.model import ObservedEvent, PlayerKnowledge
from pate.reports import render_reports
from pate.reports.events import PHRASES, event_lines, event_sentence, told_events

START = [
    ship("FR1FL", sea("NOC", 1), name="Bucentaure"),
    ship("FR2SL", sea("NOC", 1), name="Neptune"),
    ship("BR1FL", sea("NOC", 1), name="Ville de Paris"),
    ship("BR4SL", sea("NOC", 1), name="Mars"),
]
END = [
    ship("FR1FL", sea("NOC", 1), name="Bucentaure"),
    ship("FR2SL", sea("NOC", 1), name="Neptune"),
    ship("FR3FL", sea("NOC", 1), name="Ville de Paris"),
    ship("BR4SL", sea("NOC", 2), name="Mars", hull=2),
]
WHERE = "NOC (tactical area 1)"


def combat(kind: str, about: list[str], /, **data: Any) -> Event:
    return Event(Phase.COMBAT, kind, tuple(about), WHERE, ("FR1FL", "FR2SL", "BR1FL", "BR4SL"), data)


def battle_event() -> Event:
    return combat(
        "battle",
        ["BR1FL", "BR4SL", "FR1FL", "FR2SL"],
        where="sea",
        winner=["FR"],
        shore_battery=None,
        sides=[
            {"states": ["BR"], "strength": 412, "windward": True, "line": "lost_coordination"},
            {"states": ["FR"], "strength": 288, "windward": False, "line": "none"},
        ],
        ships=[
            {
                "id": sid,
                "side": 0 if sid.startswith("BR") else 1,
                "outcome": "fought",
                "strength": strength,
                "close_quarters": True,
                "hull": [0, hull],
                "rigging": [0, 1],
                "crew_lost": 37,
                "experience_gained": 3,
            }
            for sid, strength, hull in (
                ("BR1FL", 251, 1),
                ("BR4SL", 161, 2),
                ("FR1FL", 170, 0),
                ("FR2SL", 118, 1),
            )
        ],
    )


EVENTS = [
    battle_event(),
    combat("captured", ["BR1FL", "FR3FL", "FR1FL"], prize="FR3FL", captor="FR1FL", state="FR"),
    combat("escaped", ["BR4SL"], to="NOC (tactical area 2)"),
]


def knowledge(player: str) -> PlayerKnowledge:
    return turn_knowledge(player, world(START), world(END), EVENTS)


def lines(player: str) -> str:
    return "\n".join(event_lines(knowledge(player), MAP))


def test_prize_named_from_the_loser_side() -> None:
    """Rule 7.8, told to the British: their ship by name, her new id."""
    assert (
        "2. [combat] BR1FL Ville de Paris was taken as a prize by the French (FR1FL) in the Northern"
        " Caribbean (tactical area 1) and is now FR3FL (rule 7.8)." in lines("nelson")
    )


def test_prize_named_from_the_captor_side() -> None:
    assert (
        "2. [combat] The British flagship BR1FL was taken as a prize by our FR1FL Bucentaure in the"
        " Northern Caribbean (tactical area 1) and is now FR3FL Ville de Paris (rule 7.8)."
        in lines("villeneuve")
    )


def test_battle_strength_as_each_side_could_judge_it() -> None:
    british, french = lines("nelson"), lines("villeneuve")
    assert "Our side: 1 flagship and 1 ship of the line (BR1FL and BR4SL), strength 412" in british
    assert (
        "The French: 1 flagship and 1 ship of the line (FR1FL and FR2SL), strength judged at about 300"
        in british
    )
    assert (
        "The British: 1 flagship and 1 ship of the line (BR1FL and BR4SL), strength judged at about 400"
        in french
    )
    assert "Our side: 1 flagship and 1 ship of the line (FR1FL and FR2SL), strength 288" in french
    assert "tried to break the line but lost coordination (rule 7.6)" in british
    assert "The French won the day." in british and "The day was ours." in french


def test_damage_taken_only_for_own_ships() -> None:
    british = lines("nelson")
    assert "- BR4SL Mars (strength 161, close quarters): 2 hull damage (now 2 of 5)," in british
    assert "1 rigging damage (now 1 of 5) and 37 crew lost; 3 experience gained." in british
    assert "FR1FL Bucentaure (strength" not in british and "170" not in british and "118" not in british
    assert "- FR1FL Bucentaure (strength 170, close quarters): 1 rigging damage" in lines("villeneuve")


def test_escape_out_of_sight_of_the_enemy() -> None:
    """Rule 7.8: the escaper's own side knows the tactical area she went to; the enemy sees her go."""
    assert (
        "BR4SL Mars escaped from the battle in the Northern Caribbean (tactical area 1) and got away to the"
        in (lines("nelson"))
    )
    assert (
        "The British ship of the line BR4SL escaped from the battle in the Northern Caribbean"
        " (tactical area 1) and sailed out of sight (rule 7.8)." in lines("villeneuve")
    )


def test_like_events_in_a_row_are_told_together() -> None:
    events = [combat("escaped", [s], to="NOC (tactical area 2)") for s in ("BR1FL", "BR4SL")]
    k = turn_knowledge("villeneuve", world(START), world(START), events)
    told = told_events(k, MAP)
    assert [(t.label, t.kind) for t in told] == [("1-2", "escaped")]
    assert told[0].text.startswith("The British ships BR1FL and BR4SL escaped from the battle")


def test_unknown_kinds_are_told_from_their_detail() -> None:
    ev = Event(Phase.MOVEMENT, "kraken_sighted", ("FR1FL",), WHERE, (), {"tentacles": 8, "names": {}})
    k = turn_knowledge("villeneuve", world(START), world(START), [ev])
    assert event_lines(k, MAP) == [
        "1. [movement] FR1FL Bucentaure kraken sighted in the Northern Caribbean (tactical area 1)"
        " (tentacles 8)."
    ]


def test_sailing_told_without_dice_and_others_without_their_orders() -> None:
    data = {"to": "SOC", "course": "south", "heading": "across", "wind": "moderate from the west"}
    data |= {"step": 3, "chance": 80, "roll": 17, "came_from": WHERE}
    ev = Event(Phase.MOVEMENT, "sailed", ("FR2SL",), WHERE, ("BR4SL",), data)
    ours = event_lines(turn_knowledge("villeneuve", world(START), world(START), [ev]), MAP)[0]
    theirs = event_lines(turn_knowledge("nelson", world(START), world(START), [ev]), MAP)[0]
    assert ours == (
        "1. [movement] FR2SL Neptune sailed from the Northern Caribbean (tactical area 1) for the Southern"
        " Caribbean, with the wind on the beam (moderate from the west)."
    )
    assert theirs == (
        "1. [movement] The French ship of the line FR2SL sailed away to the south from the Northern"
        " Caribbean (tactical area 1), with the wind on the beam (moderate from the west)."
    )
    assert "80" not in ours + theirs and "17" not in ours + theirs


def test_storm_damage_in_full_for_own_ships_only() -> None:
    data = {"rigging": 2, "hull": 1, "roll": 4, "total_rigging": 2, "total_hull": 1}
    ev = Event(Phase.MOVEMENT, "storm_damage", ("FR2SL",), WHERE, ("BR4SL",), data)
    ours = event_lines(turn_knowledge("villeneuve", world(START), world(START), [ev]), MAP)[0]
    theirs = event_lines(turn_knowledge("nelson", world(START), world(START), [ev]), MAP)[0]
    assert ours.endswith(
        "FR2SL Neptune was damaged by the storm in the Northern Caribbean (tactical area 1):"
        " 1 hull damage (now 1 of 5) and 2 rigging damage (now 2 of 5)."
    )
    assert theirs.endswith(
        "The French ship of the line FR2SL was damaged by the storm in the Northern Caribbean"
        " (tactical area 1)."
    )


@pytest.mark.parametrize("kind", sorted(PHRASES))
@pytest.mark.parametrize("player", ["villeneuve", "nelson"])
def test_every_phrase_copes_with_bare_events(kind: str, player: str) -> None:
    """No detail at all (an older or a hand-made event): still a sentence."""
    k = turn_knowledge(player, world(START), world(START))
    for ships in ((), ("FR2SL",), ("FR1FL", "FR2SL", "BR4SL")):
        ev = ObservedEvent(1, Phase.MOVEMENT, kind, WHERE, ships, ships, {})
        text = event_sentence(k, ev, MAP)
        assert text[0].isupper() and text.endswith(".") and "None" not in text, text
        assert ": ." not in text and "  " not in text and " ." not in text and ",." not in text, text


def test_the_html_event_list_carries_kinds_and_details() -> None:
    html = render_reports(knowledge("nelson"), MAP)["html"]
    assert '<li data-kind="battle" data-phase="combat"><span class="n">1.</span>' in html
    assert '<ul class="detail"><li>BR1FL Ville de Paris (strength 251, close quarters)' in html


def _from_afar(index: int, sighted: str, where: str = "NOC") -> ObservedEvent:
    """An evasion seen from another tactical area: no ship named (5.1)."""
    return ObservedEvent(index, Phase.MOVEMENT, "evaded", where, (), ("FR2SL",), {"sighted": sighted})


def test_the_same_sight_from_afar_in_a_row_is_one_line_with_how_often() -> None:
    """Two groups that came in sight of FR2SL and bore away, each as few: one line told
    twice would read as a duplicate; told once with "(twice)" it reads as what was seen.
    A different size, or another sea area, is told on a line of its own."""
    k = turn_knowledge("villeneuve", world(START), world(START))
    seen = (_from_afar(1, "few"), _from_afar(2, "few"), _from_afar(3, "many"), _from_afar(4, "many", "SOC"))
    told = told_events(replace(k, events=seen), MAP)
    assert [t.label for t in told] == ["1-2", "3", "4"]
    assert told[0].text == (
        "A few ships came in sight in the Northern Caribbean and bore away, avoiding contact"
        " (rule 6.9) (twice)."
    )
    assert (
        told[1].text.startswith("Many ships came in sight in the Northern Caribbean")
        and "twice" not in told[1].text
    )


def test_another_state_s_ship_seen_scattered_and_set_down_is_one_line() -> None:
    """Section 8 with 3.11: the French saw BR4SL scattered from tactical area 1 and saw her
    come among their ships in tactical area 2: one line, where she went, not "lost to sight"
    followed by her arrival."""
    k = turn_knowledge("villeneuve", world(START), world(START))
    going = ObservedEvent(1, Phase.MOVEMENT, "scattered", WHERE, ("BR4SL",), ("FR1FL",), {})
    coming = ObservedEvent(
        2,
        Phase.MOVEMENT,
        "storm_arrived",
        "NOC (tactical area 2)",
        ("BR4SL",),
        ("FR2SL",),
        {"enemies": ["FR2SL"], "side": "leeward"},
    )
    (told,) = told_events(replace(k, events=(going, coming)), MAP)
    assert told.label == "1-2"
    assert told.text == (
        "The British ship of the line BR4SL was scattered by the storm in the Northern Caribbean"
        " (tactical area 1) and driven into the Northern Caribbean (tactical area 2), to leeward of"
        " FR2SL Neptune: she held the weather gauge."
    )


def test_an_enemy_leaving_a_battle_among_our_ships_is_seen_coming() -> None:
    """7.4, 7.8 with 5.1: BR4SL evaded the battle and came to tactical area 2, where the
    French lay: they read where she went, not that she sailed out of sight."""
    data = {"to": "NOC (tactical area 2)", "seen_arriving": True}
    ev = ObservedEvent(1, Phase.COMBAT, "evaded", WHERE, ("BR4SL",), ("FR2SL",), data)
    k = turn_knowledge("villeneuve", world(START), world(START))
    assert event_sentence(k, ev, MAP) == (
        "The British ship of the line BR4SL evaded the battle in the Northern Caribbean (tactical area 1)"
        " and came among our ships in the Northern Caribbean (tactical area 2) (rule 7.4)."
    )


def _interception(**data: Any) -> ObservedEvent:
    base = {"by_operation": "raid", "target_operation": "rebase", "target": "FR2SL", "preferred": False}
    return ObservedEvent(1, Phase.MOVEMENT, "interception", "NOC", ("BR4SL",), ("BR4SL",), {**base, **data})


def test_an_interception_tells_the_manoeuvre_not_its_dice() -> None:
    """EiA new naval rules, Interception: "Interception succeeds if intercepting side wins the
    manouver roll or on a tie if intercepting a preferred kind of operation."  The report says
    which of the two it was; the dice, which the knowledge never holds, are not made up."""
    k = turn_knowledge("nelson", world(START), world(START))
    won = event_sentence(k, _interception(succeeded=True, on_tie=False), MAP)
    assert "the interceptors won the manoeuvre: intercepted" in won and "roll" not in won
    tie = event_sentence(k, _interception(succeeded=True, on_tie=True, preferred=True), MAP)
    assert "the manoeuvre was a tie, won on a preferred kind: intercepted" in tie
    lost = event_sentence(k, _interception(succeeded=False, on_tie=False), MAP)
    assert "they lost the manoeuvre: failed" in lost and "preferred" not in lost
