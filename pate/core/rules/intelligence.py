"""Intelligence phase (rules 3.10, 5.2, 5.3, 5.4): naval intelligence is generated.

Everything a player learns by chance this turn is drawn here and emitted as
events (kinds in :mod:`pate.core.rules.gathering`) seen by the ships that
learned it, so that the knowledge built after the turn needs no dice.  The
phase changes nothing in the world.
"""

from __future__ import annotations

from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.gathering import (
    IntelRules,
    garrison_events,
    intelligence_events,
    land_unit_events,
    scouting_events,
    shore_events,
)


def intelligence_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    rules = IntelRules.from_section(ctx.rules.section("intel"))
    world = ts.world
    events = [
        *scouting_events(ctx.map, world, ts.orders, rules.scouting, rng.fork("scouting")),  # 5.2
        *land_unit_events(ctx.map, world, rules.land, rng.fork("land")),  # 5.3
        *shore_events(ctx.map, world),  # 5.3
    ]
    if ts.start is not None:  # set by resolve_turn; absent only in hand-built states
        events += garrison_events(ctx.map, ts.start)  # 5.3, one turn late
        events += intelligence_events(ts.start, world, rules.reports, rng.fork("reports"))  # 5.4
    return ts.emit(*events)
