"""Plain values of the operations phase: fleet markers and revealed operations."""

from __future__ import annotations

from dataclasses import dataclass, field

from pate.core.orders.operation import Operation, OpKind

__all__ = ["Declared", "Fleet", "OpKind", "Operation"]


@dataclass(frozen=True, slots=True)
class Fleet:
    """A fleet marker: a PATE squadron, its lead and the ships attached to it,
    with the ships of allies joined to it in a combined operation."""

    lead: str
    state: str
    ships: tuple[str, ...]  # lead first, then the rest by id
    place: str  # the node it is based at: a port name or a sea area code
    at_sea: bool  # based in a sea zone or an enemy blockade box
    states: tuple[str, ...] = ()  # every nation taking part (a combined operation)


@dataclass(slots=True)
class Declared:
    """One declared operation as it is revealed and resolved (mutable while
    the phase runs; never leaves this package)."""

    seq: int  # order of declaration = order of revealing
    fleet: Fleet
    op: Operation
    phase_number: int
    resolved: bool = False
    spent: bool = False  # made its one successful interception
    beaten: bool = False  # lost a Naval Superiority combat
    disrupted: bool = False  # intercepted and beaten before it resolved
    places: tuple[str, ...] = field(default=())  # nodes the operation touches
