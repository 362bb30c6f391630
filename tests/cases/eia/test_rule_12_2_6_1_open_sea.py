"""Rule cases of EiA rule 12.2.6.1 (open sea combat), through the combat phase
the turn runner calls for a campaign with ``combat_rules = "eia-advanced"``.

Toy map (tests/unit/combat/combat_world.py): the English Channel, Brest
(French) and Plymouth (British) on it; every battle below is in tactical area
1.  Scripted dice are given in the order the engine draws them: each round the
attacker's die then the defender's, then the closing roll; then the chase,
then one die per disabled ship for its voyage.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.rules.eia.engine import fight_eia
from pate.core.rules.eia.model import EiaBattle, EiaShip, Fate
from pate.core.rules.eia.params import Chit
from pate.core.world.ships import AtSea, InPort, ShipType
from tests.cases.eia.eia_world import (
    EIA_RULES,
    eia_world,
    fleet,
    kinds,
    linear_attack,
    linear_defense,
    melee,
    run,
)
from tests.unit.eia.scripted import ScriptedRng

TAIL = [6] * 40  # later dice (chase, voyages) when a case does not look at them


def _battle(ts):  # type: ignore[no-untyped-def]
    (b,) = kinds(ts, "battle")
    return b.data


def br_melee_fr_line(n: int = 5):  # type: ignore[no-untyped-def]
    w = eia_world(*fleet("BR", n), *fleet("FR", n))
    orders = [melee(f"BR{k}SL") for k in range(1, n + 1)] + [
        linear_defense(f"FR{k}SL") for k in range(1, n + 1)
    ]
    return w, orders


def test_rule_12_2_6_1_open_sea_combat_covers_battles_at_sea() -> None:
    """12.2.6.1: "These rules cover all naval combat except blockade battles
    and raids on ports. ... If used, rule 12.2.7 (Nelson casualty rule) must be
    enforced as well." A battle at sea is open sea combat, fought and reported
    under the EiA rules; Nelson's rule has no switch of its own."""
    w, orders = br_melee_fr_line()
    data = _battle(run(w, orders, seed=2))
    assert data["rules"] == "eia-advanced" and data["kind"] == "open_sea"
    assert EIA_RULES.nelson_casualty_on == 11


def test_rule_12_2_6_1_1_tactical_chits_from_the_combat_orders() -> None:
    """12.2.6.1.1: "Both players select a naval tactical chit ... linear
    defense, linear attack, melee." Break the line at close quarters is melee,
    line ahead at close quarters linear attack, at range linear defense."""
    for order, chit in (
        (melee, "melee"),
        (linear_attack, "linear_attack"),
        (linear_defense, "linear_defense"),
    ):
        w = eia_world(*fleet("BR", 2), *fleet("FR", 2))
        orders = [order("BR1SL"), order("BR2SL"), melee("FR1SL"), melee("FR2SL")]
        assert _battle(run(w, orders, seed=1))["sides"][0]["chit"] == chit


def test_rule_12_2_6_1_1_the_revolution_variant_removes_the_melee_chits() -> None:
    """12.2.6.1.1: "(Note, if playing the revolution campaign variant ignore
    rule 14.8.7.F.3, and remove chits marked melee)". Under the rule set
    "eia-advanced-revolution" breaking the line at close quarters is linear
    attack; nobody closes, so the melee tables are never read."""
    w = replace(eia_world(*fleet("BR", 2), *fleet("FR", 2)), combat_rules="eia-advanced-revolution")
    orders = [melee("BR1SL"), melee("BR2SL"), linear_defense("FR1SL"), linear_defense("FR2SL")]
    data = _battle(run(w, orders, seed=1))
    assert [s["chit"] for s in data["sides"]] == ["linear_attack", "linear_defense"]
    assert not any(r["closed"] for r in data["rounds"])


def test_rule_12_2_6_1_2_chits_are_cross_indexed_on_the_chart() -> None:
    """12.2.6.1.2: "Both players now reveal chosen chits and cross index them
    on the Tactical Naval Chart." Melee (attacker) against linear defense:
    round 1 reads 1-1 for the attacker and 3-2 for the defender."""
    w, orders = br_melee_fr_line()
    data = _battle(run(w, orders, dice=[1, 1, 6, 1, 1, 6, 1, 1, *TAIL]))
    assert data["rounds"][0]["tables"] == ["1-1", "3-2"]
    assert data["sides"][0]["attacker"]


