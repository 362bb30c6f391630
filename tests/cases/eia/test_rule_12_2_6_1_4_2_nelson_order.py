"""Rule case of EiA rule 12.2.6.1.4.2 as an order: Nelson's player chooses
his 1 or 2 for the turn's battles with ``combat ... nelson 1|2`` (the order
file, docs/formats/orders.md), checked by the desk and used by the combat
phase, and the desk's explanation says what it will do."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.explain import what_it_does
from pate.core.orders.model import Combat, ShipOrder
from pate.core.orders.refusal import Actor
from pate.core.orders.text import parse_orders
from pate.core.orders.textout import format_order
from pate.core.rules.validation.orders import validate_order
from pate.core.world.state import Admiral
from tests.cases.eia.eia_world import eia_world, fleet, kinds, linear_defense, melee, run
from tests.unit.combat.combat_world import CTX, RULE_DATA

TAIL = [6] * 40


def _nelson_world(shift_chosen_in_scenario: int | None = None):  # type: ignore[no-untyped-def]
    w = eia_world(*fleet("BR", 3, commander="nelson"), *fleet("FR", 3))
    return replace(
        w, admirals={"nelson": Admiral("nelson", nelson=True, closing_shift=shift_chosen_in_scenario)}
    )


def _with_shift(sid: str, shift: int) -> ShipOrder:
    o = melee(sid)
    return replace(o, combat=replace(o.combat, closing_shift=shift))


def test_rule_12_2_6_1_4_2_the_order_file_states_nelsons_choice() -> None:
    """12.2.6.1.4.2: "A purely British naval force commanded by Nelson may
    subtract 1 or 2 from the die roll for closing at the option of the
    controlling player." The option is an order: ``combat ... nelson 1``."""
    (order,) = parse_orders("order BR1SL\n  combat engage close break nelson 1\n")
    assert order.combat.closing_shift == 1
    assert "nelson 1" in format_order(order)
    assert parse_orders(format_order(order)) == [order]


def test_rule_12_2_6_1_4_2_the_choice_is_per_battle_and_wins_over_the_scenario() -> None:
    """The player's order for this turn gives 1 where the scenario chose 2 (and
    the rules' default is 2): a closing roll of 5 against linear defense (1-3)
    then fails (5 - 1 = 4), where 5 - 2 = 3 closes."""
    dice = [1, 1, 5, 1, 1, 5, 1, 1, *TAIL]
    w = _nelson_world(shift_chosen_in_scenario=2)
    fr = [linear_defense(f"FR{k}SL") for k in range(1, 4)]
    by_order = run(w, [_with_shift("BR1SL", 1), melee("BR2SL"), melee("BR3SL"), *fr], dice=list(dice))
    (b,) = kinds(by_order, "battle")
    assert not b.data["rounds"][0]["closed"]
    (told,) = kinds(by_order, "admiral_in_battle")
    assert told.data["closing_shift"] == 1
    by_scenario = run(w, [melee(f"BR{k}SL") for k in range(1, 4)] + fr, dice=list(dice))
    (b2,) = kinds(by_scenario, "battle")
    assert b2.data["rounds"][0]["closed"]


def _refusals(order: ShipOrder, world):  # type: ignore[no-untyped-def]
    actor = Actor(player="nelson", state="BR")
    return validate_order(order, actor, world, CTX.map, RULE_DATA)


def test_rule_12_2_6_1_4_2_only_1_or_2_only_nelson_only_under_eia() -> None:
    """ "subtract 1 or 2": 3 is refused naming the field and the rule; so is the
    choice on a ship Nelson does not command, and in a campaign fought by
    PATE's own combat rules."""
    w = _nelson_world()
    assert _refusals(_with_shift("BR1SL", 2), w) == []
    (three,) = _refusals(_with_shift("BR1SL", 3), w)
    assert (three.field, three.rule) == ("combat.closing_shift", "12.2.6.1.4.2")
    assert "1 or 2" in three.message
    other = replace(w, ships={**w.ships, "BR1SL": replace(w.ships["BR1SL"], commander="collingwood")})
    collingwood = Actor(player="collingwood", state="BR")
    (not_his,) = validate_order(_with_shift("BR1SL", 1), collingwood, other, CTX.map, RULE_DATA)
    assert not_his.field == "combat.closing_shift" and "Nelson commands" in not_his.message
    pate_rules = replace(w, combat_rules="pate")
    (pate,) = _refusals(_with_shift("BR1SL", 1), pate_rules)
    assert pate.field == "combat.closing_shift" and "EiA" in pate.message


def test_rule_12_2_6_1_4_2_the_desk_says_what_the_choice_will_do() -> None:
    notes = what_it_does(ShipOrder("BR1SL", combat=Combat(closing_shift=2)))
    assert "2 is taken off the closing roll and added to his casualty roll" in notes["combat"]
    assert "combat" not in what_it_does(ShipOrder("BR1SL"))
