"""Why each order came out as it did (docs/rules/intel.md, "What an explanation
may say"): a line under each event about the player's ships, from the rule
that decided it; one for each of his ships in a battle."""

from __future__ import annotations

from typing import Any

import pytest
from intel_world import MAP, sea, ship, turn_knowledge, world

from pate.core.events import Event, Phase
from pate.core.orders.whose import ORDERED
from pate.reports.events import told_events

SHIPS = [
    ship("FR1FL", sea("NOC", 1), name="Bucentaure"),
    ship("FR2SL", sea("NOC", 1), name="Neptune"),
    ship("FR1FR", sea("NOC", 1), name="Hortense"),
    ship("FR4SL", sea("NOC", 1), name="Redoutable", commander="ganteaume"),
    ship("BR1FL", sea("NOC", 1), name="Ville de Paris"),
    ship("BR4SL", sea("NOC", 1), name="Mars"),
]
WHERE = "NOC (tactical area 1)"
ALL = ("FR1FL", "FR2SL", "FR1FR", "FR4SL", "BR1FL", "BR4SL")
COMMANDER = {"by": "commander", "contact": "accept", "stance": "accept"}


def ev(kind: str, about: list[str], phase: Phase = Phase.MOVEMENT, **data: Any) -> Event:
    return Event(phase, kind, tuple(about), WHERE, ALL, data)


def whys(events: list[Event], player: str = "villeneuve") -> list[str]:
    k = turn_knowledge(player, world(SHIPS), world(SHIPS), events)
    return [d for t in told_events(k, MAP) for d in t.details if d.startswith("Why")]


def sailing(kind: str, about: list[str], chances: dict[str, int], **data: Any) -> Event:
    notes = data.pop("orders", {s: COMMANDER for s in about})
    info = {"to": "BAH", "course": "north", "heading": "upwind", "wind": "moderate from the west", "step": 6}
    return ev(kind, about, **{**info, "chance": min(chances.values()), "roll": 90, **data},
              ship_chances=chances, orders=notes)  # fmt: skip


def test_rule_6_6_held_by_the_wind_says_the_wind_and_her_own_chance() -> None:
    """Rule 6.6: "Ships and transports may not be able to sail as ordered,
    depending on the wind and any damage they have suffered"."""
    (line,) = whys([sailing("held_by_wind", ["FR1FL"], {"FR1FL": 45})])
    assert "her course to the north lay into the wind (moderate from the west)" in line
    assert "her chance to make way was 45% (rule 6.6)" in line
    assert "on her commander's order" in line


def test_rule_6_5_held_in_the_first_move_tries_again() -> None:
    """Recovered 6.5: a ship held in the first move keeps her second."""
    (line,) = whys([sailing("held_by_wind", ["FR1FL"], {"FR1FL": 45}, step=3)])
    assert "she tries again in the second move (rule 6.5)" in line


def test_rule_6_7_in_company_one_roll_and_no_one_else_s_chance() -> None:
    """Rule 6.7: "a single roll for their ability to sail"; another player's
    ship in the company keeps her chance (and so her damage) to herself."""
    (line,) = whys([sailing("held_by_wind", ["FR1FL", "FR4SL"], {"FR1FL": 45, "FR4SL": 5})])
    assert "FR1FL's chance to make way was 45%" in line and " 5%" not in line
    assert "one roll for all at the chance of the slowest sound ship (rule 6.7)" in line
    assert "FR4SL" not in line


def test_rule_6_7_the_damaged_ones_may_not_move() -> None:
    """Rule 6.7: "if some are damaged, the damaged ones may not move"."""
    (line,) = whys([sailing("held_by_damage", ["FR2SL"], {"FR2SL": 10})])
    assert "her damage held her back: her own chance was 10% (rules 6.6, 6.7" in line


