"""The codec's written-out encoders and decoders give the stored bytes back exactly.

The store compares a replayed turn with the stored one byte for byte, so a world
decoded and encoded again must be the text it was decoded from, over resolved
turns as well as scenarios; fields left out of old rows take their defaults, and
values the written-out paths do not know go the slow way with the same result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum

import pytest

from pate.core.campaign import resolve_submitted
from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.events import Event
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context


@pytest.mark.parametrize("scenario", ["training", "trafalgar"])
def test_worlds_and_events_of_resolved_turns_round_trip_to_the_same_text(scenario: str) -> None:
    world = load_scenario(scenario).world
    for _turn in range(2):
        resolution = resolve_submitted(turn_context(), world, [], [], [], None)
        events = resolution.result.events
        text = canonical_json([to_plain(e) for e in events])
        assert canonical_json([to_plain(from_plain(Event, e)) for e in json.loads(text)]) == text
        world = resolution.result.state
        stored = canonical_json(to_plain(world))
        decoded = from_plain(WorldState, json.loads(stored))
        assert decoded == world
        assert canonical_json(to_plain(decoded)) == stored


class Colour(Enum):
    RED = "red"
    NONE = 0  # a falsy value is still a member


@dataclass(frozen=True, slots=True)
class Inner:
    colour: Colour
    weight: float
    tags: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Outer:
    name: str
    count: int
    inner: Inner
    items: tuple[Inner, ...] = ()
    by_name: dict[str, int] = field(default_factory=dict)
    note: str | None = None


def test_a_dataclass_round_trips_and_a_field_left_out_takes_its_default() -> None:
    value = Outer("a", 2, Inner(Colour.NONE, 1.5, frozenset({"y", "x"})), (Inner(Colour.RED, 2),), {"k": 1})
    plain = to_plain(value)
    assert plain == {
        "name": "a",
        "count": 2,
        "inner": {"colour": 0, "weight": 1.5, "tags": ["x", "y"]},
        "items": [{"colour": "red", "weight": 2, "tags": []}],
        "by_name": {"k": 1},
        "note": None,
    }
    assert from_plain(Outer, json.loads(canonical_json(plain))) == value
    old_row = {"name": "b", "count": 1, "inner": {"colour": "red", "weight": 3}}
    decoded = from_plain(Outer, old_row)
    assert decoded == Outer("b", 1, Inner(Colour.RED, 3.0))
    assert isinstance(decoded.inner.weight, float)  # a float stored as 3 comes back as 3.0


def test_an_unknown_enum_value_and_a_missing_required_field_are_refused() -> None:
    with pytest.raises(ValueError):
        from_plain(Inner, {"colour": "blue", "weight": 1})
    with pytest.raises(TypeError):
        from_plain(Outer, {"name": "c", "inner": {"colour": "red", "weight": 1}})
