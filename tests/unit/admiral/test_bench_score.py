"""The bots bench's score counts the trade the EiA operations rules let a
raider take (trade ships on their routes) as it counts rule 4.8's merchants:
lost by the state raided, taken by the raider's side."""

from __future__ import annotations

from benchmarks.bench_bots import score
from pate.core.events import Event, Phase
from pate.datafiles import load_scenario


def test_trade_ships_taken_on_a_route_count_for_the_raider_and_against_the_raided() -> None:
    world = load_scenario("training").world
    data = {"state": "BR", "by": "FR", "route": "r", "taken": 3}
    raided = Event(Phase.COMBAT, "trade_ships_taken", (), "ECH", (), data)
    sides = {frozenset(s.states): s for s in score(world, world, [raided]).sides}
    britain = next(s for states, s in sides.items() if "BR" in states)
    france = next(s for states, s in sides.items() if "FR" in states)
    assert (britain.trade_lost, britain.trade_taken) == (3, 0)
    assert (france.trade_lost, france.trade_taken) == (0, 3)
    assert france.balance > 0 > britain.balance
