"""Battle outcomes (mechanics "Battle outcomes", rules 7.2, 7.3, 7.7, 7.8).

The stronger side is likelier to win but not certain: each side's strength
is multiplied by a log-normal fortune of war and the larger product wins.
Each side's fire (its strength times that fortune, more at close quarters)
is spread over the enemy's ships by their toughness, heavier on ships at
close quarters; a ship's share is scattered by an exponential draw so that
some ships are battered and others barely touched.  The beaten side's
ships then try to get away; those that fail are prizes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pate.core.rng import Rng
from pate.core.rules.combat.evasion import evasion_chance
from pate.core.rules.combat.harbor import grounded_strength
from pate.core.rules.combat.model import LineResult, Outcome, Where
from pate.core.rules.combat.params import CaptureRules, OutcomeRules
from pate.core.rules.combat.prepare import Columns, Prepared


def strengths(
    p: Prepared,
    cols: Columns,
    fighters: tuple[list[int], list[int]],
    *,
    windward: int,
    lines: tuple[LineResult, LineResult],
    breakers: set[int],
) -> list[float]:
    """Each fighter's final strength (rule 7.7) and each side's total."""
    s = p.rules.strength
    up = 1.0 + s.windward_pct / 100.0
    closed = 1.0 + s.closing_pct / 100.0
    line_f = {
        LineResult.BROKE_THROUGH: 1.0 + s.break_success_pct / 100.0,
        LineResult.LOST_COORDINATION: 1.0 + s.break_failure_pct / 100.0,
    }
    harbor = p.battle.where is Where.HARBOR
    grounded = cols.grounded
    aground = grounded_strength(p)
    totals = [0.0, 0.0]
    for side in (0, 1):
        gauge = up if side == windward and not harbor else 1.0  # 7.7; no gauge in a harbor
        lf = line_f.get(lines[side], 1.0)
        total = 0.0
        for i in fighters[side]:
            if cols.close[i]:
                v = p.at_close[i] * gauge
                if p.wants_close[i] and not harbor:
                    v *= closed  # 7.5: a ship that closed engaged bows-on first
            else:
                v = p.at_range[i] * gauge
            if i in breakers:
                v *= lf
            if grounded[i]:
                v *= aground  # decision 17: part of her broadside bears
            cols.strength[i] = v
            total += v
        totals[side] = total
    battery = p.battle.battery
    if battery is not None and p.battery > 0:
        totals[battery.side] += p.battery
    return totals


def decide(p: Prepared, totals: list[float], rng: Rng) -> tuple[int | None, float, float]:
    """The winner and each side's fortune of war."""
    if totals[0] <= 0 and totals[1] <= 0:
        return None, 1.0, 1.0
    sigma = p.rules.outcome.luck_sigma
    # Box-Muller: two independent standard normals from two uniforms.
    radius = math.sqrt(-2.0 * math.log(1.0 - rng.random()))
    angle = 2.0 * math.pi * rng.random()
    luck0 = math.exp(sigma * radius * math.cos(angle))
    luck1 = math.exp(sigma * radius * math.sin(angle))
    winner = 0 if totals[0] * luck0 >= totals[1] * luck1 else 1
    return winner, luck0, luck1


def _fire(p: Prepared, cols: Columns, side: list[int], has_battery: bool) -> tuple[float, float, float]:
    """A side's fire before fortune, the share of it on hulls, and the share
    aimed at rigging (7.3)."""
    o = p.rules.outcome
    fire = hull = rigging = 0.0
    for i in side:
        f = cols.strength[i] * (o.fire_close if cols.close[i] else o.fire_range)
        fire += f
        if p.aims_rigging[i]:
            hull += f * o.hull_share_aim_rigging
            rigging += f
        else:
            hull += f * o.hull_share_aim_hull
    if has_battery:
        any_close = any(cols.close[i] for i in side)
        f = p.battery * (o.fire_close if any_close else o.fire_range)
        fire += f
        hull += f * o.battery_hull_share
        rigging += f * (1.0 - o.battery_hull_share)
    if fire <= 0:
        return 0.0, 0.0, 0.0
    return fire, hull / fire, rigging / fire


def damage(
    p: Prepared,
    cols: Columns,
    fighters: tuple[list[int], list[int]],
    *,
    winner: int | None,
    luck: tuple[float, float],
    rng: Rng,
) -> float:
    """Hull and rigging damage and crew lost on both sides; returns the share
    of the winner's fire aimed at rigging."""
    o = p.rules.outcome
    battery_side = p.battle.battery.side if p.battle.battery else None
    rigging_share = 0.0
    fires = [_fire(p, cols, fighters[side], battery_side == side) for side in (0, 1)]
    for side in (0, 1):
        fire, hull_share, aimed_rigging = fires[side]
        fire *= _odds(fires[side][0] * luck[side], fires[1 - side][0] * luck[1 - side], o)
        if side == winner:
            fire *= o.winner_fire_factor
            rigging_share = aimed_rigging
        elif winner is not None:
            fire *= o.loser_fire_factor
        targets = fighters[1 - side]
        safe = _transports_safe(p, targets, fighters[side])
        weights = 0.0
        exposed = p.rules.harbor.grounded_target_factor
        for i in targets:
            if p.warship[i] or not safe:
                w = p.toughness[i] * (o.close_target_factor if cols.close[i] else 1.0)
                weights += w * exposed if cols.grounded[i] else w
        if fire <= 0 or weights <= 0:
            continue
        per_weight = fire * luck[side] / weights
        _scatter(p, cols, targets, safe, per_weight, hull_share, rng)
    return rigging_share


