"""The per-turn checker (pate.tools.playcheck) on a campaign the bot admirals played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pate.cli.main import main as pate
from pate.tools.playcheck import check_run, main


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("play")
    args = ["campaign", "simulate", "--scenario", "trafalgar", "--turns", "2", "--seed", "5"]
    assert pate([*args, "--bots", "all", "--no-reports", "--strict", "--out", str(out)]) == 0
    return out


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
