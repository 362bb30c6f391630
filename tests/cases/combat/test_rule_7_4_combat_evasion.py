"""Rule 7.4 and the mechanics page on evasion, with its three special cases.

Chances with the data of ``data/rules/combat.toml``: from windward 20%, from
leeward 80%, from leeward in coastal waters with onshore winds 20%; +5% per
point of quality; light winds +10%, heavy -10%.
"""

from __future__ import annotations

from pate.core.intel.judged import Judge, judge
from pate.core.orders.model import CombatStance
from pate.core.rng import Rng
from pate.core.rules.combat import Outcome, Where, fight
from pate.core.rules.combat.evasion import evasion_chance
from pate.core.rules.combat.prepare import prepare
from pate.core.world.geography import WindStrength
from pate.core.world.ships import AtSea, Quality, ShipType
from tests.unit.combat.combat_world import (
    RULES,
    battle,
    bship,
    fights,
    order,
    run_phase,
    ship,
    tolerance,
    world,
)

ENGAGE, EVADE = CombatStance.ENGAGE, CombatStance.EVADE
N = 1500


def evading_side(windward: int, **kw: object) -> list[Outcome]:
    """Side 1 (three ships) evades entirely; side 0 (two ships) engages."""
    b = battle(
        bship("a1", 0, stance=ENGAGE),
        bship("a2", 0, stance=ENGAGE),
        *(bship(f"b{k}", 1, stance=EVADE) for k in range(3)),
        windward=windward,
        **kw,  # type: ignore[arg-type]
    )
    got_away = []
    for r in fights(b, N):
        away = {o is Outcome.EVADED for o in r.outcome[2:]}
        assert len(away) == 1, "a side evading as a whole gets away together or not at all"
        got_away.append(Outcome.EVADED if away.pop() else Outcome.FOUGHT)
    return got_away


def share(items: list[Outcome], what: Outcome) -> float:
    return sum(1 for x in items if x is what) / len(items)


def test_rule_7_4_ships_with_evade_orders_attempt_to_evade() -> None:
    """7.4: "At the start of battle, unless the battle takes place in a harbor,
    each ship or transport group may attempt to evade the battle, and will do
    so if its combat orders are Evade." Ships with other orders do not."""
    b = battle(bship("a", 0, stance=ENGAGE), bship("b", 0), bship("c", 1), bship("d", 1, stance=EVADE))
    r = fight(b, RULES, Rng(1))
    assert r.outcome[3] is Outcome.EVADED  # two warships stay on its side against one: covered
    assert r.outcome[1] is not Outcome.EVADED and r.outcome[2] is not Outcome.EVADED


def test_rule_7_4_all_ships_on_both_sides_evade_no_ship_moves() -> None:
    """7.4: "If all ships on both sides attempt to evade the battle, then no
    ship moves and the battle is over." """
    w = world(ship("BR1SL"), ship("FR1SL"))
    orders = {s: order(s, stance=EVADE) for s in ("BR1SL", "FR1SL")}
    ts = run_phase(w, orders)
    assert not ts.events
    assert ts.world.ships == w.ships


def test_rule_7_4_whole_side_from_leeward_very_likely_escapes() -> None:
    """7.4: "If all ships on one side, but not all ships on the other, attempt
    to evade the battle, then the side that is entirely fleeing has a chance to
    escape. Either all ships will escape or none will. ... if the ships are to
    leeward then escape is very likely" (80%)."""
    assert abs(share(evading_side(windward=0), Outcome.EVADED) - 0.8) < tolerance(0.8, N)


def test_rule_7_4_whole_side_from_windward_escape_very_unlikely() -> None:
    """7.4: "If the ships are to windward, then escape is very unlikely" (20%)."""
    assert abs(share(evading_side(windward=1), Outcome.EVADED) - 0.2) < tolerance(0.2, N)


def test_rule_7_4_leeward_escape_unlikely_in_coastal_waters_with_onshore_winds() -> None:
    """7.4: "unless the battle is in coastal waters of a port and the winds are
    onshore, in which case escape is unlikely" (20%)."""
    got = evading_side(windward=0, where=Where.COASTAL, onshore=True)
    assert abs(share(got, Outcome.EVADED) - 0.2) < tolerance(0.2, N)


