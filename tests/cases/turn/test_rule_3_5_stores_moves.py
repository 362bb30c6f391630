"""Rule cases for rule 3.5: the naval minister moves stores between ports."""

from __future__ import annotations

from pate.core.orders.model import StoresMove
from pate.core.ruledata import parse_rules
from pate.core.rules.context import TurnContext
from pate.core.rules.stores import check_stores_move
from tests.cases.turn.turn_world import CTX, events, harbor, run, sea, ship, world

PORTS = {
    "Brest": {"stores": 200},
    "Cherbourg": {"stores": 0},
    "Rochefort": {"stores": 50},
    "Toulon": {"stores": 0},
}


def _moved(result: object) -> list[tuple[str, str, int]]:
    return [
        (e.data["origin"], e.data["destination"], e.data["amount"]) for e in events(result, "stores_moved")
    ]  # type: ignore[arg-type]


def test_rule_3_5_stores_move_between_ports_on_the_same_or_adjacent_sea_areas() -> None:
    """3.5: "Stores may also be moved from one port to another if both ports are connected to the
    same sea area or adjacent sea areas, and there are no hostile ships in either port or in the
    connected sea area(s)." Brest and Cherbourg are on the Channel; Rochefort on the adjacent
    Bay of Biscay."""
    w = world([], ports=PORTS)
    r = run(w, moves=[StoresMove("FR", "Brest", "Cherbourg", 30), StoresMove("FR", "Brest", "Rochefort", 20)])
    assert _moved(r) == [("Brest", "Cherbourg", 30), ("Brest", "Rochefort", 20)]
    assert (r.state.ports["Brest"].stores, r.state.ports["Cherbourg"].stores) == (150, 30)
    assert r.state.ports["Rochefort"].stores == 70


def test_rule_3_5_ports_on_sea_areas_that_do_not_border_need_a_land_route() -> None:
    """3.5: Brest (Channel) and Toulon (Gulf of Lions) are neither on adjacent sea areas nor
    listed as in contact overland: refused.  With the pair listed as a land route (the
    "10 strategic squares ... in contact" of GITM, data/rules/supply.toml) the move is made."""
    w = world([], ports=PORTS)
    move = StoresMove("FR", "Brest", "Toulon", 10)
    assert _moved(run(w, moves=[move])) == []
    raw = {k: dict(v) for k, v in CTX.rules.sections.items()}
    raw["supply"] = {
        **raw["supply"],
        "stores_moves": {"max_per_port": 60, "land_routes": [["Toulon", "Brest"]]},
    }
    ctx = TurnContext(map=CTX.map, rules=parse_rules(raw))
    assert _moved(run(w, moves=[move], ctx=ctx)) == [("Brest", "Toulon", 10)]


def test_rule_3_5_no_sea_move_with_hostile_ships_in_a_port_or_the_connected_sea_area() -> None:
    """3.5: "... and there are no hostile ships in either port or in the connected sea area(s)." """
    move = [StoresMove("FR", "Brest", "Rochefort", 10)]
    assert _moved(run(world([ship("BR1FR", sea("BIS"))], ports=PORTS), moves=move)) == []
    assert _moved(run(world([ship("BR1FR", harbor("Kobenhavn"))], ports=PORTS), moves=move)) != []
    blockaded = world([ship("BR1SL", sea("ECH"))], ports=PORTS)
    refusals = check_stores_move(move[0], blockaded, CTX.map, CTX.rules, truth=True)
    assert [r.rule for r in refusals] == ["3.5"]


def test_rule_3_5_the_desk_refuses_only_for_hostile_ships_the_minister_knows_of() -> None:
    """3.5 with 3.11 and 5.1 (the fog of war): no French ship sees BR1SL in the Channel, so the
    order desk takes the move, and the refusal is the supply phase's (``stores_move_refused``),
    an outcome of the turn; with a French ship alongside BR1SL the desk refuses it."""
    move = StoresMove("FR", "Brest", "Rochefort", 10)
    unseen = world([ship("BR1SL", sea("ECH"))], ports=PORTS)
    assert check_stores_move(move, unseen, CTX.map, CTX.rules) == []
    assert [e.data["destination"] for e in events(run(unseen, moves=[move]), "stores_move_refused")] == [
        "Rochefort"
    ]
    seen = world([ship("BR1SL", sea("ECH")), ship("FR1FR", sea("ECH"))], ports=PORTS)
    assert [r.rule for r in check_stores_move(move, seen, CTX.map, CTX.rules)] == ["3.5"]


def test_rule_3_5_no_port_originates_more_than_60_stores_a_turn() -> None:
    """3.5: "no port may originate movement of more than 60 units of stores per turn." """
    w = world([], ports=PORTS)
    r = run(w, moves=[StoresMove("FR", "Brest", "Cherbourg", 40), StoresMove("FR", "Brest", "Rochefort", 40)])
    assert _moved(r) == [("Brest", "Cherbourg", 40)]
    refused = events(r, "stores_move_refused")
    assert len(refused) == 1 and "60" in refused[0].data["reasons"][0]["message"]


def test_rule_3_5_stores_move_only_from_the_port_where_they_began_the_turn() -> None:
    """3.5: "Stores may be moved only from the port in which they began the turn (ie, stores
    cannot make two consecutive moves on one turn)." Cherbourg starts empty: the stores arriving
    from Brest cannot go on to Le Havre the same turn."""
    w = world([], ports={**PORTS, "Le Havre": {"stores": 0}})
    moves = [StoresMove("FR", "Brest", "Cherbourg", 30), StoresMove("FR", "Cherbourg", "Le Havre", 30)]
    r = run(w, moves=moves)
    assert _moved(r) == [("Brest", "Cherbourg", 30)]
    assert r.state.ports["Le Havre"].stores == 0


def test_rule_3_5_the_minister_moves_his_own_states_stores_to_his_side() -> None:
    """3.5 (decision): the origin must be held by the minister's state, the destination by it or
    an active ally; Britain cannot send stores from Brest, France can send them to allied
    Spanish Bilbao but not to British Plymouth."""
    w = world([], ports=PORTS)
    moves = [
        StoresMove("BR", "Brest", "Plymouth", 5),
        StoresMove("FR", "Brest", "Plymouth", 5),
        StoresMove("FR", "Rochefort", "Bilbao", 5),
    ]
    assert _moved(run(w, moves=moves)) == [("Rochefort", "Bilbao", 5)]
