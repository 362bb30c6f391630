"""The combat rule set of a campaign: PATE's own (section 7, the
default) or the EiA advanced naval rules (12.2.6 to 12.2.9).

The one place the combat phase is chosen: the campaign's world state names its
rule set (``WorldState.combat_rules``, from the scenario or CreateCampaign), so
a replay of a stored turn fights its battles under the same rules.
"""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.combat import combat_phase as pate_combat_phase
from pate.core.rules.context import PhaseFn, TurnContext, TurnState
from pate.core.rules.eia.phase import eia_combat_phase
from pate.core.rules.eiaops.phase import operations_phase
from pate.core.world.state import COMBAT_RULESETS, EIA_OPERATIONS, NAVAL_RULESETS, TurnKind

# the Revolution variant is the EiA phase, which reads the name (12.2.6.1.1)
PHASES: dict[str, PhaseFn] = dict(
    zip(COMBAT_RULESETS, (pate_combat_phase, eia_combat_phase, eia_combat_phase), strict=True)
)


def combat_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    """The combat phase of the campaign's rules: under the EiA new naval rules
    (``naval_rules = "eia-operations"``) battles are fought only in the
    operations they join, so that phase replaces PATE's contact combat."""
    if ts.world.naval_rules not in NAVAL_RULESETS:
        known = ", ".join(NAVAL_RULESETS)
        raise ValueError(f"naval_rules: {ts.world.naval_rules!r} is not a known rule set ({known})")
    if ts.world.kind is TurnKind.PEACE:
        return ts  # rule 6.12: peace and truce turns; no state fights another (docs/rules/combat.md)
    if ts.world.naval_rules == EIA_OPERATIONS:
        return operations_phase(ctx, ts, rng)
    try:
        run = PHASES[ts.world.combat_rules]
    except KeyError:
        known = ", ".join(COMBAT_RULESETS)
        raise ValueError(
            f"combat_rules: {ts.world.combat_rules!r} is not a known rule set ({known})"
        ) from None
    return run(ctx, ts, rng)
