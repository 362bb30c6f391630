"""Canonical JSON is the same text whichever writer wrote it: the store's digests and the
replays of turns stored before orjson wrote it compare these bytes.  And stored JSON is read
back to the same values whichever reader reads it."""

from __future__ import annotations

import json
import math
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pate.core.codec import canonical_json, parse_json, to_plain
from pate.datafiles import load_scenario


def json_module(value: object) -> str:
    """What canonical JSON was before orjson: the json module's sorted, spaceless text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


finite = st.floats(allow_nan=False, allow_infinity=False)
scalars = st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | finite | st.text()
plain = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=600, deadline=None)
@given(plain)
def test_any_plain_value_is_written_as_the_json_module_writes_it(value: object) -> None:
    assert canonical_json(value) == json_module(value)


def test_the_floats_orjson_writes_otherwise_go_to_the_json_module() -> None:
    # orjson writes 5e-05 as 0.00005 and 1e-07 as 1e-7; the text must not change
    for value in (5e-05, 1e-07, -2.5e-7, 3.7e-05, 1e-300, 1e-5, 1e16, 1.2345e17, 0.0001, -0.0):
        assert canonical_json({"x": [value]}) == json_module({"x": [value]})


def test_text_orjson_refuses_is_still_written() -> None:
    for value in ({1: "int key"}, [2**64], {"s": "\ud800"}, {"nested": {"k": math.pi}}):
        assert canonical_json(value) == json_module(value)


@pytest.mark.parametrize("value", [object(), {"when": date(1805, 10, 21)}])
def test_what_the_json_module_refuses_is_still_refused(value: object) -> None:
    with pytest.raises(TypeError):
        json_module(value)
    with pytest.raises(TypeError):
        canonical_json(value)


def test_a_scenario_world_is_the_same_text() -> None:
    world = to_plain(load_scenario("grand1805").world)
    assert canonical_json(world) == json_module(world)


@settings(max_examples=600, deadline=None)
@given(plain)
def test_stored_json_is_read_back_as_the_json_module_reads_it(value: object) -> None:
    text = canonical_json(value)
    assert canonical_json(parse_json(text)) == text
    assert parse_json(text) == json.loads(text)


def test_text_orjson_will_not_read_is_read_by_the_json_module() -> None:
    big = ('{"big":18446744073709551616}', "[-9223372036854775809]", '{"id":"1234567890123456789"}')
    refused = ('["\\ud800"]', '["\ud800"]', '{"x":NaN}', "[1e400]")
    for text in (*big, *refused):
        assert canonical_json(parse_json(text)) == canonical_json(json.loads(text))
    with pytest.raises(ValueError):
        parse_json("{not json")


def test_a_stored_world_is_read_back_whole() -> None:
    text = canonical_json(to_plain(load_scenario("grand1805").world))
    assert parse_json(text) == json.loads(text)
    assert parse_json(text.encode()) == json.loads(text)
