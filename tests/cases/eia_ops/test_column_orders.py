"""Rule cases of the EiA new naval rules' column paragraph ("Naval Combat")
played by the players' column orders: the ``column`` lines beside a fleet's
``operation`` line (docs/formats/orders.md), checked by the order desk and
played by the column battle (docs/rules/eia-operations.md, "Column orders").
Battles with scripted dice are fought by the function the operations phase
calls (``battle.fight``); the dice are drawn as without orders: the initiative
roll on a tie of columns, then for each attack two contest dice and one die a
shot.  A plan draws no dice."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.model import ShipOrder
from pate.core.orders.operation import Column, ColumnAction, ColumnStep, Condition
from pate.core.orders.text import OrderSyntaxError, parse_orders
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eiaops.battle import fight
from pate.core.rules.eiaops.formation import arrange
from pate.core.rules.validation.orders import validate_order
from pate.core.world.state import Admiral, AdmiralFate, WorldState
from tests.cases.eia_ops.ops_world import (
    MAP,
    OPS,
    QUIET,
    RULES,
    carrying,
    harbor,
    kinds,
    op,
    ops_world,
    run,
    ship,
    with_corps,
)
from tests.support.orders_world import ADMIN
from tests.unit.eia.scripted import ScriptedRng

EIA = EiaRules.from_rules(RULES)
BREST = harbor("Brest")


def _french_fleet() -> WorldState:
    """FR1SL leads FR2SL, FR3SL and the transport FR4TR (the corps aboard) in
    Brest; the admiral ``lucas`` commands FR2SL (``gone`` was killed).  BR1SL
    leads BR2SL in Plymouth."""
    ships = [
        ship("FR1SL", BREST),
        ship("FR2SL", BREST, attached_to="FR1SL", commander="lucas"),
        ship("FR3SL", BREST, attached_to="FR1SL"),
        carrying("FR4TR", BREST, attached_to="FR1SL"),
        ship("BR1SL", harbor("Plymouth")),
        ship("BR2SL", harbor("Plymouth"), attached_to="BR1SL"),
    ]
    w = with_corps(ops_world(*ships))
    return replace(w, admirals={"lucas": Admiral("lucas"), "gone": Admiral("gone", fate=AdmiralFate.KILLED)})


def _orders(*columns: str, kind: str = "transport FR1IN to Cherbourg") -> ShipOrder:
    return op("FR1SL", kind, *columns)


def _refused(w: WorldState, order: ShipOrder) -> list[str]:
    return [f"{r.field}: {r.message}" for r in validate_order(order, ADMIN, w, MAP, RULES)]


def _fight(w: WorldState, french: tuple[Column, ...], dice: list[int], british: tuple[Column, ...] = ()):  # type: ignore[no-untyped-def]
    """Britain's BR1SL and BR2SL (side 0, one column by default) against the
    French fleet (side 1)."""
    sides = (("BR1SL", "BR2SL"), ("FR1SL", "FR2SL", "FR3SL", "FR4TR"))
    return fight(w, sides, OPS, EIA, ScriptedRng(dice), orders=(british, french))[1]


def _cols(*lines: str) -> tuple[Column, ...]:
    order = _orders(*lines)
    assert order.operation is not None
    return order.operation.columns


def test_eia_ops_c1_columns_of_at_least_one_ship_by_order() -> None:
    """ "When combat is joined, each side divides their ships into columns of
    at least one ship."  The desk refuses a column of no ship; a column whose
    ships are all missing from the battle (a detachment) is not formed."""
    w = _french_fleet()
    order = _orders("column FR1SL FR2SL FR3SL FR4TR")
    assert order.operation is not None
    bad = replace(order, operation=replace(order.operation, columns=(Column(()), *order.operation.columns)))
    assert _refused(w, bad) == ["operation.columns[0].ships: a column holds at least one ship"]
    form = arrange(["FR1SL", "FR3SL"], set(), _cols("column FR2SL", "column FR1SL FR3SL FR4TR"), {}, 6)
    assert form.columns == (("FR1SL", "FR3SL"),) and form.places == (2,)


def test_eia_ops_c2_trade_and_troop_ships_in_the_same_column() -> None:
    """ "All trade ships and troop carrying ships present must be in the same
    column."  The desk refuses transports in two columns; in a battle the
    trade ships join the column the orders gave the troop ships."""
    w = replace(
        _french_fleet(),
        ships={**_french_fleet().ships, "FR5TR": carrying("FR5TR", BREST, attached_to="FR1SL")},
    )
    split = _orders("column FR1SL FR4TR", "column FR2SL FR3SL FR5TR")
    assert _refused(w, split) == [
        "operation.columns[1]: all troop carrying ships go in one column; column 1 has some already"
    ]
    cols = _cols("column FR1SL FR4TR", "column FR2SL FR3SL")
    form = arrange(["FR1SL", "FR2SL", "FR3SL", "FR4TR", "trade:FR:1"], {"FR4TR", "trade:FR:1"}, cols, {}, 6)
    assert form.columns == (("FR1SL", "FR4TR", "trade:FR:1"), ("FR2SL", "FR3SL"))


def test_eia_ops_c3_ships_placed_as_the_player_wishes_carrying_last() -> None:
    """ "Ships are placed in columns according to the players wishes, except
    for carrying ships which must be placed last."  The columns are fought as
    written, in their order and with their ships in their places; the desk
    refuses a transport before a warship, and a ship left out."""
    w = _french_fleet()
    written = ("column FR3SL FR1SL", "column FR2SL FR4TR")
    assert _refused(w, _orders(*written)) == []
    result = _fight(w, _cols(*written), [*QUIET])
    assert result.columns[1] == (("FR3SL", "FR1SL"), ("FR2SL", "FR4TR"))
    assert _refused(w, _orders("column FR3SL FR1SL", "column FR4TR FR2SL")) == [
        "operation.columns[1].ships[1]: carrying ships are placed last: FR2SL comes after FR4TR"
    ]
    assert _refused(w, _orders("column FR3SL FR1SL FR4TR")) == [
        "operation.columns: every ship of the fleet is placed in a column: FR2SL is not"
    ]


def test_eia_ops_c4_admirals_placed_into_columns_by_order() -> None:
    """ "Admiral present are then placed into columns."  Lucas commands FR2SL
    but his player puts him at the head of FR3SL's column: that column
    contests with his rating (die 3 + 1), FR2SL's with none; the desk refuses
    an admiral who commands no ship of the fleet, or one no longer active."""
    w = _french_fleet()
    cols = _cols("column FR2SL", "column FR3SL FR1SL admiral lucas plan attack 1", "column FR4TR")
    # side 1 has 3 columns: it acts first; its column 0 (FR2SL) attacks, then its column 1
    # (its column 0: contest 3 v 3 and three shots; Britain's: contest and three shots)
    result = _fight(w, cols, [3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, *QUIET])
    by_column = {a.column: a.contest for a in result.attacks if a.side == 1}
    assert by_column[0] == (3, 3) and by_column[1] == (3 + OPS.admiral_rating, 3)
    assert _refused(w, _orders("column FR1SL FR2SL FR3SL FR4TR admiral nelson")) == [
        "operation.columns[0].admiral: 'nelson' is not an admiral commanding a ship of this fleet"
    ]
    w2 = replace(w, ships={**w.ships, "FR3SL": replace(w.ships["FR3SL"], commander="gone")})
    assert _refused(w2, _orders("column FR1SL FR2SL FR3SL FR4TR admiral gone")) == [
        "operation.columns[0].admiral: gone is killed and leads no column"
    ]


def test_eia_ops_c5_initiative_to_the_side_that_ordered_more_columns() -> None:
    """ "The initiative goes to the side with more columns; in case of tie a
    maneuver roll decides."  One French column against Britain's default one:
    a roll decides (2 v 5: France, side 1); three French columns: France
    without a roll."""
    w = _french_fleet()
    one_column = _cols("column FR1SL FR2SL FR3SL FR4TR")
    assert _fight(w, one_column, [2, 5, *QUIET]).initiative == 1
    three = _cols("column FR1SL", "column FR2SL", "column FR3SL FR4TR")
    result = _fight(w, three, [6, 1, *QUIET])
    assert result.initiative == 1 and result.actions[0].side == 1


def test_eia_ops_c6_columns_take_turns_by_their_plans() -> None:
    """ "The players then take turns choosing actions for their columns, one
    column at a time."  France acts first (three columns to one).  Its column 1
    protects the convoy column 3 (step 1 of its plan); Britain's column goes
    for the convoy (the default) and meets the protector instead; France's
    column 2 would evade if outnumbered, it is not, and attacks (the default);
    its convoy column attacks last.  Britain's plan `attack carrying` is the
    same choice, made by step 1."""
    w = _french_fleet()
    french = _cols(
        "column FR1SL plan protect 3",
        "column FR2SL plan evade if outnumbered",
        "column FR3SL FR4TR",
    )
    result = _fight(w, french, [*QUIET])
    assert [(a.side, a.column, a.action, a.target, a.step) for a in result.actions] == [
        (1, 0, "protect", 2, 1),
        (0, 0, "attack", 2, 0),
        (1, 1, "attack", 0, 0),
        (1, 2, "attack", 0, 0),
    ]
    assert result.attacks[0].protected_by == 0 and result.attacks[0].target_column == 0
    british = (Column(("BR1SL", "BR2SL"), plan=(ColumnStep(ColumnAction.ATTACK, "carrying"),)),)
    again = _fight(w, french, [*QUIET], british)
    assert (again.actions[1].action, again.actions[1].target, again.actions[1].step) == ("attack", 2, 1)


def test_eia_ops_c7_evade_by_the_plan() -> None:
    """ "The winner gets first strike or in case of defender, may evade
    combat."  The defender's plan says when: France's lone FR2SL (plan `evade if
    outnumbered`), attacked by Britain's two and winning the contest 6 v 1,
    evades (step 1); with `evade if outnumbering` it stands and strikes first."""
    w = _french_fleet()
    british = (Column(("BR1SL", "BR2SL"), plan=(ColumnStep(ColumnAction.ATTACK, "1"),)),)
    for when, evaded in ((Condition.OUTNUMBERED, True), (Condition.OUTNUMBERING, False)):
        french = (
            Column(("FR2SL",), plan=(ColumnStep(ColumnAction.EVADE, "", when),)),
            Column(("FR1SL", "FR3SL", "FR4TR")),
        )
        # France (two columns to one) acts first: its column 0 attacks the only British
        # column (contest and three shots, all missing); then Britain's attack, lost 1 v 6
        result = _fight(w, french, [1, 1, 1, 1, 1, 1, 6, *QUIET], british)
        hit = next(a for a in result.attacks if a.side == 0)
        assert hit.target_column == 0 and hit.first == 1 and hit.evaded is evaded
        assert (
            (1, 0, "evade", 0, 1) in [(a.side, a.column, a.action, a.target, a.step) for a in result.actions]
        ) is evaded


def test_eia_ops_c8_column_orders_in_the_operations_phase() -> None:
    """ "The players then take turns choosing actions for their columns, one
    column at a time."  The whole path: column lines in the order text, through
    the operations phase, to the `column_battle` event.  A British patrol (one ship: die 1)
    intercepts the French transport (5 v 2); France's columns are fought as
    ordered and its column 1 protects the convoy column by its plan."""
    w = _french_fleet()
    w = replace(w, ships={**w.ships, "FR5SL": ship("FR5SL", harbor("St Malo"))})
    order = _orders("column FR1SL plan protect 2", "column FR2SL FR3SL FR4TR")
    assert _refused(w, order) == []
    orders = [op("FR5SL", "rebase to Cherbourg"), op("BR1SL", "patrol"), order]
    ts = run(w, orders, dice=[1, 5, 2, *QUIET])
    (battle,) = [e.data for e in kinds(ts, "column_battle")]
    assert battle["columns"][1] == [["FR1SL"], ["FR2SL", "FR3SL", "FR4TR"]]
    assert battle["actions"][0] == [1, 0, "protect", 1, 1]
    assert battle["attacks"][0]["protected_by"] == 0


def test_eia_ops_c9_refusals_name_their_field() -> None:
    """ "When combat is joined, each side divides their ships into columns of
    at least one ship."  What the text forbids, or the form cannot hold, is
    refused by its field:
    a ship not of the fleet, a ship twice, too many columns, a protection of
    itself, and a column line with no operation."""
    w = _french_fleet()
    assert _refused(w, _orders("column FR1SL FR2SL FR3SL FR4TR BR1SL")) == [
        "operation.columns[0].ships[4]: BR1SL is not a ship of this fleet"
        " (its lead and the ships attached to it)"
    ]
    assert _refused(w, _orders("column FR1SL FR2SL", "column FR3SL FR2SL FR4TR")) == [
        "operation.columns[1].ships[1]: FR2SL is already in column 1"
    ]
    assert _refused(w, _orders("column FR1SL plan protect 1", "column FR2SL FR3SL FR4TR")) == [
        "operation.columns[0].plan[0].target: protect another of the fleet's 2 columns, not 1"
    ]
    order = _orders("column FR1SL FR2SL FR3SL FR4TR")
    assert order.operation is not None
    seven = replace(order, operation=replace(order.operation, columns=(Column(("FR1SL",)),) * 7))
    assert _refused(w, seven) == ["operation.columns: a fleet forms at most 6 columns"]
    try:
        parse_orders("order FR1SL\n  column FR1SL\n")
    except OrderSyntaxError as err:
        assert "give FR1SL an operation line too" in str(err)
    else:
        raise AssertionError("a column line without an operation was read")
