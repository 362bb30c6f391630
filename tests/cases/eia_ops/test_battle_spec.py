"""`pate battle` fights a column battle of the EiA new naval rules from a spec
(``"ruleset": "eia-columns"``); its own keys are checked and refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pate.cli.main import main
from pate.datafiles import data_dir

TRAFALGAR = json.loads((data_dir() / "battles" / "trafalgar-1805.json").read_text(encoding="utf-8"))


def _run(tmp_path: Path, spec: dict, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:  # type: ignore[type-arg]
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    code = main(["battle", "--spec", str(path), "--runs", "20", "--seed", "1"])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_example_pate_battle_runs_a_column_battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(tmp_path, {**TRAFALGAR, "ruleset": "eia-columns", "columns": {"A": 2}}, capsys)
    assert code == 0
    got = json.loads(out)
    assert got["ruleset"] == "eia-columns" and got["runs"] == 20
    assert (
        abs(sum(got["wins"].values()) - 1) < 1e-9
        and got["disabled_mean"]["A"] + got["disabled_mean"]["B"] > 0
    )


@pytest.mark.parametrize(
    ("extra", "says"),
    [({"columns": {"C": 2}}, "columns: an object with A and/or B"), ({"admirals": {"A": 99}}, "admirals.A")],
)
def test_column_spec_keys_are_refused_by_name(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: dict,
    says: str,  # type: ignore[type-arg]
) -> None:
    code, _, err = _run(tmp_path, {**TRAFALGAR, "ruleset": "eia-columns", **extra}, capsys)
    assert code != 0 and says in err


def test_a_spec_gives_its_columns_plans(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``"plans"``: the plans of column orders for a side's columns, in their order
    (docs/rules/eia-operations.md, "Column orders"); a plan changes the battle, a plan
    the order format cannot read is refused by name."""
    base = {**TRAFALGAR, "ruleset": "eia-columns", "columns": {"A": 2, "B": 2}}
    _, plain, _ = _run(tmp_path, base, capsys)
    code, planned, _ = _run(tmp_path, {**base, "plans": {"B": ["evade", "evade"]}}, capsys)
    assert code == 0 and json.loads(planned) != json.loads(plain)
    code, _, err = _run(tmp_path, {**base, "plans": {"A": ["attack nowhere"]}}, capsys)
    assert code != 0 and "plans.A[0]: attack: give a column's place" in err