def test_rule_12_2_6_1_3_forces_are_revealed() -> None:
    """12.2.6.1.3 and 12.2.6.1.3.1: "Both players reveal their forces and
    determine final morale levels"; "Both players simultaneously reveal the
    exact size and composition of their fleet counters." Every ship in the
    battle is named in the battle's report, with its side."""
    w, orders = br_melee_fr_line(3)
    ts = run(w, orders, seed=4)
    (b,) = kinds(ts, "battle")
    assert {e["id"]: e["side"] for e in b.data["ships"]} == {
        "BR1SL": 0,
        "BR2SL": 0,
        "BR3SL": 0,
        "FR1SL": 1,
        "FR2SL": 1,
        "FR3SL": 1,
    }


def test_rule_12_2_6_1_3_1_both_sides_see_the_whole_of_both_forces() -> None:
    """12.2.6.1.3.1: "Both players simultaneously reveal the exact size and
    composition of their fleet counters." The battle event is about every ship
    of both sides, so each player's report of it shows both forces, ship by
    ship and class by class (flagships, ships of the line, frigates)."""
    w = eia_world(*fleet("BR", 2), *fleet("BR", 1, type_="FR"), *fleet("FR", 2), *fleet("FR", 1, type_="FL"))
    orders = [melee(s) for s in ("BR1SL", "BR2SL", "BR1FR")] + [
        linear_defense(s) for s in ("FR1SL", "FR2SL", "FR1FL")
    ]
    (b,) = kinds(run(w, orders, seed=6), "battle")
    assert set(b.ships) == {"BR1SL", "BR2SL", "BR1FR", "FR1SL", "FR2SL", "FR1FL"}
    assert {e["id"] for e in b.data["ships"]} == set(b.ships)


def test_rule_12_2_6_1_3_2_final_morale_by_nationality() -> None:
    """12.2.6.1.3.2: "British and Dutch ships have a morale level of 4.0;
    Austrian and Prussian a morale value of 2.0 and all others a morale value
    of 3.0." A mixed force takes the average over its ships (method 1)."""
    w, orders = br_melee_fr_line(2)
    data = _battle(run(w, orders, seed=3))
    assert [s["morale"] for s in data["sides"]] == [4.0, 3.0]
    mixed = (
        EiaShip("a", 0, "BR", ShipType.SL),
        EiaShip("b", 0, "HO", ShipType.SL),
        EiaShip("c", 0, "AU", ShipType.SL),
    )
    b = EiaBattle(ships=(*mixed, EiaShip("d", 1, "PR", ShipType.SL)))
    assert fight_eia(b, EIA_RULES, ScriptedRng([1] * 6)).morale == ((4.0 + 4.0 + 2.0) / 3, 2.0)


def test_rule_12_2_6_1_4_a_series_of_three_tables() -> None:
    """12.2.6.1.4: "The tactical naval chart refers each player to a series of
    three sets of combat tables." Linear attack against linear attack: 2-2,
    3-2, 4-2 in rounds 1, 2 and 3."""
    w = eia_world(*fleet("SP", 4, commander=None), *fleet("BR", 4))
    orders = [linear_attack(f"BR{k}SL") for k in range(1, 5)] + [
        linear_attack(f"SP{k}SL") for k in range(1, 5)
    ]
    data = _battle(run(w, orders, dice=[1] * 6 + TAIL))
    assert [r["tables"] for r in data["rounds"]] == [["2-2", "2-2"], ["3-2", "3-2"], ["4-2", "4-2"]]


def test_rule_12_2_6_1_4_1_the_second_set_once_the_melee_force_closed() -> None:
    """12.2.6.1.4.1: "Until the melee force closes, the first set ... is used.
    Once it has closed with the enemy, it uses the second set ... The tactical
    naval chart indicates the die roll required to close after each tactical
    round." Against linear defense it closes on 1-3: a 3 closes, a 4 does not."""
    w, orders = br_melee_fr_line()
    closes = _battle(run(w, orders, dice=[1, 1, 3, 1, 1, 1, 1, *TAIL]))
    assert closes["rounds"][0]["closed"] and closes["rounds"][1]["tables"] == ["4-4", "1-1"]
    stays = _battle(run(w, orders, dice=[1, 1, 4, 1, 1, 4, 1, 1, *TAIL]))
    assert [r["tables"] for r in stays["rounds"]] == [["1-1", "3-2"], ["1-1", "4-2"], ["1-1", "5-3"]]


