"""The battle engine: one pure function used by the combat phase and the simulator.

``fight(battle, rules, rng)`` goes through the mechanics page in order:
who fights (tiers), evasion, range, gauge, the line, strength, the winner,
damage, escape or capture, experience.  Dice are drawn in the order of
``battle.ships``; callers sort ships by id first.
"""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.combat import evasion, harbor, outcome, positions
from pate.core.rules.combat.model import Battle, BattleResult, Engagement, LineResult, Outcome
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.combat.prepare import Columns, Prepared, prepare

_NO_LINE = (LineResult.NONE, LineResult.NONE)


def fight(battle: Battle, rules: CombatRules, rng: Rng) -> BattleResult:
    return fight_prepared(prepare(battle, rules), rng)


def fight_prepared(p: Prepared, rng: Rng) -> BattleResult:
    cols = Columns(p.battle)
    windward = p.battle.windward
    if windward is None:
        windward = rng.below(2)  # rule 6.9: both asked for the same gauge: random
    engagements: list[Engagement] = []
    battery_winner: int | None = None
    battery_fought = False
    for tier, idx in p.tiers:
        e = _engage(p, cols, tier, idx, windward=windward, rng=rng)
        engagements.append(e)
        if tier in ("all", "line") and e.fought:
            battery_winner, battery_fought = e.winner, True
    main = next((e for e in engagements if e.fought), None)
    damaged = outcome.battery_damaged(p, battery_winner, rng) if battery_fought else None
    return BattleResult(
        winner=main.winner if main else None,
        outcome=tuple(cols.outcome),
        strength=tuple(cols.strength),
        close=tuple(cols.close),
        hull=tuple(cols.hull),
        rigging=tuple(cols.rigging),
        crew_lost=tuple(cols.crew_lost),
        marines_lost=tuple(cols.marines_lost),
        experience_gained=tuple(cols.experience),
        captor=tuple(cols.captor),
        engagements=tuple(engagements),
        battery_damaged=damaged,
        grounded=tuple(cols.grounded) if any(cols.grounded) else (),
    )


def _engage(
    p: Prepared, cols: Columns, tier: str, idx: tuple[int, ...], *, windward: int, rng: Rng
) -> Engagement:
    sides = {p.side[i] for i in idx}
    quiet = Engagement(tier, False, None, windward, (0.0, 0.0), False, _NO_LINE)
    # Mechanics "Joining battle": no battle unless a ship engages or runs past.
    if len(sides) < 2 or not any(p.brings_battle[i] for i in idx):
        return quiet
    f0, f1, fled = evasion.evade(p, cols, tier, idx, windward=windward, rng=rng)
    if fled is not None or not f0 or not f1:
        return Engagement(tier, False, None, windward, (0.0, 0.0), False, _NO_LINE, fled)
    fighters = (f0, f1)
    harbor.come_in(p, cols, fighters, rng)  # decision 17: under the batteries
    if not f0 or not f1:
        return Engagement(tier, False, None, windward, (0.0, 0.0), False, _NO_LINE)
    positions.set_ranges(p, cols, fighters, windward, rng)
    lines, breakers = positions.break_line(p, cols, fighters, rng)
    totals = outcome.strengths(p, cols, fighters, windward=windward, lines=lines, breakers=breakers)
    winner, luck0, luck1 = outcome.decide(p, totals, rng)
    rigging_share = outcome.damage(p, cols, fighters, winner=winner, luck=(luck0, luck1), rng=rng)
    evaded = 0 if winner is None else _evaded(p, cols, idx, 1 - winner)
    outcome.settle(
        p,
        cols,
        fighters,
        winner=winner,
        lines=lines,
        rigging_share=rigging_share,
        rng=rng,
        evaded=evaded,
        windward=windward,
    )
    outcome.experience(p, cols, fighters, totals)
    close = any(cols.close[i] for i in f0) or any(cols.close[i] for i in f1)
    return Engagement(tier, True, winner, windward, (totals[0], totals[1]), close, lines)


def _evaded(p: Prepared, cols: Columns, idx: tuple[int, ...], side: int) -> int:
    """The warships of ``side`` that evaded this fight (7.4)."""
    return sum(1 for i in idx if p.side[i] == side and p.warship[i] and cols.outcome[i] is Outcome.EVADED)