_U21 = 1.0 / (1 << 21)
_PCT32 = 100.0 / (1 << 32)
_M21 = (1 << 21) - 1


def _scatter(
    p: Prepared, cols: Columns, targets: list[int], safe: bool, per_weight: float, hull_share: float, rng: Rng
) -> None:
    """Each target's share of the fire, scattered by a Gamma(2) draw of mean 1
    (some ships battered, most not), split into hull and rigging points by
    stochastic rounding; crew and Marines lost per point (7.5, mechanics).
    One 64-bit draw gives the three uniforms a ship needs (21 bits each)."""
    o = p.rules.outcome
    ships = p.battle.ships
    close_factor = o.close_target_factor
    exposed = p.rules.harbor.grounded_target_factor
    per_hull, per_rigging = o.crew_loss_per_hull, o.crew_loss_per_rigging
    close, warship, hull, rigging = cols.close, p.warship, cols.hull, cols.rigging
    grounded = cols.grounded
    for i in targets:
        if safe and not warship[i]:
            continue  # 7.4: transports with twice the enemy's warships are spared
        lam = per_weight * close_factor if close[i] else per_weight
        if grounded[i]:
            lam *= exposed  # decision 17: the batteries concentrate on a ship aground
        x = rng.next_u64()
        u1 = ((x >> 43) + 0.5) * _U21
        u2 = (((x >> 22) & _M21) + 0.5) * _U21
        u3 = ((x >> 1) & _M21) * _U21
        hit = lam * -0.5 * math.log(u1 * u2)
        hull_pts = int(hit * hull_share + u3)
        rig_pts = int(hit * (1.0 - hull_share) + 1.0 - u3)
        if hull_pts or rig_pts:
            h = hull[i] + hull_pts
            hull[i] = h if h < 5 else 5
            r = rigging[i] + rig_pts
            rigging[i] = r if r < 5 else 5
            pct = min(100.0, hull_pts * per_hull + rig_pts * per_rigging)
            cols.crew_lost[i] = int(ships[i].crew * pct) // 100
            cols.marines_lost[i] = int(ships[i].marines * pct) // 100


def _odds(ours: float, theirs: float, o: OutcomeRules) -> float:
    """Mechanics: damage depends on the strength of both sides.  A side's fire
    is scaled by (its fire / the enemy's) ** odds_exponent, so a lopsided
    battle wrecks the weak side and spares the strong one."""
    if o.odds_exponent == 0 or ours <= 0:
        return 1.0
    if theirs <= 0:
        return math.pow(o.odds_cap, o.odds_exponent)
    ratio = min(o.odds_cap, max(1.0 / o.odds_cap, ours / theirs))
    return math.pow(ratio, o.odds_exponent)


def _transports_safe(p: Prepared, ours: list[int], theirs: list[int]) -> bool:
    mine = sum(1 for i in ours if p.warship[i])
    enemy = sum(1 for i in theirs if p.warship[i])
    return mine >= p.rules.outcome.transport_safe_ratio * enemy and mine > 0


def settle(
    p: Prepared,
    cols: Columns,
    fighters: tuple[list[int], list[int]],
    *,
    winner: int | None,
    lines: tuple[LineResult, LineResult],
    rigging_share: float,
    rng: Rng,
    evaded: int = 0,
    windward: int = 0,
) -> None:
    """Sinking (2.2), then the beaten side's escape or capture (7.8).
    ``evaded``: the beaten side's warships that evaded this fight (7.4)."""
    for side in fighters:
        for i in side:
            cols.outcome[i] = Outcome.SUNK if cols.hull[i] >= 5 else Outcome.FOUGHT
    if winner is None:
        return
    captors = [i for i in fighters[winner] if p.warship[i] and cols.outcome[i] is Outcome.FOUGHT]
    losers = [i for i in fighters[1 - winner] if cols.outcome[i] is Outcome.FOUGHT]
    if not captors:
        for i in losers:
            cols.outcome[i] = Outcome.ESCAPED
        return
    c = p.rules.capture
    chase = Pursuit(
        enemy_rigging=sum(cols.rigging[i] for i in captors) / len(captors),
        line_broken=lines[winner] in (LineResult.BROKE_THROUGH, LineResult.MELEE),
        aimed_rigging=rigging_share,
        embayed=p.battle.where is Where.COASTAL and p.battle.onshore,
        cover=cover_share(p, cols, captors, losers, evaded=evaded, windward=windward),
    )
    for i in losers:
        pct = capture_chance(
            c,
            chase,
            close=cols.close[i],
            hull=cols.hull[i],
            rigging=cols.rigging[i],
            run_past=p.run_past[i],
            armed=p.warship[i],
        )
        if cols.grounded[i]:
            pct = c.max_pct  # decision 17: aground under the guns, she cannot get off
        x = rng.next_u64()  # one draw: the top half decides, the bottom half picks the captor
        if (x >> 32) * _PCT32 < pct:
            cols.outcome[i] = Outcome.CAPTURED
            cols.captor[i] = captors[(x & 0xFFFFFFFF) % len(captors)]
        else:
            cols.outcome[i] = Outcome.ESCAPED


