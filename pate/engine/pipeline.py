"""The stages after resolution: what each player knows, and their reports."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from pate.core.codec import canonical_json, from_plain, parse_json, to_plain
from pate.core.events import Event
from pate.core.intel.knowledge import TurnView, all_players, knowledge_for
from pate.core.intel.model import Sighted
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
    previous: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Canonical JSON of each player's knowledge of the turn (rules 3.11, 5);
    with ``players``, of those alone (the bots of a headless run without
    reports), the same bytes.  ``previous``: each player's knowledge of the
    turn before, as stored, whose picture of the enemy is carried forward."""
    pictures = previous_pictures(previous or {})
    if players is None:
        knowledge = all_players(before, after, events, ctx.map, ctx.rules, pictures)
    else:
        view = TurnView.of(after)
        knowledge = {
            p: knowledge_for(p, before, after, events, ctx.map, ctx.rules, view, pictures.get(p, ()))
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


def previous_pictures(texts: Mapping[str, str]) -> dict[str, tuple[Sighted, ...]]:
    """Each player's picture from his stored knowledge (none in knowledge kept before it was)."""
    return {
        p: tuple(from_plain(Sighted, s) for s in parse_json(text).get("picture", ()))
        for p, text in texts.items()
    }


def reports_for(ctx: TurnContext, knowledge_json: str, *, compact: bool = False) -> dict[str, str]:
    """Every format of one player's reports, from their knowledge alone, so a
    report can never show what the player did not learn."""
    rendered = render_reports(parse_json(knowledge_json), ctx.map, compact=compact)
    return {"json": knowledge_json, **rendered}
