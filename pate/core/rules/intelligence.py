"""Intelligence phase (rules 3.10, 5.4)."""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState


def intelligence_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    return ts
