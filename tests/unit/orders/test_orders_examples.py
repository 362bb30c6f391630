"""The example order files parse and are accepted in the training scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from pate.core.orders.text import parse_orders
from pate.core.rules.validation.orders import Actor, validate_order
from pate.datafiles import load_rule_data, load_scenario, load_world_map

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "orders").glob("*.txt"))


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_is_accepted_for_its_player(path: Path) -> None:
    """Each file is named ``<player>-<topic>.txt``; that player sends it."""
    world = load_scenario("training").world
    actor = Actor.of(world.players[path.name.split("-")[0]])
    orders = parse_orders(path.read_text(encoding="utf-8"))
    assert orders
    for order in orders:
        assert validate_order(order, actor, world, load_world_map(), load_rule_data()) == [], order.ship_id