def test_rule_6_6_a_sure_move_says_so() -> None:
    """Rule 6.6's tables give some moves 100 or more: no chance, a certainty."""
    (line,) = whys([sailing("sailed", ["FR1FL"], {"FR1FL": 150}, heading="downwind")])
    assert "with this wind the move was certain (rule 6.6)" in line
    (line,) = whys([sailing("sailed", ["FR1FL"], {"FR1FL": 70}, heading="downwind")])
    assert "her chance to make way was 70% (rule 6.6)" in line


def test_rule_6_6_a_ship_that_moved_first_may_not_move_again() -> None:
    """Rule 6.6: "Ships that move in the first movement phase have a chance of
    ending their movement and being unable to move again"."""
    (line,) = whys([ev("stopped", ["FR1FL"], reason="cannot_move_again", orders={"FR1FL": COMMANDER})])
    assert "may be unable to make the second (rule 6.6)" in line


def test_rule_6_2_a_course_that_cannot_be_sailed() -> None:
    """Rule 6.2: "ships ... may move only to a sea area which is adjacent"."""
    (line,) = whys([ev("course_impossible", ["FR1FL"], to="ECH", orders={"FR1FL": COMMANDER})])
    assert "(rules 6.2, 6.5)" in line


def test_rule_4_11_the_default_order_and_rule_4_1_whose_order() -> None:
    """Rule 4.11: "If a ship/transport fails to send orders ... default orders
    will be carried out"; rule 4.1: the deputy's order counts when the
    commander sent none; the minister's counts as the commander's."""
    for by, said in (
        ("default", "on the default order (rule 4.11: no order was sent)"),
        ("deputy", "on her deputy's order (rule 4.1: the commander sent none)"),
        ("minister", "on the naval minister's order (rule 4.1)"),
        ("admin", "on a game administrator's order (rule 4.1)"),
    ):
        note = {**COMMANDER, "by": by}
        (line,) = whys([ev("held_in_port", ["FR1FL"], reason="upwind_heavy", orders={"FR1FL": note})])
        assert said in line, by


def test_rule_4_2_an_attached_ship_carries_out_her_lead_s_order() -> None:
    """Rule 4.2: attached ships carry out the orders of the ship they are attached to."""
    notes = {"FR1FL": COMMANDER, "FR2SL": {**COMMANDER, "copied_from": "FR1FL"}}
    (line,) = whys([ev("stopped", ["FR1FL", "FR2SL"], orders=notes)])
    assert "FR1FL on her commander's order" in line
    assert (
        "FR2SL on the order of FR1FL, to which she is attached (rule 4.2): FR1FL's commander's order" in line
    )


def test_rule_3_4_out_of_stores_she_turns_back_on_her_own() -> None:
    """Rule 3.4: "Ships that run out of stores suffer crew loss, and stop
    responding to orders. They will automatically sail to the nearest
    same-side or actively allied harbor to replenish."""
    starving = ev("out_of_stores", ["FR1FL"], Phase.SUPPLY, crew=700, crew_lost=100, homing=True)
    home = sailing("sailed", ["FR1FL"], {"FR1FL": 150}, heading="downwind")
    first, second = whys([starving, home])
    assert "her stores were gone: ships use one store a turn at sea or in coastal waters" in first
    assert "(rule 3.4)" in first
    assert "with no orders of her own: out of stores, she makes for the nearest friendly harbor" in second
    assert "her commander" not in second
    sent = {"by": "default", "sent_home": True, "contact": "accept", "stance": "accept"}
    home = sailing("sailed", ["FR1FL"], {"FR1FL": 150}, heading="downwind", orders={"FR1FL": sent})
    (line,) = whys([home])
    assert "with no orders of her own: out of stores" in line and "(rules 3.4, 4.11)" in line


