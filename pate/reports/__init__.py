"""The two reports of rule 3.11, rendered from a player's knowledge alone.

Pure functions (no I/O, no clock) outside the rules core: the reports
service and ``pate campaign simulate`` call :func:`render_reports`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pate.core.codec import from_plain
from pate.core.intel.model import PlayerKnowledge
from pate.core.world.geography import WorldMap
from pate.reports.html import render_html
from pate.reports.text import render_text

__all__ = ["render_html", "render_reports", "render_text"]


def render_reports(
    knowledge: PlayerKnowledge | Mapping[str, Any], world_map: WorldMap, *, compact: bool = False
) -> dict[str, str]:
    """Every rendered format of one player's reports: ``text`` and ``html``
    (the structured form is the knowledge itself, as canonical JSON);
    ``compact`` makes the text one line a ship."""
    k = knowledge if isinstance(knowledge, PlayerKnowledge) else from_plain(PlayerKnowledge, knowledge)
    return {"text": render_text(k, world_map, compact=compact), "html": render_html(k, world_map)}
