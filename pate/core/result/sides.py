"""The sides of a campaign's result: a state and its active allies (docs/rules/result.md).

Alliances need not be closed (A allied to B, B to C, C not to A): a side is
every state joined to another by a chain of active alliances, so that no
state stands on two sides.
"""

from __future__ import annotations

from dataclasses import dataclass

from pate.core.world.state import WorldState


@dataclass(frozen=True, slots=True)
class Side:
    states: tuple[str, ...]  # sorted codes
    name: str  # "Britain and Portugal"

    @property
    def key(self) -> str:
        return "+".join(self.states)


def _present(start: WorldState, final: WorldState) -> set[str]:
    """States that take part: with ships or players at either end.  A state that only
    holds ports is no side; a port taken from it still counts for its taker."""
    found: set[str] = set()
    for world in (start, final):
        found.update(s.state for s in world.ships.values())
        found.update(p.state for p in world.players.values() if p.state)
    return found


def campaign_sides(start: WorldState, final: WorldState) -> tuple[Side, ...]:
    """The sides by the final world's diplomacy, largest navy at the start first
    (then by key): the order the result page lists them."""
    states = sorted(_present(start, final))
    group = {s: s for s in states}

    def root(s: str) -> str:
        while group[s] != s:
            s = group[s]
        return s

    for a in states:
        for b in states:
            if a < b and final.diplomacy.allied(a, b):
                group[root(b)] = root(a)
    members: dict[str, list[str]] = {}
    for s in states:
        members.setdefault(root(s), []).append(s)
    navy = {s: sum(1 for ship in start.ships.values() if ship.state == s) for s in states}
    sides = [
        Side(tuple(sorted(m)), _name(final, sorted(m, key=lambda s: (-navy[s], s)))) for m in members.values()
    ]
    return tuple(sorted(sides, key=lambda side: (-sum(navy[s] for s in side.states), side.key)))


def _name(world: WorldState, states: list[str]) -> str:
    names = [world.diplomacy.states[s].name if s in world.diplomacy.states else s for s in states]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def side_of(sides: tuple[Side, ...], state: str) -> Side | None:
    for side in sides:
        if state in side.states:
            return side
    return None
