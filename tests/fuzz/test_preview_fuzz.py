"""Previews of random orders (docs/rules/intel.md, "Previews"): each turn some players
preview their draft orders against their knowledge of the turn before, as
``OrderDesk.PreviewOrders`` does; a refusal is an answer, an exception is a defect.
Both naval rule sets, every combat rule set; seeds fixed, so a failure names what
reproduces it."""

from __future__ import annotations

import pytest

from tests.fuzz.campaign import RULESETS, Campaign, Tally


@pytest.mark.parametrize("rules", RULESETS)
@pytest.mark.parametrize(("scenario", "turns"), (("training", 6), ("trafalgar", 4)))
def test_previews_of_random_orders_never_crash(scenario: str, turns: int, rules: str) -> None:
    tally = Tally()
    for seed, naval in ((0, "pate"), (1, "eia-operations")):
        tally.add(Campaign(scenario, rules, seed, check_every=0, naval=naval, previews=3).play(turns))
    assert not tally.crashes, "\n\n".join(str(c) for c in tally.crashes)
    assert tally.sent["preview"] > 0 and tally.accepted["preview played"] > 0
