"""The stages after resolution: what each player knows, and their reports."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pate.core.codec import canonical_json, to_plain
from pate.core.events import Event
from pate.core.intel.knowledge import all_players
from pate.core.rules.context import TurnContext
from pate.core.world.state import WorldState
from pate.reports import render_reports

REPORT_FORMATS = ("json", "text", "html")


def all_knowledge(
    ctx: TurnContext, before: WorldState, after: WorldState, events: Sequence[Event]
) -> dict[str, str]:
    """Canonical JSON of each player's knowledge of the turn (rules 3.11, 5)."""
    knowledge = all_players(before, after, events, ctx.map, ctx.rules)
    # A ship's report is the same for everyone who receives it (its commander,
    # deputy and naval minister): encode it once.
    ships: dict[str, Any] = {}
    out: dict[str, str] = {}
    for player, k in knowledge.items():
        plain = to_plain(replace(k, ships=()))
        plain["ships"] = [
            ships[r.id] if r.id in ships else ships.setdefault(r.id, to_plain(r)) for r in k.ships
        ]
        out[player] = canonical_json(plain)
    return out


def reports_for(ctx: TurnContext, knowledge_json: str, *, compact: bool = False) -> dict[str, str]:
    """Every format of one player's reports, from their knowledge alone, so a
    report can never show what the player did not learn."""
    rendered = render_reports(json.loads(knowledge_json), ctx.map, compact=compact)
    return {"json": knowledge_json, **rendered}