def test_rule_4_6_contact_orders_on_meeting_the_enemy() -> None:
    """Rule 4.6: "Ships can choose to pursue enemy ships encountered, evade
    them, or accept contact"; rule 6.9: evaders avoid, others stay."""
    met = {"enemies": ["BR1FL", "BR4SL"], "side": "leeward"}
    (accept,) = whys([ev("met_enemy", ["FR1FL"], orders={"FR1FL": COMMANDER}, **met)])
    assert (
        "her contact order was Accept: she stays in contact with the enemy she meets (rules 4.6, 6.9)"
        in accept
    )
    evade = {**COMMANDER, "contact": "evade", "minimum": 3}
    (line,) = whys([ev("met_enemy", ["FR1FL"], orders={"FR1FL": evade}, **met)])
    assert (
        "her contact order was Evade (from 3 to any number of ships), but the order did not cover the 2"
        in line
    )
    evaded = ev("evaded", ["FR1FL"], orders={"FR1FL": {**COMMANDER, "contact": "evade"}}, enemies_avoided=2)
    (line,) = whys([evaded])
    assert "her contact order was Evade, and she came upon 2 enemy ships (rules 4.6, 6.9)" in line


def test_rule_6_10_pursuit() -> None:
    """Rule 6.10: "a ship ... with a contact order of Pursuit sees an enemy
    ship ... sail, it will ... pursue the departing enemy ship"."""
    note = {**COMMANDER, "contact": "pursue"}
    (line,) = whys([ev("pursued", ["FR1FL"], pursued=["BR1FL"], target="BR1FL", orders={"FR1FL": note})])
    assert "her contact order was Pursue: the enemy sailed, and she followed (rules 4.6, 6.10)" in line


def test_no_why_for_anyone_else_s_ships() -> None:
    """An enemy's orders and chances are not the player's to know."""
    enemy = sailing("held_by_wind", ["BR1FL"], {"BR1FL": 45})
    assert whys([enemy]) == []
    assert whys([enemy], "nelson") != []


def battle(ships: list[tuple[str, int, str, str]], **data: Any) -> Event:
    entries = [
        {"id": sid, "side": side, "outcome": outcome, "stance": stance, "strength": 100,
         "close_quarters": False, "hull": [0, 1], "rigging": [0, 1], "crew_lost": 10, "experience_gained": 1}
        for sid, side, outcome, stance in ships
    ]  # fmt: skip
    sides = [
        {"states": ["FR"], "strength": 300, "windward": data.pop("fr_windward", False), "line": "none"},
        {"states": ["BR"], "strength": 200, "windward": True, "line": "none"},
    ]
    base = {"where": "sea", "winner": ["BR"], "shore_battery": None, "sides": sides, "ships": entries}
    orders = {s: COMMANDER for s, *_ in ships}
    return ev("battle", [s for s, *_ in ships], Phase.COMBAT, **{**base, **data}, orders=orders)


def _battle_whys(ships: list[tuple[str, int, str, str]], **data: Any) -> dict[str, str]:
    lines = whys([battle([*ships, ("BR1FL", 1, "fought", "engage")], **data)])
    return {line.split(":")[0].split()[1]: line for line in lines}


def test_rule_7_4_and_7_8_each_ship_s_outcome_and_the_rule_that_decided_it() -> None:
    """Rule 7.4: "each ship ... may attempt to evade the battle, and will do so
    if its combat orders are Evade"; rule 7.8: "all unsunk ships on the losing
    side attempt to escape the battle. Those that do not escape are taken as prizes"."""
    got = _battle_whys(
        [
            ("FR1FL", 0, "captured", "accept"),
            ("FR2SL", 0, "escaped", "engage"),
            ("FR4SL", 0, "sunk", "accept"),
        ]
    )
    assert "she fought when battle was brought to her (rules 4.7, 7.1)" in got["FR1FL"]
    assert "she did not get away and was taken as a prize (rule 7.8)" in got["FR1FL"]
    assert "her combat order was Engage: she sought battle" in got["FR2SL"]
    assert "her side lost the day and she got away (rule 7.8)" in got["FR2SL"]
    assert "FR4SL" not in got  # another player's ship: no why for her
    got = _battle_whys([("FR1FL", 0, "fought", "accept")], winner=["FR"])
    assert "the day was ours" in got["FR1FL"]
    got = _battle_whys([("FR1FL", 0, "sunk", "accept")])
    assert "her hull was shot through and she sank (rules 2.2, 7.7)" in got["FR1FL"]
    got = _battle_whys([("FR1FL", 0, "fought", "accept")], winner=None)
    assert "neither side won the day" in got["FR1FL"]


