"""What every phase function receives and returns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pate.core.events import Event, Phase
from pate.core.orders.model import ShipOrder, StoresMove, default_order
from pate.core.rng import Rng
from pate.core.ruledata import RuleData
from pate.core.rules.captures import LandCapture
from pate.core.world.geography import WorldMap
from pate.core.world.state import WorldState


@dataclass(frozen=True, slots=True)
class TurnContext:
    """The unchanging inputs of a turn: the map and the rule constants."""

    map: WorldMap
    rules: RuleData
    # GITM answered this turn (pate.core.rules.landsaga): when not, on-GITM-map
    # transfers are refused as deferred
    gitm_answered: bool = True
    # ports GITM reports taken on land since the last turn (edition 3), applied at the
    # initial amphibious phase (pate.core.rules.garrison.land_captures)
    land_captures: tuple[LandCapture, ...] = ()
    # dice a rule case fixes, (turn, purpose, values in order): set by the case runner
    # alone (docs/formats/cases.md, a turn's ``dice``), never in a campaign; see Rng.roll
    fixed_dice: tuple[tuple[int, str, tuple[int, ...]], ...] = ()

    def dice_fixed(self, turn: int) -> dict[str, tuple[int, ...]]:
        return {purpose: values for t, purpose, values in self.fixed_dice if t == turn}


@dataclass(frozen=True, slots=True)
class TurnState:
    """The state carried from phase to phase."""

    world: WorldState
    orders: dict[str, ShipOrder]  # effective orders, one per ship
    events: tuple[Event, ...] = field(default=())
    start: WorldState | None = None  # the world at the start of the turn (rule 5.4)
    stores_moves: tuple[StoresMove, ...] = ()  # rule 3.5, ordered by the naval ministers

    def order(self, ship_id: str) -> ShipOrder:
        return self.orders.get(ship_id) or default_order(ship_id)

    def emit(self, *events: Event) -> TurnState:
        return replace(self, events=self.events + events)

    def ids_used(self) -> set[str]:
        """Every ship id in use at any moment of this turn (rule 7.8: no id is
        reused): the ships at its start, those now, and every ship an event of
        the turn named (a prize taken and then sunk, a group divided off).
        A new id is never one of these, so no two ships share an id in one
        turn's events and reports."""
        used = set(self.world.ships)
        if self.start is not None:
            used.update(self.start.ships)
        for e in self.events:
            used.update(e.ships)
            used.update(e.witnesses)
        return used


PhaseFn = Callable[[TurnContext, TurnState, Rng], TurnState]


def phase_rng(world: WorldState, phase: Phase) -> Rng:
    """The seeded stream of one phase of one turn (campaign seed, turn, phase)."""
    return Rng.for_phase(world.seed, world.turn, phase.value)
