"""``pate battle`` under the EiA rules: the same summary JSON as PATE's simulator.

Run k uses the stream ``derive_seed("battle", seed, k)`` as PATE's does, so
``trace`` shows exactly the first run.  Counting for the summary: ``sunk`` is
a disabled ship lost en route, ``captured`` a ship that ends in the enemy's
hands (a disabled ship the victor brought home as a hulk, or a transport group
taken), ``escaped`` a ship of the defeated side that retreated; ``hulks`` and
``disabled`` are EiA's own additions.
"""

from __future__ import annotations

from typing import Any

from pate.core.rules.combat.simulate import run_rng, stat
from pate.core.rules.combat.spec import SIDES
from pate.core.rules.eia.engine import fight_eia
from pate.core.rules.eia.model import EiaResult, Fate, Kind
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eia.spec import EIA, EiaSpec

_KEYS = ("sunk", "captured", "lost", "escaped", "disabled", "hulks")
_PUBLIC = {
    Fate.FOUGHT: "fought",
    Fate.RETREATED: "escaped",
    Fate.RETURNED: "escaped",
    Fate.WITHDRAWN: "fought",
    Fate.LOST: "sunk",
    Fate.CAPTURED: "captured",
    Fate.IDLE: "evaded",
}


def public_outcome(result: EiaResult, i: int, side: int) -> str:
    fate = result.fate[i]
    if fate is Fate.HULK:
        return "captured" if result.owner[i] != side else "hulk"
    return _PUBLIC[fate]


def simulate_eia(spec: EiaSpec, rules: EiaRules, runs: int, seed: int) -> dict[str, Any]:
    if runs < 1:
        raise ValueError("runs must be at least 1")
    battle = spec.battle
    counts = [{k: [0] * runs for k in _KEYS} for _ in SIDES]
    wins = [0, 0]
    draws = 0
    for run in range(runs):
        result = fight_eia(battle, rules, run_rng(seed, run))
        if result.winner is None:
            draws += 1
        else:
            wins[result.winner] += 1
        for i, s in enumerate(battle.ships):
            c = counts[s.side]
            out = public_outcome(result, i, s.side)
            if result.disabled_in[i]:
                c["disabled"][run] += 1
            if out == "hulk":
                c["hulks"][run] += 1
            elif out in ("sunk", "captured"):
                c[out][run] += 1
                c["lost"][run] += 1
            elif out == "escaped":
                c["escaped"][run] += 1
    sides: dict[str, Any] = {}
    for n, name in enumerate(SIDES):
        sides[name] = {
            "ships": sum(1 for s in battle.ships if s.side == n),
            "wins": wins[n],
            **{k: stat(v) for k, v in counts[n].items()},
        }
    return {"runs": runs, "seed": seed, "draws": draws, "ruleset": EIA, "sides": sides}


def trace_eia(spec: EiaSpec, rules: EiaRules, seed: int) -> dict[str, Any]:
    battle = spec.battle
    result = fight_eia(battle, rules, run_rng(seed, 0))
    return trace_dict(spec, result)


def _side(n: int | None) -> str | None:
    return None if n is None else SIDES[n]


def trace_dict(spec: EiaSpec, result: EiaResult) -> dict[str, Any]:
    battle = spec.battle
    return {
        "ruleset": EIA,
        "kind": battle.kind.value,
        "attacker": SIDES[battle.attacker],
        # 12.2.6.2 and 12.2.6.3.2: no tactical chits are chosen in blockade battles and raids
        "chits": {SIDES[n]: battle.chits[n].value for n in (0, 1)} if battle.kind is Kind.OPEN_SEA else None,
        "winner": _side(result.winner),
        "morale": {SIDES[n]: result.morale[n] for n in (0, 1)},
        "morale_lost": {SIDES[n]: result.morale_lost[n] for n in (0, 1)},
        "broken": {SIDES[n]: result.broken[n] for n in (0, 1)},
        "harbor_defenses": None
        if result.harbor_fire is None
        else {"roll": result.harbor_fire.roll, "disabled": result.harbor_fire.disabled},
        "rounds": [
            {
                "round": r.number,
                "tables": {SIDES[n]: r.tables[n] for n in (0, 1)},
                "dice": {SIDES[n]: r.dice[n] for n in (0, 1)},
                "modifiers": {SIDES[n]: r.modifiers[n] for n in (0, 1)},
                "disabled": {SIDES[n]: r.disabled[n] for n in (0, 1)},
                "morale_inflicted": {SIDES[n]: r.morale[n] for n in (0, 1)},
                "melee_closed": r.closed,
            }
            for r in result.rounds
        ],
        "chase": None
        if result.chase is None
        else {"table": result.chase.table, "roll": result.chase.roll, "disabled": result.chase.disabled},
        "nelson": None if result.nelson is None else result.nelson.value,
        "ships": [
            {
                "id": s.key,
                "side": SIDES[s.side],
                "type": s.type.value,
                "outcome": public_outcome(result, i, s.side),
                "fate": result.fate[i].value,
                "engaged": result.fate[i] is not Fate.IDLE,
                "disabled_in_round": result.disabled_in[i] or None,
                "owner": _side(result.owner[i]),
            }
            for i, s in enumerate(battle.ships)
        ],
    }
