"""`pate campaign simulate`, the headless engine, through its command line (issues 2 and 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pate.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "campaign"


@pytest.mark.parametrize("scenario", ["training", "trafalgar", "grand1805"])
def test_every_shipped_scenario_runs_a_turn(scenario: str, tmp_path: Path) -> None:
    assert main(["campaign", "simulate", "--scenario", scenario, "--turns", "1", "--out", str(tmp_path)]) == 0
    state = json.loads((tmp_path / "turn-1" / "state.json").read_text())
    assert state["turn"] == 2
    assert (tmp_path / "turn-0" / "reports").is_dir()
    assert list((tmp_path / "turn-1" / "reports").glob("*.html"))


def test_the_same_run_gives_the_same_bytes(tmp_path: Path) -> None:
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--orders", str(EXAMPLES)]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    assert main([*args, "--out", str(tmp_path / "b")]) == 0
    for name in ("state.json", "events.json", "reports/cornwallis.html"):
        assert (tmp_path / "a" / "turn-2" / name).read_bytes() == (
            tmp_path / "b" / "turn-2" / name
        ).read_bytes()


def test_a_battle_is_fought_on_the_first_turn_of_the_training_scenario(tmp_path: Path) -> None:
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--orders", str(EXAMPLES)]
    assert main([*args, "--out", str(tmp_path)]) == 0
    events = json.loads((tmp_path / "turn-1" / "events.json").read_text())
    assert any(e["kind"] == "battle" for e in events)


def test_refused_orders_stop_the_run_with_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text("order BR1FL\n  move NOS IBC\n")  # IBC does not border NOS
    code = main(
        ["campaign", "simulate", "--scenario", "training", "--orders", str(orders), "--out", str(tmp_path)]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "BR1FL" in err and "rule 6.2" in err
    assert "Traceback" not in err


def test_an_unknown_scenario_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["campaign", "simulate", "--scenario", "atlantis", "--out", str(tmp_path)]) == 2
    assert "atlantis" in capsys.readouterr().err