def nelson_world(n: int = 5):  # type: ignore[no-untyped-def]
    from pate.core.world.state import Admiral

    w, orders = br_melee_fr_line(n)
    ships = {sid: replace(s, commander="nelson") if s.state == "BR" else s for sid, s in w.ships.items()}
    return replace(w, ships=ships, admirals={"nelson": Admiral("nelson", nelson=True)}), orders


def test_rule_12_2_6_1_4_2_nelson_subtracts_from_the_closing_roll() -> None:
    """12.2.6.1.4.2: "A purely British naval force commanded by Nelson may
    subtract 1 or 2 from the die roll for closing ... this number must then be
    applied as a positive modifier to Nelson's chances of becoming a casualty."
    A closing roll of 5 fails against linear defense (1-3) but closes under Nelson (-2)."""
    dice = [1, 1, 5, 1, 1, 5, 1, 1, *TAIL]
    w, orders = br_melee_fr_line()
    assert not _battle(run(w, orders, dice=list(dice)))["rounds"][0]["closed"]
    wn, orders_n = nelson_world()
    ts = run(wn, orders_n, dice=list(dice))
    assert _battle(ts)["rounds"][0]["closed"]
    (nelson,) = kinds(ts, "admiral_in_battle")
    assert nelson.data["closing_shift"] == 2


def test_rule_12_2_6_1_5_only_nationality_and_numbers_modify_the_roll() -> None:
    """12.2.6.1.5: "the only die role modifiers are the nationality modifiers
    (Note C and Note D) and ... casualties inflicted represent ships that are
    disabled." Ten British against five Spanish in linear attack: British +1
    (majority, linear attack) and +1 for 2:1, capped at +1; the Spanish -1."""
    w = eia_world(*fleet("BR", 10), *fleet("SP", 5, commander=None))
    orders = [linear_attack(f"BR{k}SL") for k in range(1, 11)] + [
        linear_attack(f"SP{k}SL") for k in range(1, 6)
    ]
    data = _battle(run(w, orders, dice=[6, 1, 1, 1, 1, 1, *TAIL]))
    assert data["rounds"][0]["modifiers"] == [1, -1]
    # 2-2 at 6 + 1 = 7: 10% of ten factors disables one Spanish ship
    assert data["rounds"][0]["disabled"] == [1, 0]
    disabled = [e for e in data["ships"] if e["disabled_in"] == 1]
    assert [e["id"][:2] for e in disabled] == ["SP"]


def test_rule_12_2_6_1_6_all_ships_disabled_is_defeat() -> None:
    """12.2.6.1.6: "A side ... is defeated when all of its ships are disabled,
    or when its cumulative morale loss reaches or exceeds it final morale level
    ... The battle immediately ends with the other side declared the victor."
    One Spanish ship disabled in round 1: the battle ends there."""
    w = eia_world(*fleet("BR", 10), *fleet("SP", 1, commander=None))
    orders = [linear_attack(f"BR{k}SL") for k in range(1, 11)] + [linear_attack("SP1SL")]
    data = _battle(run(w, orders, dice=[6, 1, *TAIL]))
    assert len(data["rounds"]) == 1 and data["winner"] == ["BR"]


def test_rule_12_2_6_1_6_a_broken_force_is_defeated() -> None:
    """12.2.6.1.6: "... or when its cumulative morale loss reaches or exceeds
    it final morale level (the force is then said to be broken)." The French
    lose 1.7 + 1.7 = 3.4 of their 3.0 to a closed melee force."""
    w, orders = br_melee_fr_line()
    data = _battle(run(w, orders, dice=[1, 1, 3, 1, 1, 1, 1, *TAIL]))
    assert data["sides"][1]["broken"] and data["sides"][1]["morale_lost"] >= 3.0
    assert data["winner"] == ["BR"] and len(data["rounds"]) == 3


