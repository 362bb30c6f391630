"""Domain events: what happened during a turn, for reports and audit.

An event names the ships that took part and the ships that witnessed it; the
intel service shows a player an event only if one of that player's ships is
among them (rule 3.11: "events ... observed by the player's ships").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """The phases of a turn in the order of rule 3.2."""

    REPAIR = "repair"
    SUPPLY = "supply"
    INITIAL_AMPHIBIOUS = "initial_amphibious"
    COMBAT = "combat"
    MOVEMENT = "movement"
    FINAL_AMPHIBIOUS = "final_amphibious"
    INTELLIGENCE = "intelligence"


PHASE_ORDER: tuple[Phase, ...] = tuple(Phase)


@dataclass(frozen=True, slots=True)
class Event:
    phase: Phase
    kind: str  # e.g. "sailed", "held_by_wind", "storm_damage", "battle", "captured"
    ships: tuple[str, ...]  # ships the event is about
    location: str  # readable place: "NOC", "Brest (harbor)"
    witnesses: tuple[str, ...] = ()  # other ships that saw it
    data: Mapping[str, Any] = field(default_factory=dict)  # JSON-safe detail
    step: int = 0  # order within the phase (set by the turn runner)

    @property
    def observers(self) -> frozenset[str]:
        return frozenset(self.ships) | frozenset(self.witnesses)
