"""`pate campaign simulate --gitm reference`: a headless landing with the reference GITM land
model in process, through the same bridge code the services run (docs/gitm.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pate.cli.main import main


def test_a_headless_landing_is_told_to_the_reference_land_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text("order BR1TR\n  unload units BR1IN\n  load units BR5IN supplies 4\n")
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--orders", str(orders)]
    assert main([*args, "--out", str(out), "--no-reports", "--gitm", "reference"]) == 0
    events = json.loads((out / "turn-1" / "events.json").read_text())
    done = [(e["data"]["direction"], e["data"]["units"]) for e in events if e["kind"] == "transfer_completed"]
    assert done == [("unload", ["BR1IN"]), ("load", ["BR5IN"])]
    state = json.loads((out / "turn-2" / "state.json").read_text())
    assert "BR1IN" in state["ports"]["Portsmouth"]["garrison"]  # and GITM's report of turn 2 agrees
    assert "GITM (reference land model): BR1IN in Portsmouth, BR5IN aboard BR1TR" in capsys.readouterr().out


def test_a_divide_that_moves_a_unit_across_is_told_to_the_reference_land_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule 2.5: Decrès divides FR1TR (12,000, FR2IN aboard, space 5,000) leaving 4,000;
    FR2IN goes across to FR2TR, and the land model, told by ReportCargoMoves, agrees."""
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text("order FR1TR\n  divide 8000\n")
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--orders", str(orders)]
    assert main([*args, "--out", str(out), "--no-reports", "--gitm", "reference"]) == 0
    state = json.loads((out / "turn-1" / "state.json").read_text())
    assert state["ships"]["FR2TR"]["cargo"]["units"] == ["FR2IN"]
    assert "FR2IN aboard FR2TR" in capsys.readouterr().out
