"""The calibration check of docs/rules/combat.md, with fewer runs than the published table.

Over 300 runs per battle (the table uses 2,000), the historical winner must be
the likeliest result and the historical loser's ships lost must lie within the
simulated 10th..90th percentiles, their mean within a factor of two of
history, for all five battles of ``data/battles/``.
"""

from __future__ import annotations

from dataclasses import replace

from pate.tools.calibrate import calibrate, render


def test_all_five_historical_battles_hold() -> None:
    rows = calibrate(runs=300, seed=11)
    assert len(rows) == 5
    for row in rows:
        assert row.winner_holds, (row.spec.name, row.summary["sides"], row.summary["draws"])
        assert row.losses_hold, (row.spec.name, row.historical_lost, row.lost)
        assert row.within_two, (row.spec.name, row.historical_lost, row.lost)
    table = render(rows, 300, 11)
    assert table.count("| yes |") == 5


def test_a_battle_that_does_not_hold_is_reported() -> None:
    rows = calibrate(runs=40, seed=3)
    nile = next(r for r in rows if "Nile" in r.spec.name)
    # the Nile's French lost 11 of 13: a fleet that lost none would not hold
    fake = replace(nile, spec=replace(nile.spec, history={**nile.spec.history, "loser_lost": 0}))
    assert not fake.losses_hold and not fake.holds
