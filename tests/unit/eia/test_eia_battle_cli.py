"""``pate battle`` with ``"ruleset": "eia-advanced"``: same summary JSON, a trace, refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pate.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def trafalgar(**extra: Any) -> dict[str, Any]:
    spec = json.loads((ROOT / "data" / "battles" / "trafalgar-1805.json").read_text())
    spec.update(extra)
    return spec


def run(tmp_path: Path, spec: dict[str, Any], *args: str) -> int:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(spec))
    return main(["battle", "--spec", str(path), *args])


def test_summary_has_the_pate_shape_and_says_its_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(tmp_path, trafalgar(ruleset="eia-advanced"), "--runs", "200", "--seed", "3") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ruleset"] == "eia-advanced" and out["runs"] == 200
    for side in ("A", "B"):
        for key in ("ships", "wins", "sunk", "captured", "lost", "escaped"):
            assert key in out["sides"][side]
    assert out["sides"]["A"]["wins"] + out["sides"]["B"]["wins"] + out["draws"] == 200
    assert out["sides"]["A"]["wins"] > out["sides"]["B"]["wins"]  # British melee against a French line


def test_trace_is_the_first_run_and_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = trafalgar(ruleset="eia-advanced", eia={"nelson": "A"})
    assert run(tmp_path, spec, "--seed", "9", "--trace") == 0
    first = capsys.readouterr().out
    assert run(tmp_path, spec, "--seed", "9", "--trace") == 0
    assert capsys.readouterr().out == first
    t = json.loads(first)
    assert t["chits"] == {"A": "melee", "B": "linear_defense"}
    assert 1 <= len(t["rounds"]) <= 3 and len(t["ships"]) == 60
    assert t["nelson"] in ("unhurt", "wounded", "killed")
    assert run(tmp_path, spec, "--seed", "9", "--runs", "1") == 0
    one = json.loads(capsys.readouterr().out)
    assert one["sides"][t["winner"]]["wins"] == 1 if t["winner"] else one["draws"] == 1


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (
            trafalgar(ruleset="eia-basic"),
            "ruleset: 'eia-basic' is not a known rule set (pate, eia-advanced, eia-advanced-revolution)",
        ),
        (trafalgar(ruleset="eia-advanced", eia={"kind": "siege"}), "eia.kind: 'siege' is not one of"),
        (trafalgar(eia={"nelson": "A"}), 'eia: only with "ruleset": "eia-advanced"'),
        (trafalgar(ruleset="eia-advanced", eia={"voyage": {"A": -1}}), "eia.voyage.A"),
    ],
)
def test_bad_rule_sets_are_refused_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: dict[str, Any], expected: str
) -> None:
    assert run(tmp_path, spec, "--runs", "5") == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_campaign_simulate_takes_the_rule_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim"
    args = [
        "campaign",
        "simulate",
        "--scenario",
        "training",
        "--turns",
        "1",
        "--no-reports",
        "--out",
        str(out),
    ]
    assert main([*args, "--combat-rules", "eia-advanced"]) == 0
    assert json.loads((out / "turn-1" / "state.json").read_text())["combat_rules"] == "eia-advanced"
    assert main([*args, "--combat-rules", "eia"]) == 2
    assert (
        "--combat-rules: 'eia' is not a known rule set (pate, eia-advanced, eia-advanced-revolution)"
        in capsys.readouterr().err
    )
