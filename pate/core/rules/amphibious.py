"""Initial and final amphibious phases (rules 3.6, 3.9; lost section 9)."""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState


def initial_amphibious_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    # rule 3.6: transports begin loading or unloading (section 9, issue open)
    return ts


def final_amphibious_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    # rule 3.9: loading and unloading complete; combat in off-GITM-map ports
    return ts
