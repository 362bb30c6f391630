"""Combat phase (rule 3.7, section 7). Filled in by the battle engine."""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState


def combat_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    return ts
