"""The stages after resolution: what each player knows, and their reports."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

from pate.core.codec import canonical_json, parse_json, to_plain
from pate.core.events import Event
from pate.core.intel.knowledge import TurnView, all_players, knowledge_for
from pate.core.rules.context import TurnContext
from pate.core.world.state import WorldState
from pate.reports import render_reports

REPORT_FORMATS = ("json", "text", "html")


def all_knowledge(
    ctx: TurnContext,
    before: WorldState,
    after: WorldState,
    events: Sequence[Event],
    players: Collection[str] | None = None,
) -> dict[str, str]:
    """Canonical JSON of each player's knowledge of the turn (rules 3.11, 5);
    with ``players``, of those alone (the bots of a headless run without
    reports), the same bytes."""
    if players is None:
        knowledge = all_players(before, after, events, ctx.map, ctx.rules)
    else:
        view = TurnView.of(after)
        knowledge = {
            p: knowledge_for(p, before, after, events, ctx.map, ctx.rules, view)
            for p in sorted(players)
            if p in after.players
        }
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
    rendered = render_reports(parse_json(knowledge_json), ctx.map, compact=compact)
    return {"json": knowledge_json, **rendered}
