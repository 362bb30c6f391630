"""A stream whose dice are written down in advance, for rule cases that need
particular rolls: ``randint`` returns the next scripted value; choices take the
first candidate; forks share the stream."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pate.core.rng import Rng

T = TypeVar("T")


class ScriptedRng(Rng):
    __slots__ = ("dice",)

    def __init__(self, dice: Sequence[int]) -> None:
        super().__init__(0)
        self.dice = list(dice)

    def randint(self, low: int, high: int) -> int:
        value = self.dice.pop(0)
        assert low <= value <= high, f"scripted {value} outside {low}..{high}"
        return value

    def fork(self, *key: object) -> Rng:
        return self

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return list(items)

    def below(self, n: int) -> int:
        """Choices (which ship a casualty falls on, a tactical area) take the first."""
        return 0