def test_mechanics_evasion_depends_on_quality_and_wind() -> None:
    """Mechanics: "It also depends on ship quality and on winds (evasion is
    more likely in light winds)." """
    light = prepare(battle(bship("a", 0), bship("b", 1), wind=WindStrength.LIGHT), RULES)
    heavy = prepare(battle(bship("a", 0), bship("b", 1), wind=WindStrength.HEAVY), RULES)
    assert evasion_chance(light, 1, 0, 0) == 90 and evasion_chance(heavy, 1, 0, 0) == 70
    assert evasion_chance(light, 1, 0, Quality.EXCELLENT) == 105
    assert evasion_chance(heavy, 0, 0, Quality.VERY_POOR) == 20 - 10 - 15
    got = evading_side(windward=0, wind=WindStrength.HEAVY)
    assert abs(share(got, Outcome.EVADED) - 0.7) < tolerance(0.7, N)


def test_rule_7_4_individual_evaders_on_the_other_side_always_succeed() -> None:
    """7.4: "Individual ships evading battle on the side that is not entirely
    evading battle will always succeed in evading in this case." """
    b = battle(
        bship("a1", 0, stance=ENGAGE),
        bship("a2", 0, stance=EVADE),
        bship("b1", 1, stance=EVADE),
        windward=1,  # side 1 evading from windward: mostly fails
    )
    for r in fights(b, 200):
        assert r.outcome[1] is Outcome.EVADED


def test_rule_7_4_evaders_covered_by_half_the_enemy_succeed() -> None:
    """7.4: "the evading ships will succeed as long as the number of warships
    on their side that are not evading is at least half the number of enemy
    warships that are not evading." Two staying against four: covered."""
    b = battle(
        *(bship(f"a{k}", 0, stance=ENGAGE) for k in range(4)),
        bship("b1", 1),
        bship("b2", 1),
        bship("b3", 1, stance=EVADE),
        windward=1,
    )
    for r in fights(b, 200):
        assert r.outcome[6] is Outcome.EVADED


def test_rule_7_4_outnumbered_evaders_roll_one_by_one() -> None:
    """7.4: "Otherwise each ship makes a separate attempt to escape using the
    same chances ... The ships that are not evading will engage in battle,
    along with any ships which fail to escape." One staying against five;
    two evaders from leeward at 80% each, independently."""
    b = battle(
        *(bship(f"a{k}", 0, stance=ENGAGE) for k in range(5)),
        bship("b1", 1),
        bship("b2", 1, stance=EVADE),
        bship("b3", 1, stance=EVADE),
        windward=0,
    )
    results = fights(b, N)
    both = [r.outcome[6] is Outcome.EVADED and r.outcome[7] is Outcome.EVADED for r in results]
    each = [r.outcome[6] is Outcome.EVADED for r in results]
    assert abs(sum(each) / N - 0.8) < tolerance(0.8, N)
    assert abs(sum(both) / N - 0.64) < tolerance(0.64, N)  # independent rolls
    for r in results:
        if r.outcome[6] is not Outcome.EVADED:
            assert r.outcome[6] is not Outcome.IDLE  # failed: fights


def test_rule_7_4_no_evasion_in_a_harbor() -> None:
    """7.4: "If the battle is fought in a harbor, then evading the battle is
    impossible." """
    b = battle(bship("a", 0, stance=ENGAGE), bship("b", 1, stance=EVADE), where=Where.HARBOR)
    for r in fights(b, 100):
        assert r.outcome[1] is not Outcome.EVADED and r.fought


def test_rule_7_4_transports_unharmed_with_double_the_enemy_warships() -> None:
    """7.4: "Transports that do not evade battle will not be damaged if their
    side has at least double the number of warships in the battle that the
    opposing side has." """
    escorted = battle(
        bship("a", 0, stance=ENGAGE), bship("b1", 1), bship("b2", 1), bship("tr", 1, ShipType.TR, crew=500)
    )
    for r in fights(escorted, 300):
        assert (r.hull[3], r.rigging[3], r.crew_lost[3]) == (0, 0, 0)
    thin = battle(
        bship("a", 0, stance=ENGAGE, quality=Quality.EXCELLENT, experience=36),
        bship("b1", 1),
        bship("tr", 1, ShipType.TR, crew=500),
    )
    assert any(r.hull[2] or r.rigging[2] for r in fights(thin, 300))


