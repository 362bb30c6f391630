"""The EiA naval battle engine (rules 12.2.6.1 to 12.2.6.3, 12.2.7, 12.2.6.1.9).

``fight_eia(battle, rules, rng)`` resolves one battle: harbor defences
(port raids), up to three rounds on the tables of the tactical naval chart (or
the fixed tables of blockade battles and port raids), the melee force's
closing roll, victory, the general chase, and the fate of disabled ships.
Dice are drawn in a fixed order (attacker before defender, ships in
``battle.ships`` order), so a battle is a pure function of its inputs.
"""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.eia.model import Chase, EiaBattle, EiaResult, Fate, Kind, NelsonFate, Round
from pate.core.rules.eia.params import ROUNDS, Chit, EiaRules
from pate.core.rules.eia.tables import Fire, fire, modified_roll

HARBOR_ROUND = -1  # disabled_in of ships disabled by harbor defences
CHASE_ROUND = ROUNDS + 1  # disabled_in of ships disabled in the general chase


def die(rng: Rng) -> int:
    return rng.randint(1, 6)


class _Fight:
    """The working state of one battle (one object per battle)."""

    def __init__(self, battle: EiaBattle, rules: EiaRules) -> None:
        self.b = battle
        self.r = rules
        self.att = battle.attacker
        n = len(battle.ships)
        self.disabled_in = [0] * n
        self.lost = [0.0, 0.0]
        self.silenced = [False, False]  # 12.2.6.3.2: a broken defender no longer replies
        hulks_fight = battle.kind is Kind.PORT_RAID
        self.fighter = [s.factor and (hulks_fight or not s.hulk) for s in battle.ships]
        # the ships still fighting, by side, kept up to date as ships are disabled
        self.alive = [
            [i for i, s in enumerate(battle.ships) if s.side == n and self.fighter[i]] for n in (0, 1)
        ]
        self.morale = (self._morale(0), self._morale(1))

    def _morale(self, side: int) -> float | None:
        """12.2.6.1.3.2 with 7.5.2.6.1 method 1: the average of the force's
        nationality morale over its factors; hulks have none (12.2.8.1)."""
        levels = [
            self.r.morale_of(s.state)
            for i, s in enumerate(self.b.ships)
            if s.side == side and self.fighter[i] and not s.hulk
        ]
        return sum(levels) / len(levels) if levels else None

    def active(self, side: int) -> list[int]:
        return self.alive[side]

    def broken(self, side: int) -> bool:
        level = self.morale[side]
        return level is not None and self.lost[side] >= level - 1e-9

    def defeated(self, side: int) -> bool:
        """12.2.6.1.6: all its ships disabled, or its morale loss reached its level."""
        return not self.active(side) or self.broken(side)

    def disable(self, side: int, count: int, round_no: int, rng: Rng) -> int:
        pool = list(self.alive[side])
        hit = 0
        while hit < count and pool:  # a uniform random choice of ``count`` of them
            i = pool.pop(rng.below(len(pool)))
            self.disabled_in[i] = round_no
            hit += 1
        self.alive[side] = pool
        return hit

    def modifier(self, side: int, chit: Chit | None) -> int:
        """Chart notes: nationality (Notes C and D) and numerical superiority,
        at most +/-1 for each side (12.2.6.1.5)."""
        mine, theirs = self.active(side), self.active(1 - side)
        mod = 0
        if chit is not None and mine:
            states = [self.b.ships[i].state for i in mine]
            if chit in self.r.british_chits and _majority(states, self.r.british_states):
                mod += self.r.nationality_bonus
            if chit in self.r.french_chits and _majority(states, self.r.french_states):
                mod += self.r.nationality_bonus
        if mine and theirs:
            big, small = max(len(mine), len(theirs)), min(len(mine), len(theirs))
            x = big // small - 1
            mod += x if len(mine) > len(theirs) else -x if len(mine) < len(theirs) else 0
        return max(-self.r.modifier_cap, min(self.r.modifier_cap, mod))


