"""Whole campaigns of random orders on every scenario and combat rule set
(rule 4.1: any order a player sends is answered; a refusal is an answer, an
exception in the desk's checks, the resolution, the knowledge or the reports
is a defect).  Half the campaigns play under the EiA new naval rules, whose
lead ships declare naval operations.  Over 500 turns here; ``python -m benchmarks fuzz --turns N
--seed S`` plays longer runs.  Seeds are fixed, so a failure names the
scenario, rule set, seed and turn that reproduce it."""

from __future__ import annotations

import pytest

from tests.fuzz.campaign import RULESETS, Campaign, Tally

# (scenario, campaigns per rule set, turns each): 293 turns per rule set, 879 in all, the small
# scenario taking most of them because a turn of it costs a tenth of one of the grand campaign's
# 572 ships. The campaigns of odd seeds play the EiA operations, whose turns cost about 1.4 of
# the others': 16 campaigns instead of 20 keep the CPU time where it was.
PLAN = (("training", 16, 15), ("trafalgar", 3, 15), ("grand1805", 1, 8))

EVERY_SCENARIO = {
    "move",
    "attach",
    "detach",
    "harbor",
    "stores",
    "contact numbers",
    "separate",
    "not into ports",
    *(f"contact {m}" for m in ("pursue", "evade", "accept")),
    *(f"gauge {g}" for g in ("windward", "leeward")),
    *(f"combat {s}" for s in ("engage", "accept", "evade", "run_past")),
    *(f"range {r}" for r in ("range", "close")),
    *(f"line {x}" for x in ("line_ahead", "break")),
    *(f"aim {a}" for a in ("hull", "rigging")),
    *(f"flee {f}" for f in ("harbor", "sea")),
    *(f"commerce {c}" for c in ("raid", "convoy", "ignore")),
    "admin reactivate",
    "admin scuttle",
    "assignment",
}
# transport groups side by side, units on the quay: the training scenario's Portsmouth
TRAINING = {"admin divide", "admin combine", "admin transfer_crew", "load", "stores move"}
# the campaigns of odd seeds play under the EiA new naval rules: lead ships declare operations
OPERATIONS = {f"operation {k}" for k in ("naval_superiority", "rebase", "patrol", "raid")} | {
    "operation columns"
}
# corps aboard transports, chains from a port, all-frigate fleets: what the training scenario has
TRAINING_OPERATIONS = {
    f"operation {k}" for k in ("protect_trade", "supply", "transport", "invasion", "privateer")
}


def naval_rules(seed: int) -> str:
    return "eia-operations" if seed % 2 else "pate"


@pytest.mark.parametrize("rules", RULESETS)
@pytest.mark.parametrize(("scenario", "campaigns", "turns"), PLAN)
def test_random_campaigns_never_crash(scenario: str, campaigns: int, turns: int, rules: str) -> None:
    tally = Tally()
    for seed in range(campaigns):
        tally.add(Campaign(scenario, rules, seed, check_every=4, naval=naval_rules(seed)).play(turns))
    assert not tally.crashes, "\n\n".join(str(c) for c in tally.crashes)
    assert not tally.problems, "\n".join(tally.problems[:20])
    assert tally.turns == campaigns * turns
    # the run said something: orders of every kind were taken, and odd ones refused
    wanted = EVERY_SCENARIO | (TRAINING | TRAINING_OPERATIONS if scenario == "training" else set())
    if campaigns > 1:
        wanted |= OPERATIONS
    assert sorted(wanted - set(tally.accepted)) == []
    assert 0 < tally.refused < tally.sent["order"]
