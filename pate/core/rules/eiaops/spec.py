"""`pate battle` with a spec of ``"ruleset": "eia-columns"``: the column combat
of the EiA new naval rules (docs/rules/eia-operations.md) fought from the
same battle spec as PATE's and EiA's advanced rules (docs/formats/simulate.md).

The ships are the spec's; transport groups are the carrying ships.  An
optional ``"columns": {"A": n, "B": m}`` asks each side for that many columns
(default: one per admiral, that is one, since a spec names no admirals), and
``"admirals": {"A": rating}`` gives a side's first column an admiral of that
tactical rating; ``"plans": {"A": ["attack carrying then evade", ...]}`` gives a
side's columns, in their order, the plans of column orders (docs/formats/orders.md,
the ``plan`` of a ``column`` line).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pate.core.orders.column_text import read_plan
from pate.core.orders.operation import ColumnStep
from pate.core.rng import Rng
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.combat.spec import BattleSpec, SpecError, parse_spec
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eiaops.columns import ColumnResult, ColumnShip, fight_columns
from pate.core.rules.eiaops.params import OpsRules
from pate.core.world.ships import ShipType

COLUMNS = "eia-columns"
_SIDES = {"A": 0, "B": 1}
MAX_RATING = 9
PLAN_TEXT_MAX = 200


def _per_side(raw: Any, path: str, hi: int) -> tuple[int, int]:
    if raw is None:
        return (0, 0)
    if not isinstance(raw, Mapping) or set(raw) - set(_SIDES):
        raise SpecError(f"{path}: an object with A and/or B")
    out = [0, 0]
    for name, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
            raise SpecError(f"{path}.{name}: a whole number from 0 to {hi}")
        out[_SIDES[name]] = value
    return out[0], out[1]


def parse_columns_spec(
    raw: Any, combat: CombatRules, ops: OpsRules
) -> tuple[BattleSpec, list[ColumnShip], tuple[int, int]]:
    if not isinstance(raw, Mapping):
        raise SpecError("spec: must be an object")
    rest = {k: v for k, v in raw.items() if k not in ("ruleset", "columns", "admirals", "plans")}
    spec = parse_spec(rest, combat)
    columns = _per_side(raw.get("columns"), "columns", ops.max_columns)
    ratings = _per_side(raw.get("admirals"), "admirals", MAX_RATING)
    admirals = raw.get("admirals") or {}
    ships, first = [], [True, True]
    for s in spec.battle.ships:
        rating = None
        if first[s.side] and any(_SIDES[n] == s.side for n in admirals):
            rating = ratings[s.side]
        first[s.side] = False
        fire = ops.fire_modifier(s.quality, s.type.value)
        ships.append(ColumnShip(s.key, s.side, s.type is ShipType.TR, rating, fire))
    return spec, ships, columns


Plans = tuple[tuple[tuple[ColumnStep, ...], ...], tuple[tuple[ColumnStep, ...], ...]]


def parse_plans_spec(raw: Mapping[str, Any], ops: OpsRules) -> Plans:
    """``"plans"``: for side A and/or B, a plan a column, at most the most columns."""
    given = raw.get("plans")
    if given is None:
        return ((), ())
    if not isinstance(given, Mapping) or set(given) - set(_SIDES):
        raise SpecError("plans: an object with A and/or B")
    out: list[tuple[tuple[ColumnStep, ...], ...]] = [(), ()]
    for name, texts in given.items():
        path = f"plans.{name}"
        if not isinstance(texts, list) or len(texts) > ops.max_columns:
            raise SpecError(f"{path}: a list of at most {ops.max_columns} plans, one a column")
        plans = []
        for i, text in enumerate(texts):
            if not isinstance(text, str) or len(text) > PLAN_TEXT_MAX:
                raise SpecError(f"{path}[{i}]: a plan of at most {PLAN_TEXT_MAX} characters")
            try:
                plans.append(read_plan(text))
            except ValueError as exc:
                raise SpecError(f"{path}[{i}]: {exc}") from None
        out[_SIDES[name]] = tuple(plans)
    return out[0], out[1]


def simulate_columns(
    ships: list[ColumnShip],
    columns: tuple[int, int],
    ops: OpsRules,
    eia: EiaRules,
    runs: int,
    seed: int,
    plans: Plans = ((), ()),
) -> dict[str, Any]:
    wins = [0, 0, 0]  # side A, side B, undecided
    disabled = [0, 0]
    for k in range(runs):
        rng = Rng.for_phase(seed, k, "columns")
        result: ColumnResult = fight_columns(ships, ops, eia, rng, columns, plans=plans)
        wins[2 if result.winner is None else result.winner] += 1
        for key in result.disabled:
            disabled[next(s.side for s in ships if s.key == key)] += 1
    return {
        "ruleset": COLUMNS,
        "runs": runs,
        "wins": {"A": wins[0] / runs, "B": wins[1] / runs, "undecided": wins[2] / runs},
        "disabled_mean": {"A": disabled[0] / runs, "B": disabled[1] / runs},
    }
