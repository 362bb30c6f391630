"""Column combat of the EiA new naval rules: the beaten side breaks off
(docs/rules/eia-operations.md, N54 and "Calibration of the column combat").

"The players then take turns choosing actions for their columns, one column
at a time.  Available actions are as follows.  Attack enemy column: ...
Protect own column:"  Decision: where no step of the column's plan decides, the
default: a column whose side has so far had more than ``break_off_ratio`` (2)
times the ships disabled that it disabled takes "Protect own column" rather
than renew the action: it fires nothing and stays free to guard its side's
carrying column.
"""

from __future__ import annotations

from pate.core.orders.operation import ColumnAction, ColumnStep
from pate.core.rules.eiaops.columns import fight_columns
from tests.cases.eia_ops.ops_world import OPS, QUIET
from tests.cases.eia_ops.test_trade_and_columns import EIA, fight, side
from tests.unit.eia.scripted import ScriptedRng

# a tie of manoeuvre dice (the side that joined combat takes the initiative),
# the attacker's contest 5 against 2 (it strikes first), then a 6 that disables
FIRST_SHOT_DISABLES = [1, 1, 5, 2, 6]


def test_eia_ops_s54_a_beaten_column_does_not_renew_the_action() -> None:
    """ "Available actions are as follows."  Breaking off: A1 disables B1 in its
    attack and B2's reply misses; side 1, a ship down and none disabled, takes
    "Protect own column" in its turn rather than attack."""
    assert OPS.break_off_ratio * 0 < 1  # one ship down against none is past any ratio
    result = fight(side("A", 1, 0) + side("B", 2, 1), [*FIRST_SHOT_DISABLES, *QUIET])
    assert result.disabled == {"B1"}
    assert [(a.side, a.column) for a in result.attacks] == [(0, 0)]
    assert result.winner == 0


def test_eia_ops_s54_a_column_even_or_ahead_still_attacks() -> None:
    """ "Available actions are as follows."  Nobody disabled: every column
    attacks in its turn."""
    result = fight(side("A", 1, 0) + side("B", 2, 1), QUIET)
    assert [(a.side, a.column) for a in result.attacks] == [(0, 0), (1, 0)]


def test_eia_ops_s54_a_plan_to_attack_holds_when_the_side_is_behind() -> None:
    """ "Available actions are as follows."  Breaking off is the default only: the
    same fight as above, but side 1's column has a plan (`attack facing`), and the
    player's choice stands: it attacks although a ship down and none disabled."""
    plans = ((), ((ColumnStep(ColumnAction.ATTACK, "facing"),),))
    result = fight_columns(
        side("A", 1, 0) + side("B", 2, 1), OPS, EIA, ScriptedRng([*FIRST_SHOT_DISABLES, *QUIET]), plans=plans
    )
    assert "B1" in result.disabled
    assert [(a.side, a.column) for a in result.attacks] == [(0, 0), (1, 0)]
    assert [(a.side, a.action, a.step) for a in result.actions][-1] == (1, "attack", 1)
