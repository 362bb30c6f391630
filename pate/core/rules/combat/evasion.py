"""Joining battle and evasion (rule 7.4, mechanics "Joining battle")."""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.combat.model import Outcome, Where
from pate.core.rules.combat.prepare import Columns, Prepared


def evasion_chance(p: Prepared, side: int, windward: int, quality: float) -> float:
    """Chance in percent that evaders escape the battle (7.4): very unlikely
    from windward, very likely from leeward unless embayed in coastal waters
    with onshore winds; better ships and lighter winds help."""
    ev = p.rules.evasion
    b = p.battle
    if side == windward:
        pct = ev.windward_pct
    elif b.where is Where.COASTAL and b.onshore:
        pct = ev.onshore_coastal_pct
    else:
        pct = ev.leeward_pct
    return pct + ev.quality_pct_per_point * quality + ev.wind_pct[b.wind]


def _mean_quality(p: Prepared, idx: list[int]) -> float:
    return sum(p.quality[i] for i in idx) / len(idx) if idx else 0.0


def _cannot_evade(p: Prepared, tier: str, idx: tuple[int, ...]) -> set[int]:
    """Mechanics, special cases: no evasion in a harbor; in a battle between
    frigates, transports on a side with less than half the enemy's frigates
    cannot evade."""
    if p.battle.where is Where.HARBOR:
        return set(idx)
    if any(p.of_line[i] for i in idx):
        return set()
    frigates = [0, 0]
    for i in idx:
        if p.warship[i]:
            frigates[p.side[i]] += 1
    stuck: set[int] = set()
    for side in (0, 1):
        if frigates[1 - side] > 2 * frigates[side]:
            stuck.update(i for i in idx if p.side[i] == side and not p.warship[i])
    return stuck


def _sheltered(p: Prepared, tier: str, idx: tuple[int, ...]) -> set[int]:
    """Mechanics, special case: in a battle between frigates, if only one
    side has ships of the line present, its frigates may take shelter among
    them, neither fighting nor leaving."""
    if tier != "frigates":
        return set()
    line_side = [False, False]
    for i, side in enumerate(p.side):
        if p.of_line[i]:
            line_side[side] = True
    if line_side[0] == line_side[1]:
        return set()
    safe = 0 if line_side[0] else 1
    return {i for i in idx if p.side[i] == safe and p.warship[i] and p.evades[i]}


def evade(
    p: Prepared, cols: Columns, tier: str, idx: tuple[int, ...], *, windward: int, rng: Rng
) -> tuple[list[int], list[int], int | None]:
    """Settle evasion; return the fighters of each side and the side that got
    away as a group, if any.  Evaders that get away are marked EVADED."""
    stuck = _cannot_evade(p, tier, idx)
    shelter = _sheltered(p, tier, idx)
    fighters: list[list[int]] = [[], []]
    evaders: list[list[int]] = [[], []]
    for i in idx:
        if i in shelter:
            continue  # stays IDLE: sheltering among its ships of the line
        if p.evades[i] and i not in stuck:
            evaders[p.side[i]].append(i)
        else:
            fighters[p.side[i]].append(i)
    for side in (0, 1):
        if not fighters[side] and evaders[side] and fighters[1 - side]:
            return _group_evasion(
                p, cols, side, fighters=fighters, evaders=evaders, windward=windward, rng=rng
            )
    for side in (0, 1):
        _individual_evasion(
            p, cols, side, fighters=fighters, evaders=evaders[side], windward=windward, rng=rng
        )
    return fighters[0], fighters[1], None


def _group_evasion(
    p: Prepared,
    cols: Columns,
    side: int,
    *,
    fighters: list[list[int]],
    evaders: list[list[int]],
    windward: int,
    rng: Rng,
) -> tuple[list[int], list[int], int | None]:
    """Rule 7.4: a side entirely evading gets away all together or not at
    all; evaders on the other side always get away."""
    for i in evaders[1 - side]:
        cols.outcome[i] = Outcome.EVADED
    chance = evasion_chance(p, side, windward, _mean_quality(p, evaders[side]))
    if rng.chance(chance):
        for i in evaders[side]:
            cols.outcome[i] = Outcome.EVADED
        return [], [], side
    fighters[side] = list(evaders[side])
    return fighters[0], fighters[1], None


def _individual_evasion(
    p: Prepared,
    cols: Columns,
    side: int,
    *,
    fighters: list[list[int]],
    evaders: list[int],
    windward: int,
    rng: Rng,
) -> None:
    """Rule 7.4: evaders get away if the warships of their side that stay are
    at least half the enemy's that stay; otherwise each rolls alone."""
    if not evaders:
        return
    ours = sum(1 for i in fighters[side] if p.warship[i])
    theirs = sum(1 for i in fighters[1 - side] if p.warship[i])
    covered = 2 * ours >= theirs
    for i in evaders:
        if covered or rng.chance(evasion_chance(p, side, windward, p.quality[i])):
            cols.outcome[i] = Outcome.EVADED
        else:
            fighters[side].append(i)
    fighters[side].sort()
