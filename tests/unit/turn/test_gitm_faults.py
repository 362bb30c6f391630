"""Exactly-once transfers under faults, with conservation proved (docs/gitm.md "Conservation").

A small campaign at Portsmouth (on the GITM map) is played turn after turn by the real core,
the resolver's GITM questions (`land_questions.land_inputs`) and the bridge's delivery (`bridge.deliver`,
retried as the consumer retries it) against the reference land store in this process.  Every
gitm.v1 call meets a fault drawn by hypothesis: GITM down, slow past the deadline, its answer
lost after the work, the call delivered twice, a transfer refused; transports sink or are taken
between the begin and the completion of their transfer.  When GITM is back and the saga has
settled, every unit and every supply is in exactly one place, the same in PATE and in GITM:
a GITM city, aboard a transport, or recorded lost with its event."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.turn.gitm_fault_campaign import random_campaign
from tests.unit.turn.gitm_fault_checks import assert_conserved


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    density=st.sampled_from([0.15, 0.3, 0.5]),
    n_turns=st.integers(2, 3),
)
def test_every_unit_and_supply_is_in_exactly_one_place_after_any_fault_schedule(
    seed: int, density: float, n_turns: int
) -> None:
    assert_conserved(random_campaign(seed, density, n_turns))


@pytest.mark.parametrize(("density", "n_turns"), [(0.3, 2), (0.3, 3)])
def test_a_refused_load_carried_on_by_a_divide_is_undone_from_the_new_group(
    density: float, n_turns: int
) -> None:
    """Conservation: GITM refuses a load (seed 932's schedule) while the same turn's
    divide (rule 2.5) hands some of its units to a new group; the next turn takes them off that
    group too, so no unit is both ashore and aboard."""
    assert_conserved(random_campaign(932, density, n_turns))