def test_rule_12_2_6_1_6_1_the_battle_continues_while_neither_is_defeated() -> None:
    """12.2.6.1.6.1: "If, at the end of a combat round, neither side has been
    defeated the battle continues and both players repeat the sequence
    commencing at step 5." Quiet dice: three rounds are fought."""
    w = eia_world(*fleet("BR", 3), *fleet("FR", 3))
    orders = [linear_defense(f"BR{k}SL", stance=melee("x").combat.stance) for k in range(1, 4)]
    orders += [linear_defense(f"FR{k}SL") for k in range(1, 4)]
    data = _battle(run(w, orders, dice=[1] * 6 + TAIL))
    assert [r["round"] for r in data["rounds"]] == [1, 2, 3]


def test_rule_12_2_6_1_6_2_inconclusive_after_three_rounds() -> None:
    """12.2.6.1.6.2: "If after three rounds of combat, neither side has been
    defeated the battle ends inconclusively. Neither side is defeated and
    neither is declared the victor." Nobody retreats, nobody is taken."""
    w = eia_world(*fleet("BR", 3), *fleet("FR", 3))
    orders = [linear_defense(f"BR{k}SL", stance=melee("x").combat.stance) for k in range(1, 4)]
    orders += [linear_defense(f"FR{k}SL") for k in range(1, 4)]
    ts = run(w, orders, dice=[1] * 6 + TAIL)
    assert _battle(ts)["winner"] is None
    assert not kinds(ts, "retreated") and not kinds(ts, "captured") and not kinds(ts, "political_points")
    assert all(s.location == AtSea("ECH", 1) for s in ts.world.ships.values())


def test_rule_12_2_6_1_6_3_political_points_for_the_victor() -> None:
    """12.2.6.1.6.3: "The victor now gains political points and the defeated
    loses them ... based on fleet counters ... If there is no victor, no
    adjustments are made." PATE tells them as a campaign event: one fleet
    counter per ten ships of the defeated, one point each (docs/rules/eia.md)."""
    w, orders = br_melee_fr_line()
    ts = run(w, orders, dice=[1, 1, 3, 1, 1, 1, 1, *TAIL])
    (pp,) = kinds(ts, "political_points")
    assert pp.data["gained"] == ["BR"] and pp.data["lost"] == ["FR"] and pp.data["points"] == 1


def test_rule_12_2_6_1_6_3_the_points_are_posted_and_the_minister_is_told() -> None:
    """12.2.6.1.6.3: "Post these adjustments on the political status display."
    The campaign keeps each state's running score (``WorldState.political_points``):
    a second British victory adds to the first; the naval minister's report
    shows the display, his own state first."""
    from pate.core.intel.knowledge import knowledge_for
    from pate.core.world.state import Player, Role
    from pate.reports.minister import minister_sections
    from tests.unit.combat.combat_world import CTX

    w, orders = br_melee_fr_line()
    ts = run(w, orders, dice=[1, 1, 3, 1, 1, 1, 1, *TAIL])
    assert ts.world.political_points == {"BR": 1, "FR": -1}
    dice = [1, 1, 3, 1, 1, 1, 1, *TAIL]
    again = run(replace(w, political_points=ts.world.political_points), orders, dice=dice)
    assert again.world.political_points == {"BR": 2, "FR": -2}
    decres = Player("decres", "Denis Decres", "FR", frozenset({Role.NAVAL_MINISTER}))
    after = replace(again.world, players={**again.world.players, "decres": decres})
    k = knowledge_for("decres", replace(w, players=after.players), after, (), CTX.map)
    assert k.political_points == (("BR", 2), ("FR", -2))
    heads = dict(minister_sections(k, CTX.map))
    lines = heads["Political points won and lost at sea (EiA rule 12.2.6.1.6.3)"]
    assert lines[0].strip().endswith(": -2") and lines[1].strip().endswith(": +2")


