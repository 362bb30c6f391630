"""Rule cases of the EiA new naval rules: trade ships and routes, the Spanish
Gold Convoy, and column combat (docs/rules/eia-operations.md).  Column
battles are fought by the function the operations phase calls
(``pate.core.rules.eiaops.columns.fight_columns``); the dice are scripted in
its order: the initiative roll on a tie of columns, then for each attack the
two contest dice and one die per shot."""

from __future__ import annotations

from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eiaops.columns import ColumnShip, fight_columns, form_columns
from pate.core.rules.eiaops.trade import routes
from tests.cases.eia_ops.ops_world import OPS, QUIET, harbor, kinds, op, ops_world, run, ship
from tests.support.orders_world import MAP, RULES
from tests.unit.eia.scripted import ScriptedRng

EIA = EiaRules.from_rules(RULES)


def side(prefix: str, n: int, s: int, carrying: int = 0, rating: int | None = None) -> list[ColumnShip]:
    ships = [ColumnShip(f"{prefix}{k}", s, rating=rating if k == 1 else None) for k in range(1, n + 1)]
    return ships + [ColumnShip(f"{prefix}C{k}", s, carrying=True) for k in range(1, carrying + 1)]


def fight(ships: list[ColumnShip], dice: list[int], columns: tuple[int, int] = (0, 0)):  # type: ignore[no-untyped-def]
    return fight_columns(ships, OPS, EIA, ScriptedRng(dice), columns)


def test_eia_ops_s44_one_trade_ship_a_dollar_to_london_or_offboard() -> None:
    """ "For each $1 of trade a single trade ship is in taken to be moving along
    a route between the trade port and the receiving port, London for British
    trade and Offboard for American and Indian trade."  Britain's 60 $ of
    trade are 60 trade ships, every European route ending in London; the
    United States' end on the Atlantic edge."""
    w = ops_world(players=("BR", "US"))
    got = routes(MAP, w, {"BR": 60, "US": 20}, OPS.receiving)
    assert sum(r.ships.get("BR", 0) for r in got) == 60
    british = [r for r in got if "London" in r.nodes]
    assert british and all(r.states == ("BR",) for r in british)
    american = [r for r in got if "US" in r.states]
    assert american and all(
        any(MAP.sea_areas[n].atlantic_edge for n in r.nodes if n in MAP.sea_areas) for r in american
    )


def test_eia_ops_s45_routes_take_detours_in_friendly_ports() -> None:
    """ "The route can take detours in other friendly ports."  A route calls at
    every port of its side on the sea areas it passes: the Gibraltar trade
    calls at Plymouth and Portsmouth on its way up the Channel."""
    w = ops_world(players=("BR",))
    (route,) = [r for r in routes(MAP, w, {"BR": 60}, OPS.receiving) if "Gibraltar" in r.nodes]
    assert {"Plymouth", "Portsmouth", "London"} <= route.nodes


def test_eia_ops_s46_routes_joined_in_a_common_port_are_protected_as_one() -> None:
    """ "If two routes join in a common ports, then the routes are taken to be
    singular and can be protected as one."  Hull's and Falmouth's trade join
    in London; a British Protect Trade chain in WAP protects the joined route,
    Hull's trade with it."""
    w = ops_world(ship("BR1SL", harbor("Falmouth")), players=("BR",))
    ts = run(w, [op("BR1SL", "protect-trade WAP")], dice=QUIET)
    (joined,) = [e.data for e in kinds(ts, "trade_route") if "Hull" in e.data["ports"]]
    assert "Falmouth" in joined["ports"] and joined["protected_by"] == ["BR1SL"]


def test_eia_ops_s47_spanish_gold_convoy_cut_off() -> None:
    """ "Spain no longer"  The text stops here: no Gold Convoy is built, and
    Spain's trade sails as every state's does, its European routes to Cadiz."""
    w = ops_world(players=("SP",))
    spanish = [r for r in routes(MAP, w, {"SP": 10}, OPS.receiving) if "Cadiz" in r.nodes]
    assert spanish and OPS.receiving_port("SP") == "Cadiz"


