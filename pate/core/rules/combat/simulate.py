"""The battle simulator: one battle fought many times, or once with a trace.

The JSON shapes are a public interface; keep them stable.  Run k of
``simulate(spec, rules, runs, seed)`` uses the stream ``derive_seed(seed, k)``,
so ``trace(spec, rules, seed)`` shows exactly the first run.
"""

from __future__ import annotations

import math
from typing import Any

from pate.core.rng import Rng, derive_seed
from pate.core.rules.combat.engine import fight_prepared
from pate.core.rules.combat.model import BattleResult, Outcome
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.combat.prepare import prepare
from pate.core.rules.combat.spec import SIDES, BattleSpec

# Ships in no battle at all are reported as "evaded" in a trace: the public
# outcome list is fought, evaded, escaped, sunk, captured ("engaged" tells them apart).
_PUBLIC = {Outcome.IDLE: "evaded"}


def run_rng(seed: int, run: int) -> Rng:
    return Rng(derive_seed("battle", seed, run))


def percentile(sorted_values: list[int], pct: int) -> int:
    """Nearest-rank percentile of a sorted, non-empty list."""
    rank = max(1, math.ceil(pct * len(sorted_values) / 100))
    return sorted_values[rank - 1]


def stat(values: list[int]) -> dict[str, float | int]:
    ordered = sorted(values)
    return {
        "mean": round(sum(ordered) / len(ordered), 3),
        "p10": percentile(ordered, 10),
        "p50": percentile(ordered, 50),
        "p90": percentile(ordered, 90),
    }


def simulate(spec: BattleSpec, rules: CombatRules, runs: int, seed: int) -> dict[str, Any]:
    if runs < 1:
        raise ValueError("runs must be at least 1")
    prepared = prepare(spec.battle, rules)
    side_of = prepared.side
    counts = [
        {k: [0] * runs for k in ("sunk", "captured", "lost", "escaped")},
        {k: [0] * runs for k in ("sunk", "captured", "lost", "escaped")},
    ]
    wins = [0, 0]
    draws = 0
    for run in range(runs):
        result = fight_prepared(prepared, run_rng(seed, run))
        if result.winner is None:
            draws += 1
        else:
            wins[result.winner] += 1
        for i, o in enumerate(result.outcome):
            if o is Outcome.SUNK:
                c = counts[side_of[i]]
                c["sunk"][run] += 1
                c["lost"][run] += 1
            elif o is Outcome.CAPTURED:
                c = counts[side_of[i]]
                c["captured"][run] += 1
                c["lost"][run] += 1
            elif o is Outcome.ESCAPED:
                counts[side_of[i]]["escaped"][run] += 1
    sides: dict[str, Any] = {}
    for n, s in enumerate(SIDES):
        sides[s] = {
            "ships": sum(1 for x in side_of if x == n),
            "wins": wins[n],
            **{k: stat(v) for k, v in counts[n].items()},
        }
    return {"runs": runs, "seed": seed, "draws": draws, "sides": sides}


def trace(spec: BattleSpec, rules: CombatRules, seed: int) -> dict[str, Any]:
    result = fight_prepared(prepare(spec.battle, rules), run_rng(seed, 0))
    return trace_dict(spec, result)


def trace_dict(spec: BattleSpec, result: BattleResult) -> dict[str, Any]:
    ships = []
    for i, ship in enumerate(spec.battle.ships):
        o = result.outcome[i]
        captor = result.captor[i]
        ships.append(
            {
                "id": ship.key,
                "side": SIDES[ship.side],
                "type": ship.type.value,
                "strength": round(result.strength[i], 2),
                "outcome": _PUBLIC.get(o, o.value),
                "engaged": o is not Outcome.IDLE,
                "range": "close" if result.close[i] else "range",
                "hull_damage": result.hull[i],
                "rigging_damage": result.rigging[i],
                "crew_lost": result.crew_lost[i],
                "marines_lost": result.marines_lost[i],
                "experience_gained": result.experience_gained[i],
                "captor": spec.battle.ships[captor].key if captor is not None else None,
            }
        )
    return {
        "winner": None if result.winner is None else SIDES[result.winner],
        "ships": ships,
        "engagements": [
            {
                "tier": e.tier,
                "fought": e.fought,
                "winner": None if e.winner is None else SIDES[e.winner],
                "windward": None if e.windward is None else SIDES[e.windward],
                "strength": {"A": round(e.strength[0], 2), "B": round(e.strength[1], 2)},
                "close_quarters": e.close,
                "line": {"A": e.line[0].value, "B": e.line[1].value},
                "evaded_as_a_group": None if e.whole_side_evaded is None else SIDES[e.whole_side_evaded],
            }
            for e in result.engagements
        ],
        "shore_battery_damaged": result.battery_damaged,
    }