def cover_share(
    p: Prepared, cols: Columns, captors: list[int], losers: list[int], *, evaded: int, windward: int
) -> float:
    """Breaking off (7.8 read with 7.4; docs/rules/combat.md, decision 10): the
    share of the beaten side's escape that its screen covers.  The victors'
    pursuers are their warships afloat whose rigging still lets them chase;
    the screen is the beaten side's sound warships and, weighted by
    ``evader_cover``, its warships that evaded the fight.  7.4 covers evaders
    when their side's ships are at least half the enemy's: the screen covers
    ``min(1, screen / (cover_ratio x pursuers))`` of the escape, times 7.4's
    chance of getting away (the gauge, a lee shore, quality and the wind;
    none in a harbor)."""
    if not losers or p.battle.where is Where.HARBOR:
        return 0.0
    c = p.rules.capture
    pursuers = sum(1 for i in captors if cols.rigging[i] < c.pursuit_max_rigging)
    limit = c.min_damage_points
    sound = sum(1 for i in losers if p.warship[i] and cols.hull[i] + cols.rigging[i] < limit)
    screen = sound + c.evader_cover * evaded
    if screen <= 0:
        return 0.0
    share = 1.0 if pursuers == 0 else min(1.0, screen / (c.cover_ratio * pursuers))
    side = p.side[losers[0]]
    quality = sum(p.quality[i] for i in losers) / len(losers)
    chance = evasion_chance(p, side, windward, quality)
    return share * min(100.0, max(0.0, chance)) / 100.0


@dataclass(frozen=True, slots=True)
class Pursuit:
    """What the victors bring to the chase of a beaten enemy (7.8)."""

    enemy_rigging: float  # the victors' mean rigging damage
    line_broken: bool  # 7.2: the victors broke the line (or a general melee)
    aimed_rigging: float  # 7.3: share of the victors' fire aimed at rigging
    embayed: bool  # coastal waters with onshore winds
    # 7.4's cover carried over to 7.8's escape: the share (0 to 1) of the
    # beaten side's damaged ships that its screen covers (docs/rules/combat.md)
    cover: float = 0.0


def capture_chance(
    c: CaptureRules,
    chase: Pursuit,
    *,
    close: bool,
    hull: int,
    rigging: int,
    run_past: bool,
    armed: bool = True,
) -> float:
    """Chance in percent that a beaten ship is taken (mechanics "Battle
    outcomes"): its damage, rigging counting more than hull, is the chance;
    the victors' rigging damage, Run Past, close quarters (and 7.2, 7.3, a lee
    shore) scale it.  A ship with less than ``min_damage_points`` of damage is
    never taken: ships do not strike unhurt.  A beaten side that keeps
    enough sound warships covers its damaged ones' escape.  A transport group
    has no guns to fight with (2.1): beaten, it may be taken unhurt, at
    ``unarmed_pct`` more."""
    if armed and hull + rigging < c.min_damage_points:
        return 0.0
    pct = c.per_hull_pct * hull + c.per_rigging_pct * rigging + (0.0 if armed else c.unarmed_pct)
    scale = c.per_enemy_rigging_pct * chase.enemy_rigging + c.aim_rigging_pct * chase.aimed_rigging
    if close:
        scale += c.close_pct
    if chase.line_broken:
        scale += c.line_broken_pct
    if chase.embayed:
        scale += c.onshore_coastal_pct
    if run_past:
        scale += c.run_past_pct
    chance = min(c.max_pct, pct * max(0.0, 1.0 + scale / 100.0))
    # the screen covers its share however battered the ship: towed off if need be
    return chance * max(0.0, 1.0 + c.covered_pct * chase.cover / 100.0)


def experience(
    p: Prepared, cols: Columns, fighters: tuple[list[int], list[int]], totals: list[float]
) -> None:
    """Rule 7.7: 1 to 5 points for every ship engaged, more for even odds."""
    top = max(totals)
    ratio = 100.0 * min(totals) / top if top > 0 else 0.0
    gain = 1 + sum(1 for t in p.rules.experience_thresholds_pct if ratio >= t)
    for side in fighters:
        for i in side:
            if cols.outcome[i] is not Outcome.SUNK and p.warship[i]:
                cols.experience[i] = gain


def battery_damaged(p: Prepared, winner: int | None, rng: Rng) -> bool | None:
    battery = p.battle.battery
    if battery is None:
        return None
    if battery.damaged:
        return True
    lost = winner is not None and winner != battery.side
    r = p.rules
    return rng.chance(r.battery_damaged_on_loss_pct if lost else r.battery_damaged_on_win_pct)