def test_eia_ops_s48_columns_of_at_least_one_ship() -> None:
    """ "When combat is joined, each side divides their ships into columns of
    at least one ship."  Asked for 4 columns, 2 ships make 2 columns."""
    assert form_columns(side("A", 2, 0), 4) == (("A1",), ("A2",))
    assert form_columns(side("A", 5, 0), 2) == (("A1", "A3", "A5"), ("A2", "A4"))


def test_eia_ops_s49_carrying_ships_in_one_column() -> None:
    """ "All trade ships and troop carrying ships present must be in the same
    column.\""""
    cols = form_columns(side("A", 4, 0, carrying=3), 3)
    holding = [c for c in cols if any("C" in k for k in c)]
    assert len(holding) == 1 and sum("C" in k for k in holding[0]) == 3


def test_eia_ops_s50_carrying_ships_placed_last() -> None:
    """ "Ships are placed in columns according to the players wishes, except
    for carrying ships which must be placed last."  The carrying ships close
    the last column, after its warships."""
    cols = form_columns(side("A", 3, 0, carrying=2), 2)
    assert cols[-1] == ("A2", "AC1", "AC2")


def test_eia_ops_s51_admirals_placed_into_columns() -> None:
    """ "Admiral present are then placed into columns."  A side forms one
    column per admiral present; a column fights with its admiral's rating."""
    ships = [*side("A", 4, 0, rating=1), ColumnShip("A9", 0, rating=1), *side("B", 2, 1)]
    result = fight(ships, [*QUIET])
    assert len(result.columns[0]) == 2 and len(result.columns[1]) == 1


def test_eia_ops_s52_initiative_to_more_columns_or_manoeuvre_roll() -> None:
    """ "The initiative goes to the side with more columns; in case of tie a
    maneuver roll decides."  Two columns against one: side 0; one against
    one: the roll 2 v 5 gives it to side 1."""
    assert fight(side("A", 2, 0) + side("B", 2, 1), QUIET, (2, 1)).initiative == 0
    assert fight(side("A", 1, 0) + side("B", 1, 1), [2, 5, *QUIET]).initiative == 1


def test_eia_ops_s53_turns_one_column_at_a_time() -> None:
    """ "The players then take turns choosing actions for their columns, one
    column at a time."  Initiative side 0 (three columns against two): its
    column 0, side 1's column 0, its column 1, side 1's column 1, its column 2."""
    result = fight(side("A", 3, 0) + side("B", 2, 1), QUIET, (3, 2))
    assert [(a.side, a.column) for a in result.attacks] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]


def test_eia_ops_s54_available_actions() -> None:
    """ "Available actions are as follows."  Two: attack an enemy column, or
    protect one's own (the text names no other); every column acts once."""
    result = fight(side("A", 2, 0) + side("B", 2, 1), QUIET, (2, 2))
    assert len(result.attacks) == 4 and len({(a.side, a.column) for a in result.attacks}) == 4


def test_eia_ops_s55_attack_enemy_column() -> None:
    """ "Attack enemy column:"  A column attacks the enemy column at its own
    place, or (that one gone) the strongest left."""
    result = fight(side("A", 2, 0) + side("B", 2, 1), QUIET, (2, 2))
    assert [(a.column, a.target_column) for a in result.attacks if a.side == 0] == [(0, 0), (1, 1)]


def test_eia_ops_s56_contest_of_tactical_ratings_first() -> None:
    """ "A contest of tactical ratings of admirals in columns is first taken."
    One die each plus the admiral's rating: 3 + 1 against 4 + 0."""
    ships = side("A", 1, 0, rating=OPS.admiral_rating) + side("B", 1, 1)
    result = fight(ships, [1, 1, 3, 4, *QUIET])
    assert result.attacks[0].contest == (3 + OPS.admiral_rating, 4)


