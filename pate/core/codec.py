"""Plain-data encoding of core values, and canonical JSON.

The store keeps world states, orders and events as canonical JSON (sorted keys,
no spaces), so re-resolving a turn can be compared byte for byte.  Encoding is
driven by the dataclass type hints, so adding a field to the model needs no
change here.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import Any, TypeVar, get_args, get_origin

import orjson

T = TypeVar("T")

_TAG = "kind"


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, text as it is (not escaped to ASCII): the bytes the store's
    digests and replays compare.  orjson writes it ten times faster than the json module and
    the same byte for byte, except for floats under 1e-4 (orjson writes 0.00005 and 1e-7
    where json writes 5e-05 and 1e-07): a text that may hold one, and any value orjson will
    not take (a key that is not a str, an int past 64 bits, a lone surrogate), is written by
    the json module, so the text never depends on which wrote it (tests/unit/world/
    test_canonical_json.py).  orjson writes a nan or an infinity as null where the json module
    wrote NaN or Infinity: none reaches it, since the rules data, whence a turn's numbers come,
    refuse them (pate.core.ruledata)."""
    try:
        text = orjson.dumps(value, option=_ORJSON_OPTIONS, default=_not_plain).decode()
    except TypeError:
        return _json_module(value)
    return _json_module(value) if _may_hold_small_float(text) else text


def parse_json(text: str | bytes) -> Any:
    """Stored JSON back to plain data, the same values the json module reads.  orjson reads a
    world about twice as fast (grand1805's 290,000 characters in 1.8 ms with the check below,
    not 3.3), but it reads an int past 64 bits as a float: a text with 19 digits in a row,
    found by a byte table rather than a pattern (a pattern cost as much as the json module),
    and a text orjson refuses (a lone surrogate, NaN) are read by the json module."""
    try:
        raw = text.encode() if isinstance(text, str) else text
        if _LONG_NUMBER not in raw.translate(_DIGITS_ONLY):
            return orjson.loads(raw)
    except (UnicodeEncodeError, orjson.JSONDecodeError):
        pass
    return json.loads(text)


def _may_hold_small_float(text: str) -> bool:
    """Where orjson's float may differ from the json module's: 0.0000x, or a negative exponent
    without its leading zero (1e-7).  Text that merely looks so only costs the slower writer.
    Searched for literally: a pattern opening on a class of characters was ten times slower,
    as slow as writing the text."""
    if "0.0000" in text:
        return True
    return any(m.start() and text[m.start() - 1].isdigit() for m in _EXPONENT.finditer(text))


