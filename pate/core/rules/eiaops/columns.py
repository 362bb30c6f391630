"""Column combat of the EiA new naval rules ("Naval Combat").

Sides are 0 (the side that joined combat: the interceptor, or the newly
revealed Naval Superiority fleet) and 1.  Fire and damage come from the EiA
combat results table of rules 12.2.6-12.2.9 (pate.core.rules.eia): each
shot is one die, modified, read on a table "C-M"; the casualty percentage
read disables the target when it reaches ``disabled_at`` (docs/rules/eia-operations.md).
Dice are drawn in a fixed order: the initiative roll (on a tie of columns),
then for each attack the two admirals' contest dice, then one die per shot in
firing order.  A side's columns are its player's column orders when he gave
them (formation.py), else the engine's; each column's choice is its plan's,
else the default (plans.py); choosing draws no die, so a battle without
column orders is fought die for die as before they existed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pate.core.orders.operation import ColumnAction, ColumnStep
from pate.core.rng import Rng
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eia.tables import modified_roll
from pate.core.rules.eiaops.formation import Formation
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.plans import Board, evades, on_turn, takes_up


@dataclass(frozen=True, slots=True)
class ColumnShip:
    key: str
    side: int
    carrying: bool = False  # troops or trade aboard: "must be placed last"
    rating: int | None = None  # the tactical rating of an admiral aboard, if any
    fire: int = 0  # its own modifier to every fire roll (crew quality and ship type, OpsRules.fire_modifier)


@dataclass(frozen=True, slots=True)
class Shot:
    ship: str
    target: str
    roll: int
    percent: int
    disabled: bool


@dataclass(frozen=True, slots=True)
class Attack:
    side: int  # the attacking side
    column: int
    target_column: int
    contest: tuple[int, int]  # attacker's and defender's contest totals
    first: int  # the side that struck first
    evaded: bool
    protected_by: int | None  # the defender's column that took the attack instead
    shots: tuple[Shot, ...]


@dataclass(frozen=True, slots=True)
class Action:
    """A column's choice: ``attack`` (target: the enemy column), ``protect``
    (target: its own side's column), ``evade`` (target: the attacking column)."""

    side: int
    column: int
    action: str
    target: int
    step: int  # the step of its player's plan that chose it, 1 = first; 0: the default


@dataclass(frozen=True, slots=True)
class ColumnResult:
    columns: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    initiative: int
    attacks: tuple[Attack, ...]
    disabled: frozenset[str]
    winner: int | None  # the side that disabled more enemy ships; None on a tie
    actions: tuple[Action, ...] = ()  # every choice, in the order made


def form_columns(ships: list[ColumnShip], count: int) -> tuple[tuple[str, ...], ...]:
    """One side's columns: warships dealt in turn into ``count`` columns (at
    least one ship each), then every carrying ship placed last in the last
    column ("All trade ships and troop carrying ships present must be in the
    same column ... carrying ships ... must be placed last")."""
    fighting = [s.key for s in ships if not s.carrying]
    carrying = [s.key for s in ships if s.carrying]
    n = max(1, min(count, len(fighting))) if fighting else 1
    cols: list[list[str]] = [[] for _ in range(n)]
    for i, key in enumerate(fighting):
        cols[i % n].append(key)
    cols[-1].extend(carrying)
    return tuple(tuple(c) for c in cols if c)


@dataclass
class _Fight:
    rules: OpsRules
    eia: EiaRules
    rng: Rng
    ships: dict[str, ColumnShip]
    cols: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    forms: tuple[Formation, Formation]
    disabled: set[str] = field(default_factory=set)
    guards: dict[tuple[int, int], int] = field(default_factory=dict)  # (side, column): the column it guards
    actions: list[Action] = field(default_factory=list)
    attacks: list[Attack] = field(default_factory=list)

    def plan(self, side: int, col: int) -> tuple[ColumnStep, ...]:
        return self.forms[side].plans[col]

    def board(self) -> Board:
        return Board(
            (len(self.cols[0]), len(self.cols[1])),
            lambda side, col: len(self.alive(side, col)),
            self.carrying,
            (self.forms[0].places, self.forms[1].places),
        )

    def die(self) -> int:
        return self.rng.roll("column", self.rules.column_die)

    def alive(self, side: int, col: int) -> list[str]:
        return [k for k in self.cols[side][col] if k not in self.disabled]

    def rating(self, side: int, col: int) -> int:
        """The column's best admiral: those aboard its ships, and the one its
        player's orders put at its head."""
        rated = [self.ships[k].rating for k in self.cols[side][col]] + [self.forms[side].leaders[col]]
        return max((r for r in rated if r is not None), default=self.rules.no_admiral_rating)

    def carrying(self, side: int, col: int) -> bool:
        return any(self.ships[k].carrying for k in self.cols[side][col])

    def volley(self, side: int, col: int, target_side: int, target_col: int, first: bool) -> list[Shot]:
        """Rule "Naval Combat": each ship fires, in its place in the column, at
        the enemy ship at the same place; ships beyond the enemy's number
        choose (the enemy fired at least, then the first placed), unless
        carrying; a carrying ship fires only at a ship not yet fired at."""
        firing, targets = self.alive(side, col), self.alive(target_side, target_col)
        fired_at: dict[str, int] = {t: 0 for t in targets}
        shots: list[Shot] = []
        for place, key in enumerate(firing):
            if not targets:
                break
            if self.ships[key].carrying:
                fresh = [t for t in targets if fired_at[t] == 0]
                if not fresh:
                    continue
                target = (
                    targets[place] if place < len(targets) and fired_at[targets[place]] == 0 else fresh[0]
                )
            elif place < len(targets):
                target = targets[place]
            else:
                target = min(targets, key=lambda t: (fired_at[t], targets.index(t)))
            fired_at[target] += 1
            shots.append(self.shoot(key, target, first))
        return shots

    def shoot(self, key: str, target: str, first: bool) -> Shot:
        table = self.rules.first_strike_table if first else self.rules.table
        bonus = (self.rules.first_strike_modifier if first else 0) + self.ships[key].fire
        roll = modified_roll(self.eia, self.die(), bonus)
        percent = self.eia.row(table).casualties[roll - self.eia.die_min]
        hit = percent >= self.rules.disabled_at
        return Shot(key, target, roll, percent, hit)


def fight_columns(
    ships: list[ColumnShip],
    rules: OpsRules,
    eia: EiaRules,
    rng: Rng,
    columns: tuple[int, int] = (0, 0),
    formations: tuple[Formation | None, Formation | None] = (None, None),
    plans: tuple[tuple[tuple[ColumnStep, ...], ...], ...] = ((), ()),
) -> ColumnResult:
    """One column battle.  ``columns`` asks each side for that many columns
    (0: one per admiral present, at least one), ``plans`` gives them plans in
    their order (a battle spec's); a side's ``formations`` entry, its player's
    column orders, replaces both (plans.py chooses the actions)."""
    by_side = [[s for s in ships if s.side == side] for side in (0, 1)]
    wanted = [
        min(rules.max_columns, columns[side] or max(1, sum(1 for s in by_side[side] if s.rating is not None)))
        for side in (0, 1)
    ]
    forms = tuple(
        formations[side] or _dealt(form_columns(by_side[side], wanted[side]), plans[side]) for side in (0, 1)
    )
    cols = (forms[0].columns, forms[1].columns)
    f = _Fight(rules, eia, rng, {s.key: s for s in ships}, cols, (forms[0], forms[1]))
    initiative = _initiative(f)
    acted: set[tuple[int, int]] = set()
    for side, col in _turns(f, initiative):
        if (side, col) in acted or not f.alive(side, col):
            continue
        choice = on_turn(f.board(), side, col, f.plan(side, col))
        if choice is not None and choice.step == 0 and _behind(f, side):
            continue  # breaking off by default, a plan apart: it stays free to protect its own (N54)
        acted.add((side, col))
        if choice is None:
            continue
        f.actions.append(Action(side, col, choice.action.value, choice.target, choice.step))
        if choice.action is ColumnAction.PROTECT:
            f.guards[(side, col)] = choice.target
        else:
            f.attacks.append(_attack(f, side, col, choice.target, acted))
    lost = [sum(1 for k in f.disabled if f.ships[k].side == s) for s in (0, 1)]
    winner = None if lost[0] == lost[1] else (0 if lost[1] > lost[0] else 1)
    return ColumnResult(cols, initiative, tuple(f.attacks), frozenset(f.disabled), winner, tuple(f.actions))


def _dealt(cols: tuple[tuple[str, ...], ...], plans: tuple[tuple[ColumnStep, ...], ...]) -> Formation:
    """The engine's own formation: no orders, and no plans but a spec's (the defaults)."""
    n = len(cols)
    given = tuple(plans[i] if i < len(plans) else () for i in range(n))
    return Formation(cols, tuple(range(1, n + 1)), (None,) * n, given)


def _behind(f: _Fight, side: int) -> bool:
    """The default choice of a column no plan step decides (N54): a column whose
    side has so far had more than ``break_off_ratio`` times the ships disabled
    that it disabled does not renew the action; it takes "Protect own column"
    and stays free to guard."""
    lost = [0, 0]
    for k in f.disabled:
        lost[f.ships[k].side] += 1
    return lost[side] > 0 and lost[side] > f.rules.break_off_ratio * lost[1 - side]


def _initiative(f: _Fight) -> int:
    """ "The initiative goes to the side with more columns; in case of tie a
    maneuver roll decides" (a tied roll: the side that joined combat)."""
    n0, n1 = len(f.cols[0]), len(f.cols[1])
    if n0 != n1:
        return 0 if n0 > n1 else 1
    a, b = f.die(), f.die()
    return 1 if b > a else 0


def _turns(f: _Fight, initiative: int) -> list[tuple[int, int]]:
    """ "The players then take turns choosing actions for their columns, one
    column at a time", the side with the initiative first."""
    other = 1 - initiative
    out: list[tuple[int, int]] = []
    for i in range(max(len(f.cols[0]), len(f.cols[1]))):
        for side in (initiative, other):
            if i < len(f.cols[side]):
                out.append((side, i))
    return out


def _attack(f: _Fight, side: int, col: int, target: int, acted: set[tuple[int, int]]) -> Attack:
    enemy = 1 - side
    guard = _guard(f, enemy, target, col, acted)
    if guard is not None:
        target = guard
    mine = f.die() + f.rating(side, col)
    theirs = f.die() + f.rating(enemy, target)
    first = side if mine >= theirs else enemy
    evade = False
    if first == enemy:
        step = evades(f.board(), enemy, target, f.plan(enemy, target), col)
        evade = step is not None
        if evade:
            f.actions.append(Action(enemy, target, ColumnAction.EVADE.value, col, step or 0))
    shots: list[Shot] = []
    if not evade:
        second = 1 - first
        a_col, b_col = (col, target) if first == side else (target, col)
        volley = f.volley(first, a_col, second, b_col, True)
        f.disabled.update(s.target for s in volley if s.disabled)
        reply = f.volley(second, b_col, first, a_col, False)
        f.disabled.update(s.target for s in reply if s.disabled)
        shots = volley + reply
    return Attack(side, col, target, (mine, theirs), first, evade, guard, tuple(shots))


def _guard(f: _Fight, side: int, target: int, attacker: int, acted: set[tuple[int, int]]) -> int | None:
    """ "Protect own column" (the text stops there): a column standing guard
    over the column attacked (its protection chosen on its turn) takes the
    attack, once; else a column that has not yet acted and would protect it
    now (plans.takes_up) takes it, and that is its action."""
    for (s, i), guarded in sorted(f.guards.items()):
        if s == side and guarded == target and f.alive(side, i):
            del f.guards[(s, i)]
            return i
    board = f.board()
    for i in range(len(f.cols[side])):
        if (side, i) in acted:
            continue
        step = takes_up(board, side, i, f.plan(side, i), target, attacker)
        if step is not None:
            acted.add((side, i))
            f.actions.append(Action(side, i, ColumnAction.PROTECT.value, target, step))
            return i
    return None
