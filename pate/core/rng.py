"""Seeded random streams for the rules core.

Every draw of the game comes from a stream named by (campaign seed, turn, phase,
and optionally a finer key such as a sea area or a battle).  The stream is a
SplitMix64 generator written out here rather than Python's ``random`` so that a
turn resolves to the same bytes on any worker and any Python version: CPython
has changed ``randrange`` and ``choice`` between releases before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from any printable parts, stable across processes."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


class Rng:
    """A small, fast, deterministic generator (SplitMix64).

    ``fixed`` holds dice a rule case fixes (docs/formats/cases.md, a turn's
    ``dice``): for each purpose named at a :meth:`roll`, the values to give in
    order.  Only the case runner sets them (``TurnContext.fixed_dice``); in
    a campaign there are none.  Streams forked from this one share them."""

    __slots__ = ("_fixed", "_state")

    def __init__(self, seed: int, fixed: dict[str, list[int]] | None = None) -> None:
        self._state = seed & _MASK
        self._fixed = fixed

    @classmethod
    def for_phase(cls, campaign_seed: int, turn: int, phase: str, *key: object) -> Rng:
        return cls(derive_seed(campaign_seed, turn, phase, *key))

    def fork(self, *key: object) -> Rng:
        """An independent stream for a sub-part (a sea area, a battle), so that
        adding ships in one place never changes the dice rolled in another."""
        return Rng(derive_seed(self._state, *key), self._fixed)

    def with_fixed(self, fixed: Mapping[str, Sequence[int]]) -> Rng:
        """This stream, giving these values for the dice named (a rule case's)."""
        return Rng(self._state, {k: list(v) for k, v in fixed.items()} if fixed else None)

    def roll(self, purpose: str, faces: int) -> int:
        """One die of ``faces`` faces for a named purpose (``"interception"``):
        drawn as :meth:`randint` would, then replaced by the next value a
        rule case fixed for that purpose, if any.  The die is drawn all the
        same, so that fixing one die leaves every other as it was."""
        drawn = self.randint(1, faces)
        left = self._fixed.get(purpose) if self._fixed else None
        return left.pop(0) if left else drawn

    def next_u64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """Uniform in [0, 1) with 53 bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def chance(self, percent: float) -> bool:
        """True with the given chance in percent (values outside 0..100 clamp)."""
        if percent <= 0:
            return False
        if percent >= 100:
            return True
        return self.random() * 100.0 < percent

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted(self, items: Sequence[T], weights: Sequence[float]) -> T:
        total = sum(weights)
        if total <= 0:
            raise ValueError("weighted() needs a positive total weight")
        x = self.random() * total
        acc = 0.0
        for item, w in zip(items, weights, strict=True):
            acc += w
            if x < acc:
                return item
        return items[-1]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
