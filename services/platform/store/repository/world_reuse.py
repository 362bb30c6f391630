"""A world decoded or encoded against the one before it: what a turn left alone is not done again.

From one turn to the next most of a world stays as it was (of training's 202 ports three
changed in a profile; the ports are three quarters of its JSON).  A worker that holds the
world of turn N with its plain form (the data its canonical JSON is written from) reuses
both for turn N+1:

- decoding, an entry of one of the world's tables (a port, a ship, a wind...) whose plain data
  equals the earlier world's is that world's decoded entry (comparing two small dicts is C
  work; decoding one calls Python for every field);
- encoding, an entry that *is* the earlier world's (the rules make a new world by replacing
  the entries they change and keeping the others) is written with the earlier plain data.

The value and the canonical bytes are those of the full decoder and encoder
(tests/unit/platform/test_world_reuse.py runs both over scenarios' turns).  Both rest on
the entries being values: frozen dataclasses of frozen dataclasses, tuples, frozensets, enums,
ints, strs and bools, as the type hints say (checked once per process).  A table whose entries
could hold a float (an int in the JSON decodes to a float, which encodes to another text) or
a mutable container is decoded and encoded in full every time.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, NamedTuple

from pate.core.codec import from_plain, to_plain
from pate.core.world.state import WorldState


class Held(NamedTuple):
    """A decoded world and the plain data of its stored JSON (None: not known)."""

    world: WorldState
    plain: dict[str, Any] | None


_MISSING = object()
_LEAVES: frozenset[Any] = frozenset({int, str, bool, type(None)})


def _is_value(tp: Any, seen: set[Any]) -> bool:
    """Whether every value of the type hint ``tp`` is immutable and holds no float."""
    if tp in _LEAVES or tp in seen:
        return True
    if typing.get_origin(tp) in (typing.Union, types.UnionType, tuple, frozenset):
        return all(a is Ellipsis or _is_value(a, seen) for a in typing.get_args(tp))
    if isinstance(tp, type) and issubclass(tp, Enum):
        return True
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not tp.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return False
        seen.add(tp)
        return all(_is_value(h, seen) for h in typing.get_type_hints(tp).values())
    return False


@cache
def _tables() -> dict[str, Any]:
    """The world's fields that are tables of values, each with its entries' type."""
    out = {}
    for name, hint in typing.get_type_hints(WorldState).items():
        args = typing.get_args(hint)
        if typing.get_origin(hint) is dict and args[0] is str and _is_value(args[1], set()):
            out[name] = args[1]
    return out


def decode_like(plain: dict[str, Any], earlier: Held | None) -> WorldState:
    """The world of ``plain`` (parsed stored JSON), its tables' unchanged entries taken from
    ``earlier``; the same value as ``from_plain(WorldState, plain)``."""
    tables = _tables()
    if earlier is None or earlier.plain is None or not tables.keys() <= plain.keys():
        return typing.cast(WorldState, from_plain(WorldState, plain))
    old_plain, old_world = earlier.plain, earlier.world
    rest = {k: v for k, v in plain.items() if k not in tables}
    shell = typing.cast(WorldState, from_plain(WorldState, {**rest, **{k: {} for k in tables}}))
    changes: dict[str, Any] = {}
    for name, entry in tables.items():
        before, was = old_plain.get(name) or {}, getattr(old_world, name)
        changes[name] = {
            k: was[k] if before.get(k, _MISSING) == v else from_plain(entry, v)
            for k, v in plain[name].items()
        }
    return dataclasses.replace(shell, **changes)


def encode_like(world: WorldState, earlier: Held | None) -> dict[str, Any]:
    """``to_plain(world)``, the entries of its tables that are ``earlier``'s own objects
    written with ``earlier``'s plain data."""
    tables = _tables()
    if earlier is None or earlier.plain is None:
        return typing.cast(dict[str, Any], to_plain(world))
    old_plain, old_world = earlier.plain, earlier.world
    empty: dict[str, Any] = {k: {} for k in tables}
    shell = dataclasses.replace(world, **empty)
    out = typing.cast(dict[str, Any], to_plain(shell))
    for name in tables:
        before, was = old_plain.get(name) or {}, getattr(old_world, name)
        out[name] = {
            k: before[k] if was.get(k) is v and k in before else to_plain(v)
            for k, v in getattr(world, name).items()
        }
    return out
