"""How a column chooses its action (EiA new naval rules, "Naval Combat": "The
players then take turns choosing actions for their columns, one column at a
time"): by its player's plan when he gave one, else by the default of
docs/rules/eia-operations.md ("Column orders").

A plan is read from its first step: the first step whose target is there
and whose condition holds is the column's choice.  On the column's turn the
attack and protect steps are read; attacked, having won the contest, its
evade steps.  Conditions compare ships able to fight, counted when the
choice is made: with the enemy column attacked, with the attacking column
(a protection taken up or an evasion when an attack comes), or with the
largest enemy column (a protection chosen on the column's own turn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pate.core.orders.operation import ColumnAction, ColumnStep, Condition, is_place

Alive = Callable[[int, int], int]  # ships able to fight in (side, column)


@dataclass(frozen=True, slots=True)
class Choice:
    action: ColumnAction
    target: int  # a column index: the enemy's for an attack, the own side's for a protection
    step: int  # the plan's step that chose it, 1 = first; 0: the default


@dataclass(frozen=True, slots=True)
class Board:
    """What a choice looks at: each side's columns, how many of each column's
    ships can fight, which hold carrying ships, and each column's place in its
    player's orders."""

    count: tuple[int, int]
    alive: Alive
    carrying: Callable[[int, int], bool]
    places: tuple[tuple[int, ...], tuple[int, ...]]

    def live(self, side: int) -> list[int]:
        return [i for i in range(self.count[side]) if self.alive(side, i)]


def holds(when: Condition, mine: int, theirs: int) -> bool:
    if when is Condition.OUTNUMBERED:
        return mine < theirs
    if when is Condition.OUTNUMBERING:
        return mine > theirs
    return True


def enemy_column(board: Board, side: int, col: int, target: str) -> int | None:
    """The live enemy column a step's target names, or None."""
    enemy = 1 - side
    live = board.live(enemy)
    if not live:
        return None
    if target == "carrying":
        return next((i for i in live if board.carrying(enemy, i)), None)
    if target == "facing":
        return col if col in live else None
    if target == "strongest":
        return max(live, key=lambda i: (board.alive(enemy, i), -i))
    if target == "weakest":
        return min(live, key=lambda i: (board.alive(enemy, i), i))
    if is_place(target):
        i = int(target) - 1
        return i if i in live else None
    return None


def own_column(board: Board, side: int, col: int, target: str) -> int | None:
    """The live column of its own side a protection names (not itself), or None."""
    live = [i for i in board.live(side) if i != col]
    if target == "carrying":
        return next((i for i in live if board.carrying(side, i)), None)
    if is_place(target):
        return next((i for i in live if board.places[side][i] == int(target)), None)
    return None


def default_attack(board: Board, side: int, col: int) -> int | None:
    """The enemy column attacked by default: the one carrying troops or trade
    (what an interception is for), else the one at the column's own place,
    else the strongest left."""
    for target in ("carrying", "facing", "strongest"):
        found = enemy_column(board, side, col, target)
        if found is not None:
            return found
    return None


def on_turn(board: Board, side: int, col: int, plan: tuple[ColumnStep, ...]) -> Choice | None:
    """The column's action on its turn; None when no enemy column is left."""
    mine = board.alive(side, col)
    strongest = max((board.alive(1 - side, i) for i in board.live(1 - side)), default=0)
    for k, step in enumerate(plan, 1):
        if step.action is ColumnAction.ATTACK:
            t = enemy_column(board, side, col, step.target)
            if t is not None and holds(step.when, mine, board.alive(1 - side, t)):
                return Choice(ColumnAction.ATTACK, t, k)
        elif step.action is ColumnAction.PROTECT:
            t = own_column(board, side, col, step.target)
            if t is not None and strongest and holds(step.when, mine, strongest):
                return Choice(ColumnAction.PROTECT, t, k)
    target = default_attack(board, side, col)
    return None if target is None else Choice(ColumnAction.ATTACK, target, 0)


def takes_up(
    board: Board, side: int, col: int, plan: tuple[ColumnStep, ...], attacked: int, attacker: int
) -> int | None:
    """Whether a column that has not acted yet protects column ``attacked``
    of its side from the attack of column ``attacker`` (its turn spent):
    the step of its plan that says so, 0 by default, None if not.  By its
    plan: when the first step it would choose now is that protection.  By
    default (no plan, or no attack or protect step of it applies): when the
    attack is aimed at its side's carrying column and it carries nothing."""
    if attacked == col or not board.alive(side, col):
        return None
    mine, theirs = board.alive(side, col), board.alive(1 - side, attacker)
    for k, step in enumerate(plan, 1):
        if step.action is ColumnAction.ATTACK:
            t = enemy_column(board, side, col, step.target)
            if t is not None and holds(step.when, mine, board.alive(1 - side, t)):
                return None
        elif step.action is ColumnAction.PROTECT:
            t = own_column(board, side, col, step.target)
            if t is not None and holds(step.when, mine, theirs):
                return k if t == attacked else None
    if board.carrying(side, attacked) and not board.carrying(side, col):
        return 0
    return None


def evades(board: Board, side: int, col: int, plan: tuple[ColumnStep, ...], attacker: int) -> int | None:
    """Whether a defending column that won the contest evades: the step of its
    plan that says so, 0 by default, None if it stands and strikes first.  By
    default it evades when it holds carrying ships or is outnumbered; with a
    plan, only as the plan's evade steps say."""
    mine, theirs = board.alive(side, col), board.alive(1 - side, attacker)
    if not plan:
        return 0 if board.carrying(side, col) or mine < theirs else None
    for k, step in enumerate(plan, 1):
        if step.action is ColumnAction.EVADE and holds(step.when, mine, theirs):
            return k
    return None