def _majority(states: list[str], nation: frozenset[str]) -> bool:
    return sum(1 for s in states if s in nation) * 2 > len(states)


def fight_eia(battle: EiaBattle, rules: EiaRules, rng: Rng) -> EiaResult:
    f = _Fight(battle, rules)
    att, dfn = battle.attacker, 1 - battle.attacker
    harbor = _harbor_defenses(f, rng) if battle.kind is Kind.PORT_RAID else None
    melee = _melee_side(battle)
    both_melee = battle.kind is Kind.OPEN_SEA and battle.chits == (Chit.MELEE, Chit.MELEE)
    closed = both_melee
    shift = _closing_shift(battle, rules, melee)
    rounds: list[Round] = []
    if f.active(0) and f.active(1):
        for number in range(1, ROUNDS + 1):
            tables = _tables(battle, rules, number, closed, f)
            dice = (die(rng), die(rng)) if att == 0 else _swap((die(rng), die(rng)))
            chits = battle.chits if battle.kind is Kind.OPEN_SEA else (None, None)
            mods = (f.modifier(0, chits[0]), f.modifier(1, chits[1]))
            fires = [_fire(f, tables[s], dice[s], mods[s], s) for s in (0, 1)]
            hits = [0, 0]
            for s in (att, dfn):  # simultaneous fire: counts taken before anyone is disabled
                shot = fires[s]
                if shot is not None:
                    hits[s] = min(shot.disabled, len(f.active(1 - s)))
            for s in (att, dfn):
                shot = fires[s]
                if shot is not None:
                    f.disable(1 - s, hits[s], number, rng.fork("round", number, s))
                    f.lost[1 - s] += shot.morale
            closed_now = False
            end = _ends(f, battle)
            if not end and melee is not None and not closed and number < ROUNDS:
                enemy_chit = battle.chits[1 - melee]
                closed_now = die(rng) - shift <= rules.closing[enemy_chit]  # chart notes, 12.2.6.1.4.1
                closed = closed_now
            morale = (_morale_of(fires[0]), _morale_of(fires[1]))
            rounds.append(
                Round(number, tables, dice, (mods[0], mods[1]), (hits[0], hits[1]), morale, closed_now)
            )
            if end:
                break
            if battle.kind is Kind.PORT_RAID and f.defeated(dfn):
                f.silenced[dfn] = True
    winner = _winner(f, battle)
    chase = _chase(f, battle, winner, rng) if winner is not None else None
    nelson, others = _officers(battle, rules, shift, rng)
    fate, owner = _fates(f, battle, winner, rng.fork("voyage"))
    return EiaResult(
        kind=battle.kind,
        winner=winner,
        morale=f.morale,
        morale_lost=(round(f.lost[0], 3), round(f.lost[1], 3)),
        broken=(f.broken(0), f.broken(1)),
        rounds=tuple(rounds),
        fate=fate,
        owner=owner,
        disabled_in=tuple(f.disabled_in),
        chase=chase,
        harbor_fire=harbor,
        nelson=nelson,
        closing_shift=shift,
        admiral_fates=others,
    )


def _fire(f: _Fight, table: str | None, roll: int, mod: int, side: int) -> Fire | None:
    if table is None:
        return None
    return fire(f.r, table, modified_roll(f.r, roll, mod), len(f.active(side)))


def _morale_of(shot: Fire | None) -> float:
    return 0.0 if shot is None else shot.morale


def _swap(pair: tuple[int, int]) -> tuple[int, int]:
    return pair[1], pair[0]


def _melee_side(battle: EiaBattle) -> int | None:
    """The melee force: the one side that chose melee against a linear chit."""
    if battle.kind is not Kind.OPEN_SEA:
        return None
    sides = [s for s in (0, 1) if battle.chits[s] is Chit.MELEE]
    return sides[0] if len(sides) == 1 else None


