"""Movement (rules 3.8 and section 6): the eight steps of rule 6.5, sailing
chances (6.6), groups (6.7), arrivals and encounters (6.8, 6.9), pursuit
(6.10), straits (6.3), the Atlantic (1.6, 6.11) and peace turns (6.12)."""

from pate.core.rules.movement.phase import movement_phase

__all__ = ["movement_phase"]