def test_rule_7_4_evading_and_forced_into_battle() -> None:
    """Rule 7.4 (mechanics "Joining battle"): evasion is very unlikely from
    windward, very likely from leeward; none in a harbor."""
    got = _battle_whys([("FR1FL", 0, "evaded", "evade")])
    assert "her combat order was Evade, and she got away from leeward (rule 7.4)" in got["FR1FL"]
    got = _battle_whys([("FR1FL", 0, "fought", "evade")], fr_windward=True)
    assert (
        "could not get away from windward, where evasion seldom succeeds, and was forced into battle"
        in got["FR1FL"]
    )
    got = _battle_whys([("FR1FL", 0, "captured", "evade")], where="harbor")
    assert "no ship evades a battle in a harbor (rule 7.4)" in got["FR1FL"]
    got = _battle_whys([("FR1FR", 0, "evaded", "accept")])
    assert "took shelter among her side's ships of the line" in got["FR1FR"]


def test_the_fight_of_her_own_tier_decides_her_day() -> None:
    """Rule 7.1: away from a harbor frigates fight apart, each fight its own winner."""
    fights = [{"tier": "line", "winner": ["FR"], "ships": ["FR1FL", "BR1FL"]},
              {"tier": "frigates", "winner": ["BR"], "ships": ["FR1FR"]}]  # fmt: skip
    got = _battle_whys([("FR1FL", 0, "fought", "accept"), ("FR1FR", 0, "fought", "accept")], fights=fights)
    assert "the day was ours" in got["FR1FL"]
    assert "her side lost the day" in got["FR1FR"]


def test_rule_7_1_who_sought_the_battle_as_far_as_the_player_saw() -> None:
    """Mechanics "Joining battle": a battle is fought when a ship on either side
    seeks it (Engage or Run Past); the enemy's stance shows only as what it did."""
    got = _battle_whys([("FR1FL", 0, "fought", "engage"), ("FR2SL", 0, "fought", "accept")])
    assert got["the"] == "Why the battle: FR1FL sought it (combat order Engage or Run Past, rules 4.7, 7.1)."
    got = _battle_whys([("FR1FL", 0, "fought", "accept"), ("BR4SL", 1, "evaded", "evade")])
    assert "none of our ships sought it, so the enemy did (rule 7.1" in got["the"]
    assert "the British ship of the line BR4SL evaded it (rule 7.4)" in got["the"]
    got = _battle_whys([("FR1FL", 0, "fought", "accept"), ("FR4SL", 0, "fought", "engage")])
    assert "the" not in got  # Ganteaume's FR4SL is on our side: her stance is not ours to know


def test_rule_4_7_run_past_seeks_battle_on_her_way() -> None:
    """Mechanics "Joining battle": Engage and Run Past bring battle."""
    got = _battle_whys([("FR1FL", 0, "fought", "run_past")])
    assert "her combat order was Run Past: she sought battle on her way (rules 4.7, 7.1)" in got["FR1FL"]


@pytest.mark.parametrize("kind", sorted(ORDERED - {"battle"}))
def test_rule_4_1_every_ordered_event_of_his_ships_says_whose_order(kind: str) -> None:
    """Rule 4.1 and 4.11: every move, contact and escape of the player's ships
    says whose order she carried out; the default order says so."""
    phase = Phase.COMBAT if kind in ("escaped",) else Phase.MOVEMENT
    note = {**COMMANDER, "by": "default"}
    (line,) = whys([ev(kind, ["FR1FL"], phase, orders={"FR1FL": note})])
    assert line.startswith("Why: ") and "on the default order (rule 4.11: no order was sent)" in line
