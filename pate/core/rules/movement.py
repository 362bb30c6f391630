"""Movement phase (rules 3.8, 6.5). Filled in by the movement engine."""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState


def movement_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    return ts