def test_mechanics_frigates_shelter_among_their_ships_of_the_line() -> None:
    """Mechanics: "In a battle between frigates, if only one side has SOLs
    present, the frigates of that side can take shelter among their SOLs,
    neither fighting nor leaving the area." """
    b = battle(
        bship("sl", 0),
        bship("fr0", 0, ShipType.FR, stance=EVADE),
        bship("fr1", 1, ShipType.FR, stance=ENGAGE),
        bship("fr2", 1, ShipType.FR, stance=ENGAGE),
    )
    for r in fights(b, 200):
        assert r.outcome[1] is Outcome.IDLE  # stays, takes no part
    w = world(ship("BR1SL"), ship("BR1FR"), ship("FR1FR"), ship("FR2FR"))
    ts = run_phase(w, {"BR1FR": order("BR1FR", stance=EVADE), "FR1FR": order("FR1FR", stance=ENGAGE)})
    assert ts.world.ships["BR1FR"].location == w.ships["BR1FR"].location


def test_mechanics_transports_of_a_much_smaller_frigate_side_cannot_evade() -> None:
    """Mechanics: "In a battle between frigates with transports present, if one
    side has more than twice as many frigates as the other, the transports on
    the smaller side cannot evade at all." """
    b = battle(
        *(bship(f"a{k}", 0, ShipType.FR, stance=ENGAGE) for k in range(3)),
        bship("b", 1, ShipType.FR),
        bship("tr", 1, ShipType.TR, crew=500, stance=EVADE),
        windward=0,
    )
    for r in fights(b, 200):
        assert r.outcome[4] is not Outcome.EVADED and r.outcome[4] is not Outcome.IDLE
    even = battle(
        *(bship(f"a{k}", 0, ShipType.FR, stance=ENGAGE) for k in range(2)),
        bship("b", 1, ShipType.FR),
        bship("tr", 1, ShipType.TR, crew=500, stance=EVADE),
        windward=0,
    )
    assert all(r.outcome[3] is Outcome.EVADED for r in fights(even, 50))  # 1 of 2: covered


def test_rule_7_4_ships_where_an_evader_went_see_her_come() -> None:
    """7.4 with 5.1 ("in the same tactical location of the same sea area" is contact): a
    French ship evading a battle in tactical area 1 of the English Channel goes to another
    tactical area, each of which holds a British ship.  That ship sees her come: it
    witnesses the evasion, and its player reads where she went, not "out of sight"."""
    watchers = {f"BR{n}FR": AtSea("ECH", n) for n in (2, 3, 4)}
    laid_up = [ship(f"BR{n}SL", AtSea("ECH", n - 4), active=False) for n in (6, 7, 8)]  # off the map (2.6)
    w = world(
        ship("BR1SL"), ship("BR5SL"), ship("FR1SL"), *(ship(s, loc) for s, loc in watchers.items()), *laid_up
    )
    orders = {"FR1SL": order("FR1SL", stance=EVADE), "BR1SL": order("BR1SL", stance=ENGAGE)}
    seen = 0
    for seed in range(40):
        ts = run_phase(w, orders, seed=seed)
        ev = next((e for e in ts.events if e.kind == "evaded" and e.ships == ("FR1SL",)), None)
        if ev is None:
            continue
        went = ts.world.ships["FR1SL"].location
        (there,) = [s for s, loc in watchers.items() if loc == went]
        assert there in ev.witnesses and ev.data["seen_there"] == [there]
        _, _, data = judge(ev, Judge(own=frozenset({there}), friends=frozenset({"BR"})))
        assert data == {"to": ev.data["to"], "seen_arriving": True}
        _, _, far = judge(ev, Judge(own=frozenset({"BR1SL"}), friends=frozenset({"BR"})))
        assert far == {"to": "ECH"}  # the battle's own witnesses: out of sight, as before
        seen += 1
    assert seen >= 5