def _closing_shift(battle: EiaBattle, rules: EiaRules, melee: int | None) -> int:
    """12.2.6.1.4.2 and 12.2.7.2: a purely British force under Nelson with melee
    subtracts 1 or 2 from its closing roll (and adds it to his casualty roll)."""
    side = battle.nelson
    if side is None or battle.kind is not Kind.OPEN_SEA or battle.chits[side] is not Chit.MELEE:
        return 0
    if any(s.state not in rules.british_states for s in battle.ships if s.side == side):
        return 0
    if melee != side:
        return 0
    chosen = rules.nelson_shift if battle.nelson_shift is None else battle.nelson_shift
    return max(0, min(rules.nelson_shift_max, chosen))


def _tables(
    battle: EiaBattle, rules: EiaRules, number: int, closed: bool, f: _Fight
) -> tuple[str | None, str | None]:
    att = battle.attacker
    out: list[str | None] = [None, None]
    if battle.kind is Kind.OPEN_SEA:
        cell = rules.chart[(battle.chits[att], battle.chits[1 - att])]
        out[att] = cell.table(0, number, closed)
        out[1 - att] = cell.table(1, number, closed)
    elif battle.kind is Kind.BLOCKADE:
        out[att], out[1 - att] = rules.blockading[number - 1], rules.blockaded[number - 1]
    else:
        out[att] = rules.raid_attacker[number - 1]
        out[1 - att] = None if f.silenced[1 - att] else rules.raid_defender[number - 1]
    return out[0], out[1]


def _ends(f: _Fight, battle: EiaBattle) -> bool:
    att, dfn = battle.attacker, 1 - battle.attacker
    if battle.kind is Kind.PORT_RAID:
        # 12.2.6.3.2: three rounds or until the attacking force breaks or is eliminated
        return f.defeated(att) or not f.active(dfn)
    return f.defeated(0) or f.defeated(1)


def _winner(f: _Fight, battle: EiaBattle) -> int | None:
    if battle.kind is Kind.PORT_RAID:
        # 12.2.6.3.2: both a broken (or eliminated) enemy and more losses inflicted than received
        losses = [
            sum(1 for i, s in enumerate(battle.ships) if s.side == side and f.disabled_in[i])
            for side in (0, 1)
        ]
        for side in (0, 1):
            if f.defeated(1 - side) and losses[1 - side] > losses[side]:
                return side
        return None
    down = [f.defeated(0), f.defeated(1)]
    if down[0] != down[1]:
        return 0 if down[1] else 1
    return None  # 12.2.6.1.6.2 inconclusive; or both defeated at once: nobody is "the other side"


def _harbor_defenses(f: _Fight, rng: Rng) -> Fire | None:
    """12.2.6.3.1: one roll on the 5-2 table with the defence number as strength."""
    if f.b.harbor_defense <= 0:
        return None
    att = f.b.attacker
    shot = fire(f.r, f.r.harbor_defense_table, modified_roll(f.r, die(rng), 0), f.b.harbor_defense)
    f.disable(att, shot.disabled, HARBOR_ROUND, rng.fork("harbor"))
    return shot


def _chase(f: _Fight, battle: EiaBattle, winner: int, rng: Rng) -> Chase | None:
    """12.2.6.1.7: the victor's morale loss picks the table; one roll, linear
    defense -1; casualties only, morale ignored.  None after port raids
    (12.2.6.3.4) and when the blockaders won (12.2.6.2)."""
    if battle.kind is Kind.PORT_RAID or (battle.kind is Kind.BLOCKADE and winner == battle.attacker):
        return None
    loser = 1 - winner
    if not f.active(winner) or not f.active(loser):
        return None
    table = f.r.chase_table(f.lost[winner])
    mod = (
        f.r.chase_linear_defense
        if battle.kind is Kind.OPEN_SEA and battle.chits[winner] is Chit.LINEAR_DEFENSE
        else 0
    )
    shot = fire(f.r, table, modified_roll(f.r, die(rng), mod), len(f.active(winner)))
    hit = f.disable(loser, shot.disabled, CHASE_ROUND, rng.fork("chase"))
    return Chase(table, shot.roll, hit)


