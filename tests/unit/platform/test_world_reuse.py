"""A world decoded or encoded against an earlier one is the value and the bytes of the full codec.

The stage workers decode the next turn's world against the one they hold and encode it against
the world it was resolved from (services/platform/store/repository/world_reuse.py); the store's
digests and replays need the same canonical bytes as a full encode, and the rules the same value
as a full decode, whichever earlier world the worker held (its own campaign's, or another's).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from pate.core.campaign import resolve_submitted
from pate.core.codec import canonical_json, from_plain, parse_json, to_plain
from pate.core.world.state import WorldState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from services.platform.store.repository.world_reuse import Held, _tables, decode_like, encode_like


def _turns(scenario: str, n: int) -> list[WorldState]:
    world = load_scenario(scenario).world
    out = [world]
    for _ in range(n):
        world = resolve_submitted(turn_context(), world, [], [], [], None).result.state
        out.append(world)
    return out


def _held(world: WorldState) -> Held:
    return Held(world, parse_json(canonical_json(to_plain(world))))


@pytest.mark.parametrize("scenario", ["training", "trafalgar", "grand1805"])
def test_each_turn_encoded_and_decoded_against_the_turn_before_is_the_full_codecs(scenario: str) -> None:
    worlds = _turns(scenario, 3)
    for before, after in itertools.pairwise(worlds):
        held = _held(before)
        full = canonical_json(to_plain(after))
        assert canonical_json(encode_like(after, held)) == full
        decoded = decode_like(parse_json(full), held)
        assert decoded == from_plain(WorldState, parse_json(full))
        assert canonical_json(to_plain(decoded)) == full


def test_the_rules_keep_most_entries_so_there_is_something_to_reuse() -> None:
    before, after = _turns("training", 1)
    kept = sum(1 for k, port in after.ports.items() if before.ports.get(k) is port)
    assert kept > len(after.ports) // 2


def test_another_campaigns_world_or_a_stale_one_is_still_only_a_memo() -> None:
    """Entries are reused only where they are the same (decode: equal plain data; encode: the
    same object), so a world of another scenario, of a later turn or an empty one changes
    nothing of the result."""
    training = _turns("training", 2)
    other = _held(_turns("trafalgar", 0)[0])
    later = _held(training[2])
    for memo in (other, later, Held(training[0], {}), Held(training[0], None), None):
        full = canonical_json(to_plain(training[1]))
        assert canonical_json(encode_like(training[1], memo)) == full
        assert decode_like(parse_json(full), memo) == training[1]


def test_a_changed_entry_is_decoded_and_encoded_anew() -> None:
    world = _turns("training", 0)[0]
    held = _held(world)
    name = next(iter(world.ports))
    changed = replace(world, ports={**world.ports, name: replace(world.ports[name], stores=7)})
    text = canonical_json(encode_like(changed, held))
    assert text == canonical_json(to_plain(changed))
    assert decode_like(parse_json(text), held).ports[name].stores == 7


def test_only_tables_of_float_free_immutable_values_are_reused() -> None:
    tables = _tables()
    assert {"ports", "ships", "winds", "players"} <= tables.keys()
    assert "diplomacy" not in tables  # a dataclass, not a table: always written in full
