"""Battle specs for ``pate battle`` under the EiA rules (``"ruleset": "eia-advanced"``).

The spec is PATE's (:func:`pate.core.rules.combat.parse_spec`) with two more
top-level keys: ``ruleset`` and an optional ``eia`` object::

    "eia": {"kind": "open_sea" | "blockade" | "port_raid",
            "attacker": "A",              # default: the side ordered to engage
            "chits": {"A": "melee"},      # default: from the side's combat orders
            "nelson": "A",                # the side Nelson commands, if any
            "harbor_defense": 3,          # port raids: the defence number
            "voyage": {"A": 1, "B": 1}}   # movement points to port (null: none)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pate.core.orders.model import CombatStance
from pate.core.rules.combat.model import BattleShip
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.combat.spec import SIDES, BattleSpec, SpecError, parse_spec
from pate.core.rules.eia.chits import chit_of, side_chit
from pate.core.rules.eia.model import EiaBattle, EiaShip, Kind
from pate.core.rules.eia.params import Chit
from pate.core.world.state import COMBAT_RULESETS

PATE, EIA, EIA_REVOLUTION = COMBAT_RULESETS
EIA_RULESETS = (EIA, EIA_REVOLUTION)
RULESETS = COMBAT_RULESETS
_EIA_KEYS = {"kind", "attacker", "chits", "nelson", "harbor_defense", "voyage"}


def check_ruleset(name: Any, path: str = "ruleset") -> str:
    """Unknown names are refused with the list of the known ones."""
    if name not in RULESETS:
        raise SpecError(f"{path}: {name!r} is not a known rule set ({', '.join(RULESETS)})")
    return str(name)


def split_spec(raw: Any) -> tuple[str, Any, Mapping[str, Any]]:
    """(rule set, PATE spec without the EiA keys, the ``eia`` object)."""
    if not isinstance(raw, Mapping):
        raise SpecError("spec: must be an object")
    ruleset = check_ruleset(raw.get("ruleset", PATE))
    extra = raw.get("eia", {})
    if not isinstance(extra, Mapping):
        raise SpecError("eia: must be an object")
    if extra and ruleset not in EIA_RULESETS:
        raise SpecError('eia: only with "ruleset": "eia-advanced" or "eia-advanced-revolution"')
    for k in extra:
        if k not in _EIA_KEYS:
            raise SpecError(f"eia.{k}: unknown field (expected one of {', '.join(sorted(_EIA_KEYS))})")
    rest = {k: v for k, v in raw.items() if k not in ("ruleset", "eia")}
    return ruleset, rest, extra


@dataclass(frozen=True, slots=True)
class EiaSpec:
    pate: BattleSpec
    battle: EiaBattle


def parse_eia_spec(raw: Any, combat_rules: CombatRules) -> EiaSpec:
    ruleset, rest, extra = split_spec(raw)
    revolution = ruleset == EIA_REVOLUTION
    spec = parse_spec(rest, combat_rules)
    ships = spec.battle.ships
    eia_ships = tuple(EiaShip(s.key, s.side, spec.states[s.side], s.type) for s in ships)
    kind = _choice(Kind, extra.get("kind", "open_sea"), "eia.kind")
    attacker = _side(extra.get("attacker"), "eia.attacker")
    if attacker is None:
        attacker = default_attacker(ships)
    chits_raw = extra.get("chits", {})
    if not isinstance(chits_raw, Mapping):
        raise SpecError("eia.chits: must be an object")
    chits = [
        side_chit(chit_of(s.stance, s.range, s.line, revolution=revolution) for s in ships if s.side == n)
        for n in (0, 1)
    ]
    for k, v in chits_raw.items():
        n = _side(k, "eia.chits")
        assert n is not None
        chits[n] = _choice(Chit, v, f"eia.chits.{k}")
        if revolution and chits[n] is Chit.MELEE:
            raise SpecError(f"eia.chits.{k}: the Revolution variant removes the melee chits (12.2.6.1.1)")
    voyage_raw = extra.get("voyage", {})
    if not isinstance(voyage_raw, Mapping):
        raise SpecError("eia.voyage: must be an object")
    voyage: list[int | None] = [1, 1]
    for k, v in voyage_raw.items():
        n = _side(k, "eia.voyage")
        assert n is not None
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 99):
            raise SpecError(f"eia.voyage.{k}: {v!r} is not a whole number 0..99 or null")
        voyage[n] = v
    defense = extra.get("harbor_defense", 0)
    if isinstance(defense, bool) or not isinstance(defense, int) or not 0 <= defense <= 100:
        raise SpecError(f"eia.harbor_defense: {defense!r} is not a whole number 0..100")
    battle = EiaBattle(
        ships=eia_ships,
        kind=kind,
        attacker=attacker,
        chits=(chits[0], chits[1]),
        nelson=_side(extra.get("nelson"), "eia.nelson"),
        harbor_defense=defense,
        voyage=(voyage[0], voyage[1]),
    )
    return EiaSpec(spec, battle)


def default_attacker(ships: tuple[BattleShip, ...]) -> int:
    """The side with more ships ordered to Engage or Run Past; a tie: side A."""
    eager = [0, 0]
    for s in ships:
        if s.stance in (CombatStance.ENGAGE, CombatStance.RUN_PAST):
            eager[s.side] += 1
    return 1 if eager[1] > eager[0] else 0


def _side(raw: Any, path: str) -> int | None:
    if raw is None:
        return None
    if raw not in SIDES:
        raise SpecError(f"{path}: {raw!r} is not A or B")
    return SIDES.index(raw)


def _choice(kind: Any, raw: Any, path: str) -> Any:
    try:
        return kind(raw)
    except ValueError:
        allowed = " | ".join(str(m.value) for m in kind)
        raise SpecError(f"{path}: {raw!r} is not one of {allowed}") from None
