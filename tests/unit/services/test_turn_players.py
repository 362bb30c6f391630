"""The one definition of the players a turn waits for (docs/rules/turn.md),
shared by the early close, the solo close and civil disorder."""

from __future__ import annotations

from dataclasses import replace

from pate.core.world.ships import InAtlantic
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from services.orders import admirals, civil, confirm
from services.orders.turn_players import players_with_ships


def _training() -> WorldState:
    return load_scenario("training").world


def _without_ships_of(world: WorldState, player: str) -> WorldState:
    ships = {
        k: replace(s, commander=None if s.commander == player else s.commander, deputy=None)
        for k, s in world.ships.items()
    }
    return replace(world, ships=ships)


def test_commanders_deputies_and_ministers_are_counted_not_the_game_master() -> None:
    assert players_with_ships(_training()) == [
        "allemand",
        "barham",
        "calder",
        "cornwallis",
        "decres",
        "ganteaume",
    ]


def test_a_naval_minister_without_a_ship_of_his_own_still_has_orders_to_give() -> None:
    world = _without_ships_of(_training(), "barham")
    assert all("barham" not in (s.commander, s.deputy) for s in world.ships.values())
    assert "barham" in players_with_ships(world)


def test_a_commander_whose_ships_all_cross_the_atlantic_is_not_waited_for() -> None:
    world = _training()
    crossing = InAtlantic(destination="X", arrives_turn=4, group="g")
    ships = {
        k: replace(s, location=crossing) if s.commander == "calder" else s for k, s in world.ships.items()
    }
    assert "calder" not in players_with_ships(replace(world, ships=ships))
    assert "calder" in players_with_ships(world)


def test_a_commander_of_inactive_ships_alone_is_not_waited_for() -> None:
    world = _training()
    ships = {k: replace(s, active=False) if s.commander == "allemand" else s for k, s in world.ships.items()}
    assert "allemand" not in players_with_ships(replace(world, ships=ships))


def test_the_early_close_the_solo_close_and_civil_disorder_share_the_definition() -> None:
    assert confirm.players_with_ships is players_with_ships
    assert civil.players_with_ships is players_with_ships
    assert admirals.players_with_ships is players_with_ships
