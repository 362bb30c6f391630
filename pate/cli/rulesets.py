"""The rule sets a campaign started from the command line plays: the
scenario's, or those named by --combat-rules and --naval-rules."""

from __future__ import annotations

from dataclasses import replace

from pate.cli.main import UserError
from pate.core.world.state import COMBAT_RULESETS, NAVAL_RULESETS, WorldState


def with_combat_rules(world: WorldState, name: str | None) -> WorldState:
    """The scenario's world under another combat rule set; unknown names are
    refused with the list of the known ones."""
    if name is None:
        return world
    if name not in COMBAT_RULESETS:
        raise UserError(f"--combat-rules: {name!r} is not a known rule set ({', '.join(COMBAT_RULESETS)})")
    return replace(world, combat_rules=name)


def with_naval_rules(world: WorldState, name: str | None) -> WorldState:
    """The scenario's world under another naval rule set (docs/rules/eia-operations.md)."""
    if name is None:
        return world
    if name not in NAVAL_RULESETS:
        raise UserError(f"--naval-rules: {name!r} is not a known rule set ({', '.join(NAVAL_RULESETS)})")
    return replace(world, naval_rules=name)
