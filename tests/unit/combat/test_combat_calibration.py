"""The calibration tool with few runs: its leave-one-out machinery on a small
subset of the battles (a few seconds), the goals on the five fleet battles of
the shared table, and the published table being the one the specs make.

The full fit (every battle, every candidate of ``data/battles/fit.toml``) is
a tool run: ``python -m pate.tools.calibrate`` (docs/calibration.md).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from pate.datafiles import data_dir
from pate.tools.calibrate import battle_files, calibrate, render
from pate.tools.calibrate_fit import Grid, Knob, Score, best, leave_one_out
from pate.tools.calibrate_loo import fit_rows

FLEET = ("trafalgar-1805.json", "nile-1798.json", "camperdown-1797.json")


def _subset(tmp_path: Path, names: tuple[str, ...]) -> Path:
    for name in names:
        shutil.copy(data_dir() / "battles" / name, tmp_path / name)
    return tmp_path


def test_the_historical_winner_is_the_likeliest_result_in_the_great_fleet_battles(tmp_path: Path) -> None:
    rows = calibrate(runs=150, seed=11, folder=_subset(tmp_path, FLEET))
    assert len(rows) == len(FLEET)
    for row in rows:
        assert row.winner_holds, (row.spec.name, row.summary["sides"], row.summary["draws"])
        assert row.within_two, (row.spec.name, row.historical_lost, row.lost)


def test_leave_one_out_predicts_each_battle_with_constants_chosen_without_it(tmp_path: Path) -> None:
    """Three battles, two candidates: a candidate that loses every prize
    misses the losses of every battle, so each battle's left-out choice is
    the other one, and so is the in-sample choice."""
    folder = _subset(tmp_path, FLEET)
    rows = calibrate(runs=30, seed=3, folder=folder)
    grid = Grid((Knob(("capture", "max_pct"), (0.0, 95.0)),), runs=30, seed=3)
    fit, table = fit_rows(rows, grid)
    assert len(table) == 2 and len(table[0]) == 3
    assert all(not s.losses_ok for s in table[0])  # max_pct 0: nobody is ever taken
    assert fit.in_sample == 1 and [c for c, _ in fit.held_out] == [1, 1, 1]
    text = render(rows, 30, 3, fit=False)
    assert "Leave-one-out" not in text


def test_a_battle_is_judged_by_the_others_only() -> None:
    """best() never looks at the battle left out: with battle 0 left out, the
    candidate that is perfect on battle 0 alone and bad on the rest loses."""
    good = Score(True, 1.0, (10, 0, 0), 1.0)
    bad = Score(False, 0.1, (0, 10, 0), 0.1)
    table = [[good, bad, bad], [bad, good, good]]
    grid = Grid((Knob(("outcome", "luck_sigma"), (0.4, 0.5)),), runs=1, seed=1)
    fit = leave_one_out(table, grid)
    assert best(table, [1, 2]) == 1 and fit.held_out[0] == (1, bad)
    assert fit.in_sample == 1


def test_a_battle_that_does_not_hold_is_reported(tmp_path: Path) -> None:
    rows = calibrate(runs=40, seed=3, folder=_subset(tmp_path, ("nile-1798.json",)))
    (nile,) = rows
    # the Nile's French lost 11 of 13: a fleet that lost none would not hold
    fake = replace(nile, spec=replace(nile.spec, history={**nile.spec.history, "loser_lost": 0}))
    assert not fake.losses_hold and not fake.holds


def test_the_published_table_names_every_battle_and_the_grid() -> None:
    """docs/calibration.md is generated: a spec added, removed or renamed, or
    a knob changed, without running the tool, fails here (cheap: no battle
    is fought)."""
    text = (Path(__file__).resolve().parents[3] / "docs" / "calibration.md").read_text(encoding="utf-8")
    for path in battle_files():
        name = json.loads(path.read_text(encoding="utf-8"))["name"]
        assert f"`{path.name}`" in text and name in text, path.name
    assert text.count("| ") and "## Leave-one-out" in text
    from pate.tools.calibrate_fit import load_grid

    for knob in load_grid().knobs:
        assert f"`{knob.name}` in {list(knob.values)}" in text, knob.name
