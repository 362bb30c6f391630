"""Rules 7.2 and 7.6 with the mechanics page on breaking the line (README item 2).

Reconciled: each side needs three ships at close quarters; every ship on both
sides breaking is a general melee with no adjustment; otherwise each side
with three or more breakers loses coordination with 30% - 10% per point of
quality advantage (-25%), else breaks through with 60% + 12.5% per point
(+33%), else nothing changes.
"""

from __future__ import annotations

from pate.core.orders.model import CombatStance, Line, Range
from pate.core.rules.combat import LineResult, Where, ship_strength
from pate.core.rules.combat.outcome import Pursuit, capture_chance
from pate.core.world.ships import Quality
from tests.unit.combat.combat_world import RULES, battle, bship, fights, tolerance

ENGAGE = CombatStance.ENGAGE
BREAK, AHEAD = Line.BREAK, Line.LINE_AHEAD
N = 2000


def harbor(a: list[Line], b: list[Line], qa: Quality = Quality.AVERAGE) -> object:
    """A harbor battle (always close quarters, so every ship is at close)."""
    ships = [bship(f"a{k}", 0, stance=ENGAGE, line=x, quality=qa) for k, x in enumerate(a)]
    ships += [bship(f"b{k}", 1, line=x) for k, x in enumerate(b)]
    return battle(*ships, where=Where.HARBOR, windward=0)


def lines(b: object, n: int = N) -> list[tuple[LineResult, LineResult]]:
    return [r.engagements[0].line for r in fights(b, n)]  # type: ignore[arg-type]


def test_mechanics_three_ships_at_close_quarters_on_each_side() -> None:
    """Mechanics: ships "may do so as long as each side has at least three
    ships at close quarters"."""
    for got in lines(harbor([BREAK] * 3, [AHEAD] * 2), 100):
        assert got == (LineResult.NONE, LineResult.NONE)


def test_rule_7_6_both_line_ahead_no_adjustment() -> None:
    """7.6: "If both sides maintain line ahead, or both sides break line, then
    they succeed it doing so." No adjustment either way."""
    for got in lines(harbor([AHEAD] * 3, [AHEAD] * 3), 100):
        assert got == (LineResult.NONE, LineResult.NONE)


def test_mechanics_all_break_is_a_general_melee() -> None:
    """Mechanics: "If all ships on both sides are trying to break the line,
    then the battle becomes a general melee and no adjustments occur." """
    b = harbor([BREAK] * 3, [BREAK] * 4)
    for r in fights(b, 100):  # type: ignore[arg-type]
        assert r.engagements[0].line == (LineResult.MELEE, LineResult.MELEE)
        # no weather gauge in a harbor (docs/rules/combat.md)
        assert r.strength[0] == ship_strength(RULES, b.ships[0], close=True)  # type: ignore[attr-defined]


def test_rule_7_6_breaking_equal_fleets_three_outcomes() -> None:
    """7.6: "The chance of losing coordination is 30%, minus 10% for every
    point of quality advantage ... The chance of breaking through is 60%, plus
    12.5% for each point of quality difference. If the breaking fleet maintains
    coordination but fails to break through ... no penalty or bonus".
    Equal quality: 30% lost, 70% x 60% = 42% through, 28% held."""
    got = [a for a, _ in lines(harbor([BREAK] * 3, [AHEAD] * 3))]
    for result, p in (
        (LineResult.LOST_COORDINATION, 0.3),
        (LineResult.BROKE_THROUGH, 0.42),
        (LineResult.HELD, 0.28),
    ):
        assert abs(got.count(result) / N - p) < tolerance(p, N)


def test_rule_7_6_quality_advantage_helps_the_breakers() -> None:
    """7.6: one point of quality advantage: 20% lost; 80% x 72.5% = 58% through."""
    got = [a for a, _ in lines(harbor([BREAK] * 3, [AHEAD] * 3, qa=Quality.GOOD))]
    assert abs(got.count(LineResult.LOST_COORDINATION) / N - 0.2) < tolerance(0.2, N)
    assert abs(got.count(LineResult.BROKE_THROUGH) / N - 0.58) < tolerance(0.58, N)


def test_rule_7_6_strength_of_the_breakers_only() -> None:
    """7.6: lost coordination "-25% strength penalty"; broke through "+33%";
    mechanics: "the combat power of the ships breaking the enemy line" only."""
    b = harbor([BREAK, BREAK, BREAK, AHEAD], [AHEAD] * 3)
    plain = ship_strength(RULES, b.ships[0], close=True)  # type: ignore[attr-defined]
    seen = set()
    for r in fights(b, 300):  # type: ignore[arg-type]
        result = r.engagements[0].line[0]
        seen.add(result)
        factor = {LineResult.BROKE_THROUGH: 1.33, LineResult.LOST_COORDINATION: 0.75}.get(result, 1.0)
        assert abs(r.strength[0] - plain * factor) < 1e-9
        assert abs(r.strength[3] - plain) < 1e-9  # in line ahead: unaffected
    assert seen == {LineResult.BROKE_THROUGH, LineResult.LOST_COORDINATION, LineResult.HELD}


def test_mechanics_each_side_with_three_breakers_gets_a_chance() -> None:
    """Mechanics: "If not, then each side that has at least three ships trying
    to break the line gets a chance to do so." Both sides try, one ship holds."""
    got = lines(harbor([BREAK] * 3, [BREAK] * 3 + [AHEAD]), 500)
    assert all(a is not LineResult.NONE and b is not LineResult.NONE for a, b in got)
    assert len({a for a, _ in got}) == 3 and len({b for _, b in got}) == 3


def test_rule_7_6_only_ships_that_closed_quarters_break() -> None:
    """7.6: "If ships have successfully closed quarters, then the ships at close
    quarters must decide"; at range nobody breaks."""
    b = battle(
        *(bship(f"a{k}", 0, stance=ENGAGE, line=BREAK, range=Range.RANGE) for k in range(3)),
        *(bship(f"b{k}", 1) for k in range(3)),
    )
    for got in lines(b, 50):
        assert got == (LineResult.NONE, LineResult.NONE)


def test_rule_7_2_breaking_the_line_makes_prizes_likelier() -> None:
    """7.2: "Breaking the enemy's line leads to a more decisive battle and
    increases the odds that the victor will capture the loser's ships as
    prizes." """
    c = RULES.capture
    held = Pursuit(enemy_rigging=0.0, line_broken=False, aimed_rigging=0.0, embayed=False)
    broke = Pursuit(enemy_rigging=0.0, line_broken=True, aimed_rigging=0.0, embayed=False)
    kw = {"close": True, "hull": 1, "rigging": 1, "run_past": False}
    assert capture_chance(c, broke, **kw) > capture_chance(c, held, **kw)  # type: ignore[arg-type]

    def prizes(line: Line) -> float:
        ships = [bship(f"a{k}", 0, stance=ENGAGE, line=line, range=Range.CLOSE) for k in range(5)]
        ships += [bship(f"b{k}", 1, range=Range.CLOSE, quality=Quality.POOR) for k in range(5)]
        runs = fights(battle(*ships, windward=0), 600)
        return sum(o.value == "captured" for r in runs for o in r.outcome) / len(runs)

    assert prizes(BREAK) > prizes(AHEAD) + 0.3
