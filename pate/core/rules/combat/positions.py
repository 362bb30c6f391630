"""Battle positions: range or close quarters (7.5) and breaking the line (7.6)."""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.combat.model import LineResult, Where
from pate.core.rules.combat.prepare import Columns, Prepared


def _mean_quality(p: Prepared, idx: list[int]) -> float:
    return sum(p.quality[i] for i in idx) / len(idx) if idx else 0.0


def set_ranges(
    p: Prepared, cols: Columns, fighters: tuple[list[int], list[int]], windward: int, rng: Rng
) -> None:
    """Mark which fighters are at close quarters (rule 7.5, mechanics page)."""
    close = cols.close
    battery_side = p.battle.battery.side if p.battle.battery else None
    if battery_side is not None and not any(p.warship[i] for i in fighters[battery_side]):
        return  # 7.5: against shore batteries alone, the other side fights at range
    if p.battle.where is Where.HARBOR:
        for side in fighters:
            for i in side:
                close[i] = True  # mechanics: harbor battles are always at close quarters
        return
    want = [[i for i in side if p.wants_close[i]] for side in fighters]
    n_want = (len(want[0]), len(want[1]))
    if n_want == (0, 0):
        return
    big = 0 if n_want[0] >= n_want[1] else 1
    small = 1 - big
    if n_want[small] and 2 * n_want[small] >= n_want[big]:
        _close(close, want[0], want[1])  # both sides close where they wished (7.5)
        return
    if n_want == (len(fighters[0]), len(fighters[1])):
        _close(close, want[0], want[1])  # everyone wants close quarters
        return
    if rng.chance(closing_chance(p, want[big], fighters[small], big == windward)):
        _close(close, want[big], fighters[small])
    elif n_want[small]:
        _close(close, want[0], want[1])


def closing_chance(p: Prepared, closers: list[int], enemy: list[int], windward: bool) -> float:
    """High with the windward gauge, low from leeward, plus the closers'
    quality advantage (mechanics "Determining battle positions")."""
    c = p.rules.closing
    pct = c.windward_pct if windward else c.leeward_pct
    return pct + c.quality_pct_per_point * (_mean_quality(p, closers) - _mean_quality(p, enemy))


def _close(close: list[bool], *groups: list[int]) -> None:
    for group in groups:
        for i in group:
            close[i] = True


def break_line(
    p: Prepared, cols: Columns, fighters: tuple[list[int], list[int]], rng: Rng
) -> tuple[tuple[LineResult, LineResult], set[int]]:
    """Rule 7.6 read with the mechanics page (README item 2): only with at
    least three ships at close quarters on each side; every ship breaking is
    a general melee; otherwise each side with three or more breakers risks
    losing coordination (30% - 10% per quality point) and then breaks through
    (60% + 12.5% per point).  Returns each side's result and the breakers."""
    lr = p.rules.line
    at_close = [[i for i in side if cols.close[i] and p.warship[i]] for side in fighters]
    none = (LineResult.NONE, LineResult.NONE)
    if len(at_close[0]) < lr.min_ships or len(at_close[1]) < lr.min_ships:
        return none, set()
    breakers = [[i for i in side if p.breaks[i]] for side in at_close]
    if len(breakers[0]) == len(at_close[0]) and len(breakers[1]) == len(at_close[1]):
        return (LineResult.MELEE, LineResult.MELEE), set()
    results = [LineResult.NONE, LineResult.NONE]
    trying: set[int] = set()
    for side in (0, 1):
        if len(breakers[side]) < lr.min_ships:
            continue
        trying.update(breakers[side])
        edge = _mean_quality(p, breakers[side]) - _mean_quality(p, at_close[1 - side])
        if rng.chance(lr.lose_coordination_pct + lr.lose_coordination_per_quality * edge):
            results[side] = LineResult.LOST_COORDINATION
        elif rng.chance(lr.break_through_pct + lr.break_through_per_quality * edge):
            results[side] = LineResult.BROKE_THROUGH
        else:
            results[side] = LineResult.HELD
    return (results[0], results[1]), trying