def _json_module(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _not_plain(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not plain JSON data")


# Dataclasses, dates and subclasses of str, int, dict and list go to _not_plain and so to the
# json module, which writes a subclass as its base type and refuses the rest, as before.
_ORJSON_OPTIONS = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
_EXPONENT = re.compile(r"e-[1-9]")
# every digit byte to "0", every other byte to a space: a run of 19 zeros is a run of 19 digits
_DIGITS_ONLY = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_NUMBER = b"0" * 19


def to_plain(value: Any) -> Any:
    """Encode a core value (dataclass, enum, tuple, dict...) as JSON-safe data."""
    encode = _ENCODERS.get(type(value))
    if encode is None:
        encode = _encoder_for(type(value))
    return encode(value)


# One encoder per concrete type, chosen once: encoding a turn's knowledge
# touches some hundred thousand values, and asking isinstance of each in turn
# cost more than the rest of the knowledge stage.
_ENCODERS: dict[type, Callable[[Any], Any]] = {}


def _same(value: Any) -> Any:
    return value


def _enum(value: Any) -> Any:
    return value.value


def _mapping(value: Any) -> Any:
    return {_key(k): to_plain(v) for k, v in value.items()}


def _set(value: Any) -> Any:
    return sorted((to_plain(v) for v in value), key=canonical_json)


def _sequence(value: Any) -> Any:
    return [to_plain(v) for v in value]


# Type hints whose values to_plain gives back as they are: such fields are read, not encoded.
_PLAIN_HINTS: frozenset[Any] = frozenset(
    {int, str, bool, float, type(None), int | None, str | None, bool | None, float | None}
)


def _dataclass(cls: type) -> Callable[[Any], Any]:
    """One function per dataclass, written out field by field (as dataclasses writes
    its __init__): a world has some ten thousand dataclass values, and a loop over
    the field names with a call of to_plain for every int and str cost twice as much.
    :func:`encoder_source` gives the text, so the function can be read without running it."""
    scope: dict[str, Any] = {"to_plain": to_plain}
    exec(encoder_source(cls), scope)
    encode: Callable[[Any], Any] = scope["encode"]
    return encode


def encoder_source(cls: type) -> str:
    """The encoder of one dataclass as Python text.  For ``AtSea`` (two plain fields, and
    tagged, since it is one of the ``Location`` union's members)::

        def encode(value):
            return {'area': value.area, 'tactical': value.tactical, 'kind': 'AtSea'}

    A field whose hint is a plain type is read as it is; a tuple of plain items becomes a list
    at once; any other field goes through :func:`to_plain` (tests/unit/world/test_codec_source.py
    keeps this example true)."""
    try:
        hints = _hints(cls)
    except (NameError, TypeError):  # a hint that cannot be resolved here: every field encoded
        hints = {}
    parts = []
    for f in _fields(cls):
        read, hint = f"value.{f.name}", hints.get(f.name)
        if hint in _PLAIN_HINTS:
            parts.append(f"{f.name!r}: {read}")
        elif _is_plain_tuple(hint):  # a port's garrison: a list made at once, not a call per item
            parts.append(f"{f.name!r}: list({read})")
        else:
            parts.append(f"{f.name!r}: to_plain({read})")
    if cls.__name__ in _TAGGED:
        parts.append(f"{_TAG!r}: {cls.__name__!r}")
    return f"def encode(value):\n    return {{{', '.join(parts)}}}\n"


def _is_plain_tuple(hint: Any) -> bool:
    """``tuple[str, ...]`` and the like: its items are written as they are."""
    args = get_args(hint)
    return get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis and args[0] in _PLAIN_HINTS


def _encoder_for(tp: type) -> Callable[[Any], Any]:
    # The order of the tests matters: a StrEnum is a str and stays one.
    encode: Callable[[Any], Any]
    if tp is type(None) or issubclass(tp, bool | int | str | float):
        encode = _same
    elif issubclass(tp, Enum):
        encode = _enum
    elif dataclasses.is_dataclass(tp):
        encode = _dataclass(tp)
    elif issubclass(tp, dict | types.MappingProxyType):
        encode = _mapping
    elif issubclass(tp, frozenset | set):
        encode = _set
    elif issubclass(tp, tuple | list):
        encode = _sequence
    else:
        raise TypeError(f"cannot encode {tp.__name__}")
    _ENCODERS[tp] = encode
    return encode


def from_plain(cls: type[T] | Any, data: Any) -> T:
    """Decode data made by :func:`to_plain` back into the type ``cls``."""
    return typing.cast(T, _decode(cls, data))


def _key(k: Any) -> str:
    if isinstance(k, Enum):
        return str(k.value)
    return str(k)


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if not f.name.startswith("_"))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


_TAGGED: set[str] = set()


def register_union_members(*classes: type) -> None:
    """Classes that appear in unions are written with a ``kind`` tag."""
    _TAGGED.update(c.__name__ for c in classes)


def _tagged_names() -> set[str]:
    return _TAGGED


def _decode(tp: Any, data: Any) -> Any:
    return _decoder(tp)(data)


# One decoder per type hint, built once: loading a world decodes some thirty
# thousand values, and reading each one's type hint again (get_origin,
# is_dataclass, get_type_hints) cost more than the rules of the turn.
Decoder = Callable[[Any], Any]


@cache
def _decoder(tp: Any) -> Decoder:
    if tp is Any:
        return _same
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(tp)
    if origin is tuple:
        return _tuple_decoder(get_args(tp))
    if origin is frozenset:
        (arg,) = get_args(tp)
        item = _decoder(arg)
        if item is _same:
            return frozenset
        return lambda data: frozenset([item(v) for v in data])
    if origin in (dict, typing.Mapping, _abc_mapping()):
        kt, vt = get_args(tp)
        key, val = _decoder(kt), _decoder(vt)
        if key is _same:  # str keys, the common case: no call per key
            return dict if val is _same else lambda data: {k: val(v) for k, v in data.items()}
        return lambda data: {key(k): val(v) for k, v in data.items()}
    if origin is list:
        (arg,) = get_args(tp)
        item = _decoder(arg)
        return list if item is _same else lambda data: [item(v) for v in data]
    if isinstance(tp, type):
        return _type_decoder(tp)
    raise TypeError(f"cannot decode into {tp!r}")


def _union_decoder(tp: Any) -> Decoder:
    args = [a for a in get_args(tp) if a is not type(None)]
    if len(args) == 1:
        only = _decoder(args[0])
        if only is _same:  # None or an int, str, bool: stored as it is
            return _same
        return lambda data: None if data is None else only(data)
    by_name = {getattr(a, "__name__", None): _decoder(a) for a in args}
    plain = tuple(a for a in args if isinstance(a, type))

    def decode(data: Any) -> Any:
        if data is None:
            return None
        if isinstance(data, dict) and _TAG in data:
            member = by_name.get(data[_TAG])
            if member is None:
                raise ValueError(f"unknown kind {data[_TAG]!r}")
            return member(data)
        for a in plain:
            if isinstance(data, a):
                return data
        raise ValueError(f"cannot decode {data!r} as {tp}")

    return decode


def _tuple_decoder(parts: tuple[Any, ...]) -> Decoder:
    if len(parts) == 2 and parts[1] is Ellipsis:
        item = _decoder(parts[0])
        return tuple if item is _same else lambda data: tuple([item(v) for v in data])
    items = tuple(_decoder(a) for a in parts)
    return lambda data: tuple([f(v) for f, v in zip(items, data, strict=True)])


def _type_decoder(tp: type) -> Decoder:
    if issubclass(tp, Enum):
        return _enum_decoder(tp)
    if dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if tp is float:
        return lambda data: float(data) if isinstance(data, int) else data
    if tp in (int, str, bool):
        return _same
    raise TypeError(f"cannot decode into {tp!r}")


def _enum_decoder(tp: type[Enum]) -> Decoder:
    """A member by its value from the enum's own table (what calling the enum looks up
    first), without the call; anything else goes through the enum as before."""
    members = tp._value2member_map_

    def decode(data: Any) -> Any:
        try:
            return members[data]
        except (KeyError, TypeError):
            return tp(data)

    return decode


def _dataclass_decoder(tp: type) -> Decoder:
    fields: list[tuple[str, Decoder]] = []
    fast: list[Decoder] = []

    def slow(data: Any) -> Any:  # a field left out: the dataclass's default stands
        return tp(**{name: f(data[name]) for name, f in fields if name in data})

    def decode(data: Any) -> Any:
        if not fast:
            # built at first use, not when the decoder is made: a dataclass
            # reached again through its own fields finds this decoder cached
            hints = _hints(tp)
            fields.extend((f.name, _decoder(hints[f.name])) for f in _fields(tp))
            fast.append(_written_decoder(tp, fields, slow))
        return fast[0](data)

    return decode


def _written_decoder(tp: type, fields: list[tuple[str, Decoder]], slow: Decoder) -> Decoder:
    """The decoder of one dataclass written out field by field (:func:`decoder_source`)."""
    scope: dict[str, Any] = {"tp": tp, "slow": slow}
    scope.update((f"f{i}", f) for i, (_, f) in enumerate(fields) if f is not _same)
    exec(decoder_source(fields), scope)
    decode: Decoder = scope["decode"]
    return decode


def decoder_source(fields: list[tuple[str, Decoder]]) -> str:
    """The decoder of one dataclass as Python text: a field stored as it is (int, str, bool)
    is passed on without a call, any other through its own decoder ``f<i>``; a field left out
    of the data falls back to ``slow``, where the dataclass's default stands.  For ``InPort``
    (a str and a bool)::

        def decode(data):
            try:
                return tp(port=data['port'], harbor=data['harbor'])
            except KeyError:
                return slow(data)
    """
    args = [
        f"{name}=data[{name!r}]" if f is _same else f"{name}=f{i}(data[{name!r}])"
        for i, (name, f) in enumerate(fields)
    ]
    return (
        "def decode(data):\n"
        "    try:\n"
        f"        return tp({', '.join(args)})\n"
        "    except KeyError:\n"
        "        return slow(data)\n"
    )


def _abc_mapping() -> Any:
    import collections.abc

    return collections.abc.Mapping
