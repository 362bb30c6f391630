"""How a column's plan chooses (pate.core.rules.eiaops.plans; docs/rules/eia-operations.md,
"Column orders"): the first step whose target is there and whose condition holds; a step
whose target is gone is skipped; no step that applies falls back to the default."""

from __future__ import annotations

from pate.core.orders.operation import Column, ColumnAction, ColumnStep, Condition
from pate.core.rules.eiaops.formation import arrange
from pate.core.rules.eiaops.plans import Board, Choice, evades, on_turn, takes_up

A, P, E = ColumnAction.ATTACK, ColumnAction.PROTECT, ColumnAction.EVADE
# side 0: columns of 2 and 3 ships, the second carrying; side 1: columns of 1, 4 and 0 ships
SIZES = ((2, 3), (1, 4, 0))
BOARD = Board(
    count=(2, 3),
    alive=lambda side, col: SIZES[side][col],
    carrying=lambda side, col: (side, col) == (0, 1),
    places=((1, 3), (1, 2, 3)),  # side 0's orders had a column 2, left empty in the battle
)


def test_attack_targets_name_the_enemy_columns_left() -> None:
    for target, want in (("strongest", 1), ("weakest", 0), ("facing", 1), ("2", 1), ("3", None)):
        choice = on_turn(BOARD, 0, 1, (ColumnStep(A, target),))
        if want is None:  # its third column has no ship left: the default, the facing column
            assert choice == Choice(A, 1, 0)
        else:
            assert choice == Choice(A, want, 1), target


def test_conditions_count_ships_able_to_fight() -> None:
    """Two ships against the strongest enemy column's four: outnumbered, so the first step
    is skipped and the second taken; against the weakest's one, outnumbering."""
    plan = (
        ColumnStep(A, "strongest", Condition.OUTNUMBERING),
        ColumnStep(A, "weakest", Condition.OUTNUMBERING),
    )
    assert on_turn(BOARD, 0, 0, plan) == Choice(A, 0, 2)


def test_protect_names_a_column_by_its_place_in_the_orders() -> None:
    """Side 0's second column in the battle was the third of its orders."""
    assert on_turn(BOARD, 0, 0, (ColumnStep(P, "3"),)) == Choice(P, 1, 1)
    assert on_turn(BOARD, 0, 0, (ColumnStep(P, "2"),)) == Choice(A, 0, 0)  # gone: the default attack


def test_a_plan_of_evasions_only_protects_by_default() -> None:
    """No attack or protect step applies: the default takes up the attack on the carrying
    column; with a plan the column evades only as the plan says."""
    evasive = (ColumnStep(E, "", Condition.OUTNUMBERED),)
    assert takes_up(BOARD, 0, 0, evasive, attacked=1, attacker=1) == 0
    assert takes_up(BOARD, 0, 0, (ColumnStep(A, "weakest"),), attacked=1, attacker=1) is None
    assert evades(BOARD, 0, 0, evasive, attacker=1) == 1  # 2 against 4
    assert evades(BOARD, 0, 0, evasive, attacker=0) is None  # 2 against 1: it stands
    assert evades(BOARD, 0, 0, (), attacker=1) == 0  # no plan: outnumbered, the default evades


def test_orders_the_battle_outran_are_fitted_never_refused() -> None:
    """formation.arrange: a ship named twice keeps its first place; a ship the orders do not
    name closes the last column; a carrying ship goes last in the orders' convoy column; a
    column with no ship in the battle is not formed, the others keep their places."""
    ordered = (Column(("A", "B")), Column(("GONE",)), Column(("B", "C", "T")))
    form = arrange(["A", "B", "C", "T", "X"], {"T"}, ordered, {}, 6)
    assert form.columns == (("A", "B"), ("C", "X", "T")) and form.places == (1, 3)
