"""Combat (rule 3.7, section 7 and the combat mechanics page).

One battle engine (:func:`fight`) serves the combat phase and the battle
simulator.  Public API:

- :func:`combat_phase` - the phase function of rule 3.7;
- :func:`fight`, :func:`prepare`, :func:`fight_prepared` - the pure engine;
- :class:`Battle`, :class:`BattleShip`, :class:`ShoreBattery`, :class:`BattleResult`;
- :class:`CombatRules` - the constants of ``data/rules/combat.toml``;
- :func:`parse_spec`, :func:`simulate`, :func:`trace` - the simulator.
"""

from pate.core.rules.combat.engine import fight, fight_prepared
from pate.core.rules.combat.model import (
    Battle,
    BattleResult,
    BattleShip,
    Engagement,
    LineResult,
    Outcome,
    ShoreBattery,
    Where,
)
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.combat.phase import combat_phase
from pate.core.rules.combat.prepare import Prepared, prepare
from pate.core.rules.combat.simulate import simulate, trace
from pate.core.rules.combat.spec import BattleSpec, SpecError, parse_spec
from pate.core.rules.combat.strength import battery_strength, ship_strength

__all__ = [
    "Battle",
    "BattleResult",
    "BattleShip",
    "BattleSpec",
    "CombatRules",
    "Engagement",
    "LineResult",
    "Outcome",
    "Prepared",
    "ShoreBattery",
    "SpecError",
    "Where",
    "battery_strength",
    "combat_phase",
    "fight",
    "fight_prepared",
    "parse_spec",
    "prepare",
    "ship_strength",
    "simulate",
    "trace",
]
