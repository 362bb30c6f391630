"""A seat said in words, as the solo picker and the lobby offer it: the player, his side and
role, and his ships, e.g. "ganteaume: French commander, 4 ships (Imperial, Alexandre, Patriote
and 1 more)".  Pure: the web desk says it of a shipped scenario, the orders service of a
campaign's world."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pate.core.world.diplomacy import State
from pate.core.world.state import Role, WorldState
from pate.reports.words import and_list

SEAT_NAMES_SHOWN = 3  # ship names a seat shows; the rest only counted


@dataclass(frozen=True, slots=True)
class SeatFacts:
    player: str
    side: str
    role: str  # commander | naval minister
    ships: int
    words: str


def seat_facts(world: WorldState, pid: str, states: Mapping[str, State]) -> SeatFacts:
    player = world.players[pid]
    code = player.state or ""
    side = states[code].name if code in states else code
    minister = Role.NAVAL_MINISTER in player.roles
    role = "naval minister" if minister else "commander"
    ships = sorted((s for s in world.ships.values() if pid in (s.commander, s.deputy)), key=lambda s: s.id)
    names = [s.name or s.id for s in ships[:SEAT_NAMES_SHOWN]]
    if len(ships) > SEAT_NAMES_SHOWN:
        names.append(f"{len(ships) - SEAT_NAMES_SHOWN} more")
    listed = f" ({and_list(names)})" if names else ""
    words = f"{pid}: {side} {role}, {len(ships)} ship{'' if len(ships) == 1 else 's'}{listed}"
    if minister:
        every = sum(1 for s in world.ships.values() if s.state == code)
        words += f"; orders all {every} {side} ships"
    return SeatFacts(pid, side, role, len(ships), words)


def seat_words(world: WorldState, pid: str, states: Mapping[str, State]) -> str:
    return seat_facts(world, pid, states).words
