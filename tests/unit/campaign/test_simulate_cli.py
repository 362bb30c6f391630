"""`pate campaign simulate`, the headless engine, through its command line."""

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


def _orders(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "orders"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


BAD = "order BR1FL\n  move NOS IBC\n"  # IBC does not border NOS


def test_a_refused_order_is_reported_and_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orders = _orders(tmp_path, {"turn-1.txt": BAD})
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--orders", str(orders)]
    assert main([*args, "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "turn 1: order refused, left out: BR1FL.movement.sea_areas[1]" in err and "rule 6.2" in err
    refusals = json.loads((tmp_path / "out" / "turn-1" / "refusals.json").read_text())
    assert [r["rule"] for r in refusals] == ["6.2"]
    assert json.loads((tmp_path / "out" / "turn-2" / "state.json").read_text())["turn"] == 3


def test_strict_stops_the_run_at_a_refused_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orders = _orders(tmp_path, {"turn-1.txt": BAD})
    args = ["campaign", "simulate", "--scenario", "training", "--strict", "--orders", str(orders)]
    code = main([*args, "--out", str(tmp_path / "out")])
    assert code == 2
    err = capsys.readouterr().err
    assert "BR1FL" in err and "rule 6.2" in err and "--strict" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out" / "turn-1").exists()


def test_resuming_from_a_saved_turn_gives_the_same_bytes(tmp_path: Path) -> None:
    """--from OUT/turn-K goes on from turn K's state as the full run did."""
    args = ["campaign", "simulate", "--orders", str(EXAMPLES)]
    full, part = tmp_path / "full", tmp_path / "part"
    assert main([*args, "--scenario", "training", "--turns", "3", "--out", str(full)]) == 0
    assert main([*args, "--scenario", "training", "--turns", "3", "--out", str(part)]) == 0
    for turn in (2, 3):
        for f in (part / f"turn-{turn}").rglob("*"):
            if f.is_file():
                f.unlink()
    assert main(["campaign", "simulate", "--from", str(part / "turn-1")]) == 0
    for name in ("state.json", "events.json", "reports/cornwallis.html", "reports/cornwallis.json"):
        assert (full / "turn-3" / name).read_bytes() == (part / "turn-3" / name).read_bytes(), name


def test_resuming_plays_the_turns_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["campaign", "simulate", "--scenario", "training", "--turns", "3", "--out", str(out)]) == 0
    (out / "turn-3" / "state.json").unlink()
    assert main(["campaign", "simulate", "--from", str(out / "turn-1"), "--turns", "1", "--no-reports"]) == 0
    assert (out / "turn-2" / "state.json").exists() and not (out / "turn-3" / "state.json").exists()
    assert main(["campaign", "simulate", "--from", str(out / "turn-1"), "--turns", "5"]) == 2
    assert "the campaign ends with turn 3" in capsys.readouterr().err
    assert main(["campaign", "simulate", "--from", str(tmp_path / "nowhere")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_turns_0_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["campaign", "simulate", "--scenario", "training", "--turns", "0", "--out", str(tmp_path)]) == 2
    )
    assert "--turns" in capsys.readouterr().err
    assert not (tmp_path / "turn-0").exists()


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"turn1.txt": ""}, "not an order file"),
        ({"turn-1.orders": ""}, "not an order file"),
        ({"turn-0.txt": ""}, "not an order file"),
        ({"turn-1.txt": "", "turn-01.txt": ""}, "turn 1 already has its orders"),
        ({"turn-9.txt": ""}, "orders for turn 9, but the run ends with turn 2"),
    ],
)
def test_order_files_are_named_strictly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str], message: str
) -> None:
    orders = _orders(tmp_path, files)
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--no-reports"]
    assert main([*args, "--orders", str(orders), "--out", str(tmp_path / "out")]) == 2
    assert message in capsys.readouterr().err


def test_turn_01_is_turn_1(tmp_path: Path) -> None:
    orders = _orders(tmp_path, {"turn-01.txt": BAD})
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--no-reports"]
    assert main([*args, "--orders", str(orders), "--out", str(tmp_path / "out")]) == 0
    assert json.loads((tmp_path / "out" / "turn-1" / "refusals.json").read_text())


def test_overrides_set_winds_and_rule_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overrides = tmp_path / "o.toml"
    overrides.write_text(
        '[rules.storms.chance]\nlight = 0\nmoderate = 0\nheavy = 0\n\n[winds.2]\nall = "north heavy"\n'
    )
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "2", "--no-reports"]
    assert main([*args, "--overrides", str(overrides), "--out", str(tmp_path / "out")]) == 0
    events = json.loads((tmp_path / "out" / "turn-2" / "events.json").read_text())
    shifts = [e["data"]["before"] for e in events if e["kind"] == "wind_shifted"]
    assert shifts and set(shifts) == {"heavy from the north"}
    assert not [e for e in events if e["kind"] in ("storm", "storm_damage")]  # heavy winds, no storms
    overrides.write_text('[rules.storms.chance]\nlightning = 0\n\n[winds.x]\nall = "up"\n')
    assert main([*args, "--overrides", str(overrides), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "rules.storms.chance.lightning: no such rule number" in err and "winds.x" in err
    overrides.write_text('[winds.3]\nall = "north heavy"\n')
    assert main([*args, "--overrides", str(overrides), "--out", str(tmp_path / "out")]) == 2
    assert "winds for turn 3, but the run ends with turn 2" in capsys.readouterr().err


def test_an_unknown_scenario_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["campaign", "simulate", "--scenario", "atlantis", "--out", str(tmp_path)]) == 2
    assert "atlantis" in capsys.readouterr().err


def test_compact_text_reports(tmp_path: Path) -> None:
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--orders", str(EXAMPLES)]
    assert main([*args, "--out", str(tmp_path / "full")]) == 0
    assert main([*args, "--compact", "--out", str(tmp_path / "compact")]) == 0
    full = (tmp_path / "full" / "turn-1" / "reports" / "barham.txt").read_text()
    compact = (tmp_path / "compact" / "turn-1" / "reports" / "barham.txt").read_text()
    assert "SUMMARY - " in compact and "Ship Report" not in compact and "Ship Report" in full
    assert len(compact.splitlines()) < len(full.splitlines())
    html = tmp_path / "turn-1" / "reports" / "barham.html"
    assert (tmp_path / "full" / html.relative_to(tmp_path)).read_bytes() == (
        tmp_path / "compact" / html.relative_to(tmp_path)
    ).read_bytes()


@pytest.mark.parametrize("number", ["nan", "inf", "-inf"])
def test_an_override_that_is_not_a_finite_number_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str
) -> None:
    overrides = tmp_path / "o.toml"
    overrides.write_text(f"[rules.combat.strength]\ncrew_penalty_per_pct = {number}\n")
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--no-reports"]
    assert main([*args, "--overrides", str(overrides), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"combat.strength.crew_penalty_per_pct: {float(number)} is not a finite number" in err
