"""A battle decided by the EiA rules is told as such: which rules, the kind of
battle, the chits (open sea only), the rounds and losses, who won; and the
events of its aftermath in the rule book's words."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from intel_world import MAP, sea, ship, turn_knowledge, world

from pate.core.events import Event, Phase
from pate.reports.events import event_lines

WHERE = "NOC (tactical area 1)"
SHIPS = [ship("FR1FL", sea("NOC", 1), name="Bucentaure"), ship("BR1FL", sea("NOC", 1), name="Ville de Paris")]


def combat(kind: str, about: list[str], /, **data: Any) -> Event:
    return Event(Phase.COMBAT, kind, tuple(about), WHERE, ("FR1FL", "BR1FL"), data)


def eia_battle(kind: str, winner: list[str] | None) -> Event:
    return combat(
        "battle",
        ["BR1FL", "FR1FL"],
        rules="eia-advanced",
        kind=kind,
        winner=winner,
        sides=[
            {"states": ["BR"], "chit": "melee", "morale": 4.0, "morale_lost": 0.6, "broken": False},
            {"states": ["FR"], "chit": "linear_defense", "morale": 3.0, "morale_lost": 3.4, "broken": True},
        ],
        rounds=[
            {"round": 1, "tables": ["1-1", "3-2"], "disabled": [0, 1], "closed": True},
            {"round": 2, "tables": ["4-4", "1-1"], "disabled": [2, 0], "closed": False},
        ],
        chase={"table": "4-1", "disabled": 1},
        harbor_defenses=None,
        ships=[
            {"id": "BR1FL", "side": 0, "outcome": "fought"},
            {"id": "FR1FL", "side": 1, "outcome": "retreated"},
        ],
    )


def told(player: str, events: list[Event]) -> str:
    return "\n".join(event_lines(turn_knowledge(player, world(SHIPS), world(SHIPS), events), MAP))


def test_an_open_sea_battle_is_told_under_the_eia_rules() -> None:
    text = told("nelson", [eia_battle("open_sea", ["BR"])])
    assert "Open sea combat (EiA rule 12.2.6.1)" in text
    assert (
        "Our side (melee) with 1 flagship (BR1FL) against the French (linear defense) with 1 flagship (FR1FL)"
        in text
    )
    assert "2 rounds fought" in text and "the French had 2 ships disabled, and broke" in text
    assert "the melee force closed with the enemy" in text and "the general chase disabled 1 more" in text
    assert "The day was ours" in text and "(rule 7)" not in text


def test_blockade_battles_name_no_chits_and_raids_end_in_a_draw() -> None:
    blockade = told("nelson", [eia_battle("blockade", ["BR"])])
    assert "Blockade battle (EiA rule 12.2.6.2)" in blockade and "(melee)" not in blockade
    raid = told("nelson", [eia_battle("port_raid", None)])
    assert "Neither side could claim victory (EiA rule 12.2.6.3.2)" in raid


def test_a_raid_counts_the_raiders_lost_to_the_harbor_defences() -> None:
    """12.2.6.3.1: the harbor defences fire before the rounds; what they disabled is among the
    raiders' losses, so the sentence does not say "1 of the raiders" and then "0 disabled"."""
    ev = eia_battle("port_raid", None)
    rounds = [{"round": 1, "tables": ["5-2", "1-1"], "disabled": [0, 0], "closed": False}]
    raid = replace(ev, data={**ev.data, "rounds": rounds, "harbor_defenses": 1, "attacker": 0, "chase": None})
    text = told("nelson", [raid])
    assert (
        "the harbor defences disabled 1 of the raiders; 1 round fought; our side had 1 ship disabled" in text
    )


def test_the_aftermath_in_the_rules_words() -> None:
    text = told(
        "nelson",
        [
            combat("hulk", ["BR1FL"], port="Plymouth", movement_points=1),
            combat(
                "admiral_in_battle",
                [],
                admiral="nelson",
                name="Horatio Nelson",
                fate="wounded",
                closing_shift=2,
            ),
            combat("political_points", [], gained=["BR"], lost=["FR"], points=2),
        ],
    )
    assert "reached Plymouth disabled and was laid up as a hulk (EiA rule 12.2.6.1.9.1)" in text
    assert "Admiral Horatio Nelson was wounded" in text
    assert "worth 2 political points (EiA rule 12.2.6.1.6.3)" in text


def test_rule_3_11_an_eia_battle_names_the_ships_on_each_side() -> None:
    """3.11: "The first one contains a list of all events that happened during
    the turn that were observed by the player's ships". A play-test of
    grand1805 under eia-advanced told Cochrane of an open sea combat in the
    Western Caribbean without naming one ship of either side; a battle under
    the PATE rules names them all, and so does one under the EiA rules."""
    battle = eia_battle("open_sea", ["BR"])
    battle = Event(
        battle.phase,
        battle.kind,
        ("BR1FL", "BR2FR", "FR1FL"),
        battle.location,
        battle.witnesses,
        {
            **battle.data,
            "ships": [
                {"id": "BR2FR", "side": 0, "outcome": "fought"},
                {"id": "BR1FL", "side": 0, "outcome": "fought"},
                {"id": "FR1FL", "side": 1, "outcome": "hulk"},
            ],
        },
    )
    text = told("villeneuve", [battle])
    assert "The British (melee) with 1 flagship and 1 frigate (BR1FL and BR2FR)" in text
    assert "against our side (linear defense) with 1 flagship (FR1FL)" in text


def test_rule_3_11_several_hulks_in_one_line() -> None:
    """3.11: events in the rule book's words; two ships laid up together are
    "laid up as hulks" (a play-test read "were laid up as a hulk")."""
    text = told("nelson", [combat("hulk", ["BR1FL", "FR1FL"], port="Plymouth", movement_points=1)])
    assert "were laid up as hulks (EiA rule 12.2.6.1.9.1)" in text