def test_rule_12_2_6_1_7_general_chase() -> None:
    """12.2.6.1.7: "Find the victor's total morale loss on the table and roll
    once on the combat resolution table ... only ships not disabled may
    participate ... ships using linear defense must subtract 1 ... inflict only
    the indicated casualties." The British lost 0.6 (3-2 at 1 + 1 in round 1,
    nothing later): table 4-1 (0.6 - 1.5)."""
    w, orders = br_melee_fr_line()
    data = _battle(run(w, orders, dice=[1, 1, 3, 1, 1, 1, 1, *TAIL]))
    assert data["sides"][0]["morale_lost"] == 0.6 and data["chase"]["table"] == "4-1"
    # the linear defense victor's roll is one less
    ships = tuple(EiaShip(f"a{k}", 0, "FR", ShipType.SL) for k in range(10)) + tuple(
        EiaShip(f"b{k}", 1, "SP", ShipType.SL) for k in range(10)
    )
    b = EiaBattle(ships=ships, chits=(Chit.LINEAR_DEFENSE, Chit.LINEAR_ATTACK))
    # round 1: FR 2-2 at 6 (+1 French, linear defense) = 7: 10%, 2.4 morale; round 2: 3-2 at 7: 2.6 -> broken
    r = fight_eia(b, EIA_RULES, ScriptedRng([6, 1, 6, 1, 6, 6, *TAIL]))
    assert r.winner == 0 and r.chase is not None
    assert r.chase.roll == 5  # the chase die 6, less 1 for linear defense


def test_rule_12_2_6_1_8_the_defeated_retreat() -> None:
    """12.2.6.1.8: "If there is a victor in the battle, this step is performed
    as described in 6.3.5 [retreat]. If neither side is declared the victor,
    both forces may retreat or remain." The French ships not disabled leave
    tactical area 1."""
    w, orders = br_melee_fr_line()
    ts = run(w, orders, dice=[1, 1, 3, 1, 1, 1, 1, *TAIL])
    gone = [e.ships[0] for e in kinds(ts, "retreated")]
    assert gone and all(i.startswith("FR") for i in gone)
    assert all(ts.world.ships[i].location != AtSea("ECH", 1) for i in gone)


def test_rule_12_2_6_1_9_the_victor_takes_the_disabled_ships() -> None:
    """12.2.6.1.9: "The victor gains control of all the defeated side's
    disabled ships, as well as retaining possession of his own disabled
    ships." The disabled Spaniard reaches Plymouth as a British hulk."""
    w = eia_world(*fleet("BR", 10), *fleet("SP", 1, commander=None))
    orders = [linear_attack(f"BR{k}SL") for k in range(1, 11)] + [linear_attack("SP1SL")]
    ts = run(w, orders, dice=[6, 1, *TAIL])
    assert "SP1SL" not in ts.world.ships
    (cap,) = kinds(ts, "captured")
    prize = ts.world.ships[cap.data["prize"]]
    assert prize.state == "BR" and prize.hulk and prize.location == InPort("Plymouth", harbor=True)


def test_rule_12_2_6_1_9_1_disabled_ships_roll_against_the_distance() -> None:
    """12.2.6.1.9.1: "For each disabled ship, a die is rolled: if the distance
    to the port in movement points is greater than or equal to the die roll
    the disabled ship is lost en route ... a roll of 1 always sinks a disabled
    ship. A disabled ship which successfully reaches port is a termed a hulk."""
    ships = (
        *tuple(EiaShip(f"a{k}", 0, "BR", ShipType.SL) for k in range(10)),
        EiaShip("b", 1, "SP", ShipType.SL),
    )
    b = EiaBattle(ships=ships, chits=(Chit.LINEAR_ATTACK, Chit.LINEAR_ATTACK), voyage=(3, 3))
    lost = fight_eia(b, EIA_RULES, ScriptedRng([6, 1, 3]))  # roll 3, distance 3: lost
    assert lost.fate[-1] is Fate.LOST
    kept = fight_eia(b, EIA_RULES, ScriptedRng([6, 1, 4]))  # roll 4 beats distance 3: a hulk
    assert kept.fate[-1] is Fate.HULK and kept.owner[-1] == 0
    # distance 0 (Plymouth lies on the Channel), yet a 1 sinks her
    w = eia_world(*fleet("BR", 10), *fleet("SP", 1, commander=None))
    orders = [linear_attack(f"BR{k}SL") for k in range(1, 11)] + [linear_attack("SP1SL")]
    ts = run(w, orders, dice=[6, 1, 1, *TAIL])
    assert [e.ships for e in kinds(ts, "lost_en_route")] == [("SP1SL",)]
