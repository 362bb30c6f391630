"""The play-test bot and the per-turn checker (pate.tools.playbot, pate.tools.playcheck)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pate.core.orders.text import parse_orders
from pate.datafiles import load_world_map
from pate.tools.playbot import orders_text, play, read_reports
from pate.tools.playcheck import check_run, main


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("play")
    assert play("trafalgar", 2, 5, out, None) == 0
    return out


def test_bot_orders_parse_are_refused_by_no_desk_and_move_fleets(played: Path) -> None:
    """Every order the bot wrote passed the order desk (no refusal left out)
    and fleets left port: the campaign is played, not sat out."""
    for turn in (1, 2):
        assert json.loads((played / f"turn-{turn}" / "refusals.json").read_text()) == []
        orders = parse_orders((played / "orders" / f"turn-{turn:02d}.txt").read_text())
        assert any(o.movement.sea_areas for o in orders)
    kinds = {
        e["kind"] for t in (1, 2) for e in json.loads((played / f"turn-{t}" / "events.json").read_text())
    }
    assert {"sailed", "met_enemy"} <= kinds


def test_bot_orders_only_ships_of_the_report_and_are_repeatable(played: Path) -> None:
    reports = read_reports(played / "turn-0" / "reports")
    text = orders_text(reports, load_world_map(), 5)
    assert text == (played / "orders" / "turn-01.txt").read_text()
    villeneuve = [r for r in reports if r["player"] == "villeneuve"]
    own = {s["id"] for s in villeneuve[0]["ships"]}
    assert {o.ship_id for o in parse_orders(orders_text(villeneuve, load_world_map(), 5))} <= own


def test_checker_passes_a_played_campaign(played: Path) -> None:
    assert check_run(played) == []


def test_checker_names_what_a_broken_turn_did(played: Path, tmp_path: Path) -> None:
    for turn in (0, 1):
        (tmp_path / f"turn-{turn}").mkdir()
        (tmp_path / f"turn-{turn}" / "events.json").write_text("[]")
    (tmp_path / "turn-0" / "state.json").write_text((played / "turn-0" / "state.json").read_text())
    state = json.loads((played / "turn-0" / "state.json").read_text())
    gone = sorted(state["ships"])[0]
    del state["ships"][gone]
    some = sorted(state["ships"])[0]
    state["ships"][some]["stores"] = -1
    unit = sorted(state["land_units"])[0]
    state["land_units"]["XX1IN"] = {**state["land_units"][unit], "id": "XX1IN"}  # placed nowhere
    (tmp_path / "turn-1" / "state.json").write_text(json.dumps(state))
    problems = check_run(tmp_path)
    assert f"turn 1: {gone} left the world with no event naming it" in problems
    assert f"turn 1: ships.{some}.stores is -1" in problems
    assert "turn 1: land unit XX1IN is in no garrison and aboard no transport group" in problems
    assert main([str(tmp_path)]) == 1


def test_checker_refuses_a_ship_id_written_twice(tmp_path: Path) -> None:
    (tmp_path / "turn-0").mkdir()
    (tmp_path / "turn-0" / "events.json").write_text("[]")
    (tmp_path / "turn-0" / "state.json").write_text('{"ships": {"BR1SL": {}, "BR1SL": {}}}')
    assert check_run(tmp_path) == ["turn 0: keys written twice: BR1SL"]
