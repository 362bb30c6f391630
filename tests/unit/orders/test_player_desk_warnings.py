"""The warnings of the web desk's campaign page (PlayerDesk.GetMyCampaign),
read from the open turn's world state with the core's own rules."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from pate.core.world.ships import InAtlantic, InPort, Ship
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from services.orders.mydesk import warnings


@pytest.fixture(scope="module")
def world() -> WorldState:
    return load_scenario("training").world


def _with(world: WorldState, sid: str, **changes: Any) -> tuple[WorldState, Ship]:
    ship = replace(world.ships[sid], **changes)
    return world.with_ships({sid: ship}), ship


def test_no_orders_yet_is_a_warning_until_an_order_is_sent(world: WorldState) -> None:
    ship = world.ships["BR1FL"]
    assert any(
        "no orders yet" in w and "4.11" in w for w in warnings(world, ship, has_orders=False, arrived=False)
    )
    assert not any("no orders yet" in w for w in warnings(world, ship, has_orders=True, arrived=False))


def test_stores_at_the_threshold_or_fewer_warn(world: WorldState) -> None:
    low = int(turn_context().rules.section("supply")["low_stores_warning"])
    w_at, at = _with(world, "BR1FL", stores=low)
    w_above, above = _with(world, "BR1FL", stores=low + 1)
    assert any(f"stores {low}" in w for w in warnings(w_at, at, has_orders=True, arrived=False))
    assert not any("stores" in w for w in warnings(w_above, above, has_orders=True, arrived=False))


def test_out_of_stores_at_sea_sails_home_but_not_in_a_friendly_harbor(world: WorldState) -> None:
    w_sea, at_sea = _with(world, "BR1FL", stores=0)
    assert any(
        "out of stores" in w and "3.4" in w for w in warnings(w_sea, at_sea, has_orders=True, arrived=False)
    )
    w_home, home = _with(world, "BR1FL", stores=0, location=InPort("Portsmouth", harbor=True))
    texts = warnings(w_home, home, has_orders=True, arrived=False)
    assert not any("out of stores" in w for w in texts)
    assert any("stores 0" in w for w in texts)  # still low: it is fed in the supply phase


def test_damage_and_arrival_from_the_atlantic_warn(world: WorldState) -> None:
    w, ship = _with(world, "BR1FL", hull=2, rigging=1)
    texts = warnings(w, ship, has_orders=True, arrived=True)
    assert any("damaged: hull 2, rigging 1" in t for t in texts)
    assert any("just arrived from the Atlantic" in t for t in texts)


def test_a_ship_crossing_the_atlantic_takes_no_orders(world: WorldState) -> None:
    w, ship = _with(world, "BR1FL", location=InAtlantic("NOC", arrives_turn=3, group="g"))
    texts = warnings(w, ship, has_orders=False, arrived=False)
    assert texts == [texts[0]] and "6.11" in texts[0] and "turn 3" in texts[0]
