"""The EiA battle engine with scripted dice: rounds, closing, victory, chase, fates."""

from __future__ import annotations

import pytest

from pate.core.rng import Rng
from pate.core.rules.eia import Chit, EiaRules
from pate.core.rules.eia.engine import fight_eia
from pate.core.rules.eia.model import EiaBattle, EiaShip, Fate
from pate.core.world.ships import ShipType
from pate.datafiles import load_rule_data
from tests.unit.eia.scripted import ScriptedRng


@pytest.fixture(scope="module")
def rules() -> EiaRules:
    return EiaRules.from_rules(load_rule_data())


def fleet(side: int, state: str, n: int, type_: ShipType = ShipType.SL) -> list[EiaShip]:
    return [EiaShip(f"{state}{side}{k}", side, state, type_) for k in range(n)]


def test_final_morale_by_nationality(rules: EiaRules) -> None:
    for state, level in (("BR", 4.0), ("HO", 4.0), ("AU", 2.0), ("PR", 2.0), ("FR", 3.0), ("SP", 3.0)):
        b = EiaBattle(ships=tuple(fleet(0, state, 2) + fleet(1, "RU", 2)))
        r = fight_eia(b, rules, Rng(1))
        assert r.morale[0] == level


def test_three_quiet_rounds_end_inconclusively(rules: EiaRules) -> None:
    # Linear defense against linear defense, 1-1 / 2-1 / 3-1, ones everywhere: nothing happens.
    b = EiaBattle(ships=tuple(fleet(0, "SP", 5) + fleet(1, "RU", 5)))
    r = fight_eia(b, rules, ScriptedRng([1] * 6))
    assert r.winner is None and len(r.rounds) == 3
    assert all(f is Fate.FOUGHT for f in r.fate)
    assert [x.tables for x in r.rounds] == [("1-1", "1-1"), ("2-1", "2-1"), ("3-1", "3-1")]


def test_melee_force_switches_to_the_second_set_once_it_closes(rules: EiaRules) -> None:
    b = EiaBattle(
        ships=tuple(fleet(0, "SP", 5) + fleet(1, "RU", 5)),
        chits=(Chit.MELEE, Chit.LINEAR_DEFENSE),
    )
    # round 1: 1 and 1; closing roll 3 (closes on 1-3 against linear defense); rounds 2, 3: ones.
    r = fight_eia(b, rules, ScriptedRng([1, 1, 3, 1, 1, 1, 1] + [6] * 5))
    assert r.rounds[0].tables == ("1-1", "3-2") and r.rounds[0].closed
    assert r.rounds[1].tables == ("4-4", "1-1")


def test_a_closing_roll_too_high_keeps_the_first_set(rules: EiaRules) -> None:
    b = EiaBattle(ships=tuple(fleet(0, "SP", 5) + fleet(1, "RU", 5)), chits=(Chit.MELEE, Chit.LINEAR_DEFENSE))
    r = fight_eia(b, rules, ScriptedRng([1, 1, 4, 1, 1, 5, 1, 1] + [6] * 5))
    assert [x.tables for x in r.rounds] == [("1-1", "3-2"), ("1-1", "4-2"), ("1-1", "5-3")]


def test_breaking_the_enemy_wins_and_the_victor_chases(rules: EiaRules) -> None:
    # 20 Spanish (5-2 blockaders' tables do not apply: open sea, linear attack mirror 2-2/3-2/4-2)
    b = EiaBattle(
        ships=tuple(fleet(0, "SP", 10) + fleet(1, "RU", 10)),
        chits=(Chit.LINEAR_ATTACK, Chit.LINEAR_ATTACK),
    )
    # round 1: attacker 6 (2-2 at 6: 10%, 1.9), defender 1 (0, 0.2); round 2: 6 (3-2: 15%, 2.2) and 1
    dice = [6, 1, 6, 1, 3, 6, 6, 6, 6]  # then the chase roll (3) and voyage rolls
    r = fight_eia(b, rules, ScriptedRng(dice + [6] * 20))
    assert r.winner == 0 and r.broken == (False, True)
    assert len(r.rounds) == 2
    assert r.chase is not None and r.chase.table == "5-1"  # victor lost 0.4 morale: 0.0-0.5
    captured = [i for i, s in enumerate(b.ships) if s.side == 1 and r.fate[i] is Fate.HULK]
    assert captured and all(r.owner[i] == 0 for i in captured)