def test_eia_ops_s57_winner_strikes_first_or_defender_evades() -> None:
    """ "The winner gets first strike or in case of defender, may evade
    combat."  The attacker winning 5 v 2 fires first; a smaller defender
    winning 6 v 1 evades (nothing is fired)."""
    won = fight(side("A", 1, 0) + side("B", 1, 1), [1, 1, 5, 2, *QUIET])
    assert won.attacks[0].first == 0 and won.attacks[0].shots[0].ship == "A1"
    evaded = fight(side("A", 2, 0) + side("B", 1, 1), [1, 1, 1, 6, *QUIET])
    assert evaded.attacks[0].evaded and evaded.attacks[0].shots == ()


def test_eia_ops_s58_ships_fire_in_their_order_in_the_column() -> None:
    """ "Ships in column fires upon an enemy ships in the order at which they
    are placed in the column.\""""
    result = fight(side("A", 3, 0) + side("B", 3, 1), [1, 1, 6, 1, *QUIET])
    assert [s.ship for s in result.attacks[0].shots[:3]] == ["A1", "A2", "A3"]


def test_eia_ops_s59_fire_at_the_ship_at_the_same_place() -> None:
    """ "They fire at an enemy ship at the same place in the enemy column as the
    ship firing.\""""
    result = fight(side("A", 3, 0) + side("B", 3, 1), [1, 1, 6, 1, *QUIET])
    assert [(s.ship, s.target) for s in result.attacks[0].shots[:3]] == [
        ("A1", "B1"),
        ("A2", "B2"),
        ("A3", "B3"),
    ]


def test_eia_ops_s60_extra_ships_choose_their_target_unless_carrying() -> None:
    """ "If no enemy ships are left in the column (that is there are more own
    ships firing than enemy ships to be fired at), remaining ships are free to
    choose an enemy ship in the column to fire at, unless the ship is carrying
    troops or trade."  Four against two: A3 and A4 choose (the enemy fired at
    least); a carrying ship beyond them does not fire at a ship already fired at."""
    result = fight(side("A", 4, 0, carrying=1) + side("B", 2, 1), [1, 1, 6, 1, *QUIET])
    shots = [(s.ship, s.target) for s in result.attacks[0].shots if s.ship.startswith("A")]
    assert shots == [("A1", "B1"), ("A2", "B2"), ("A3", "B1"), ("A4", "B2")]


def test_eia_ops_s61_carrying_ships_shoot_only_at_ships_not_yet_fired_at() -> None:
    """ "Carrying ships can only shoot at an enemy ship that has not yet been
    fired at."  One warship and two transports against three: the warship
    fires at B1; the transports at B2 and B3, the ones not yet fired at; and a
    transport at a place already fired at holds its fire."""
    result = fight(side("A", 1, 0, carrying=2) + side("B", 3, 1), [1, 1, 6, 1, *QUIET])
    assert [(s.ship, s.target) for s in result.attacks[0].shots if s.ship.startswith("A")] == [
        ("A1", "B1"),
        ("AC1", "B2"),
        ("AC2", "B3"),
    ]
    crowded = fight(side("A", 2, 0, carrying=1) + side("B", 2, 1), [1, 1, 6, 1, *QUIET])
    assert "AC1" not in [s.ship for s in crowded.attacks[0].shots]


def test_eia_ops_s62_protect_own_column_cut_off() -> None:
    """ "Protect own column:"  The text stops here.  Built as its name says: a
    column that has not yet acted takes an attack aimed at its side's carrying
    column, and that is its action.  (An attacking column goes for the carrying
    column first: that is what an interception is for.)"""
    ships = side("A", 2, 0) + side("B", 2, 1, carrying=1)
    result = fight(ships, QUIET, (2, 2))
    first = result.attacks[0]
    assert first.side == 0 and first.protected_by is not None
    assert not any(a.side == 1 and a.column == first.protected_by for a in result.attacks[1:])