def _officers(
    battle: EiaBattle, rules: EiaRules, shift: int, rng: Rng
) -> tuple[NelsonFate | None, tuple[NelsonFate, ...]]:
    """Nelson's fate (12.2.7), then every other admiral's: 12.2.7.1 "naval
    officer casualties" roll too, unmodified, each on his own stream so that
    one more admiral changes no other die."""
    nelson = _nelson(battle, rules, shift, rng) if battle.nelson is not None else None
    others = tuple(_nelson(battle, rules, 0, rng.fork("admiral", pid)) for pid, _ in battle.admirals)
    return nelson, others


def _nelson(battle: EiaBattle, rules: EiaRules, shift: int, rng: Rng) -> NelsonFate:
    """12.2.7.1: a casualty on 11 or 12 (two dice), plus the closing shift
    (12.2.7.2, Nelson's only); the second roll, wounded or killed, is not modified."""
    roll = die(rng) + die(rng) + shift
    if roll < rules.nelson_casualty_on:
        return NelsonFate.UNHURT
    return NelsonFate.KILLED if die(rng) >= rules.nelson_killed_on else NelsonFate.WOUNDED


def _fates(
    f: _Fight, battle: EiaBattle, winner: int | None, rng: Rng
) -> tuple[tuple[Fate, ...], tuple[int | None, ...]]:
    """12.2.6.1.8 and 12.2.6.1.9: the victor takes the defeated side's disabled
    ships; each side possessing disabled ships rolls one die for each: a roll
    of 1, or a distance in movement points at least the roll, loses it."""
    kind, att = battle.kind, battle.attacker
    captures = kind is not Kind.PORT_RAID and winner is not None
    fate: list[Fate] = []
    owner: list[int | None] = []
    for i, s in enumerate(battle.ships):
        if s.hulk and not f.fighter[i]:
            fate.append(Fate.IDLE)
            owner.append(s.side)
            continue
        if f.disabled_in[i]:
            keeper = winner if captures and winner is not None else s.side
            distance = battle.voyage[keeper]
            roll = die(rng)
            sinks = roll <= f.r.always_sinks or distance is None or distance >= roll
            fate.append(Fate.LOST if sinks else Fate.HULK)
            owner.append(None if sinks else keeper)
            continue
        beaten = winner is not None and s.side != winner
        if not s.factor and beaten and captures and f.active(1 - s.side):
            fate.append(Fate.CAPTURED)
            owner.append(1 - s.side)
        elif kind is Kind.PORT_RAID:
            fate.append(Fate.WITHDRAWN if s.side == att else Fate.FOUGHT)
            owner.append(s.side)
        elif kind is Kind.BLOCKADE and s.side != att and winner == att:
            # 12.2.6.2: "if the blockading force is victorious ... All surviving
            # blockaded ships are returned to port"; otherwise 12.2.6.1.8 holds
            fate.append(Fate.RETURNED)
            owner.append(s.side)
        else:
            fate.append(Fate.RETREATED if beaten else Fate.FOUGHT)
            owner.append(s.side)
    return tuple(fate), tuple(owner)


def political_points(rules: EiaRules, battle: EiaBattle, result: EiaResult) -> int:
    """12.2.6.1.6.3: points by fleet counters of the defeated side (docs/rules/eia.md)."""
    if result.winner is None:
        return 0
    ships = sum(1 for s in battle.ships if s.side != result.winner and s.factor and not s.hulk)
    counters = -(-ships // rules.ships_per_counter)
    return counters * rules.points_per_counter
