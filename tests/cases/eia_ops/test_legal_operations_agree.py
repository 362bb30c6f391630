"""``choices.legal_operations`` searches the map once from the fleet's place
and lets every candidate measure from that search; it offers exactly the
operations, in exactly the order, of the first algorithm, which searched the
map again for every candidate (``legal_oracle``): for every fleet on every
desk of every shipped scenario under the operations rules, with the ranges of
the rules and with ranges that differ (so that the one search must reach the
furthest of them)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pate.core.rules.eiaops.choices import legal_operations
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.steps import Reach, distance
from pate.core.world.state import WorldState
from pate.datafiles import list_scenarios, load_scenario
from pate.engine.context import turn_context
from tests.cases.eia_ops.legal_oracle import desk_fleets, legal_operations_searching_each

CTX = turn_context()
OPS = OpsRules.from_rules(CTX.rules)
RANGES = {
    "the rules'": OPS,
    "rebase furthest": replace(OPS, rebase_steps=5, transport_steps=2, invasion_steps=3),
    "invasion furthest": replace(OPS, rebase_steps=3, transport_steps=4, invasion_steps=8),
}


def _world(name: str) -> WorldState:
    return replace(load_scenario(name).world, naval_rules="eia-operations")


@pytest.mark.parametrize("rules", RANGES.values(), ids=list(RANGES))
@pytest.mark.parametrize("scenario", [p.stem for p in list_scenarios()])
def test_every_desk_offers_what_the_first_algorithm_offered(scenario: str, rules: OpsRules) -> None:
    world = _world(scenario)
    fleets = desk_fleets(world)
    assert fleets
    for fleet in fleets:
        new = legal_operations(CTX.map, world, fleet, rules)
        assert new == legal_operations_searching_each(CTX.map, world, fleet, rules), fleet.lead


def test_the_scenarios_offer_every_kind_of_candidate() -> None:
    """So that the agreement above covers the ranged checks: rebases, blockades,
    transports and invasions, from ports and from sea areas."""
    worlds = [_world(p.stem) for p in list_scenarios()]
    offered = {
        (op.kind, op.blockade, fleet.at_sea)
        for w in worlds
        for fleet in desk_fleets(w)
        for op in legal_operations(CTX.map, w, fleet, OPS)
    }
    kinds = {k.value for k, _, _ in offered}
    assert {"rebase", "transport", "invasion", "protect_trade", "supply"} <= kinds
    assert any(k.value == "rebase" and b for k, b, _ in offered)
    assert any(k.value == "rebase" and sea for k, _, sea in offered)


def test_a_reach_answers_as_a_search_of_its_own() -> None:
    reach = Reach.search(CTX.map, "Brest", 5)
    for node in [*CTX.map.ports, *CTX.map.sea_areas]:
        for limit in (0, 2, 5, 7):
            assert reach.distance(CTX.map, "Brest", node, limit) == distance(CTX.map, "Brest", node, limit)
        assert reach.distance(CTX.map, "Toulon", node, 3) == distance(CTX.map, "Toulon", node, 3)
