"""States and their relations: war, active alliance, peace and truce.

Every rule that asks whether two states are hostile, allied or on the same side
asks this one object.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Relation(StrEnum):
    SAME = "same"
    ALLIED = "allied"  # "actively allied" in the rule book
    WAR = "war"
    PEACE = "peace"  # neither at war nor actively allied (includes truce)


@dataclass(frozen=True, slots=True)
class State:
    code: str  # two letters, the prefix of its ship ids (rule 2.2): BR, FR, SP ...
    nation: str  # the NWOL nation the state belongs to
    name: str


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class Diplomacy:
    states: dict[str, State]
    wars: frozenset[tuple[str, str]]  # sorted pairs
    alliances: frozenset[tuple[str, str]]  # sorted pairs, actively allied

    @classmethod
    def build(
        cls,
        states: dict[str, State],
        wars: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
        alliances: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
    ) -> Diplomacy:
        return cls(
            states=states,
            wars=frozenset(_pair(a, b) for a, b in wars),
            alliances=frozenset(_pair(a, b) for a, b in alliances),
        )

    def relation(self, a: str, b: str) -> Relation:
        if a == b:
            return Relation.SAME
        pair = _pair(a, b)
        if pair in self.wars:
            return Relation.WAR
        if pair in self.alliances:
            return Relation.ALLIED
        return Relation.PEACE

    def hostile(self, a: str, b: str) -> bool:
        return self.relation(a, b) is Relation.WAR

    def allied(self, a: str, b: str) -> bool:
        """Same state or actively allied."""
        return self.relation(a, b) in (Relation.SAME, Relation.ALLIED)
