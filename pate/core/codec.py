"""Plain-data encoding of core values, and canonical JSON.

The store keeps world states, orders and events as canonical JSON (sorted keys,
no spaces), so re-resolving a turn can be compared byte for byte.  Encoding is
driven by the dataclass type hints, so adding a field to the model needs no
change here.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import Any, TypeVar, get_args, get_origin

T = TypeVar("T")

_TAG = "kind"


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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


def _dataclass(cls: type) -> Callable[[Any], Any]:
    names = tuple(f.name for f in _fields(cls))

    def encode(value: Any) -> Any:
        out = {name: to_plain(getattr(value, name)) for name in names}
        if cls.__name__ in _TAGGED:
            out[_TAG] = cls.__name__
        return out

    return encode


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
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if data is None:
            return None
        if len(args) == 1:
            return _decode(args[0], data)
        if isinstance(data, dict) and _TAG in data:
            for a in args:
                if getattr(a, "__name__", None) == data[_TAG]:
                    return _decode(a, data)
            raise ValueError(f"unknown kind {data[_TAG]!r}")
        for a in args:
            if isinstance(a, type) and isinstance(data, a):
                return data
        raise ValueError(f"cannot decode {data!r} as {tp}")
    if origin is tuple:
        parts = get_args(tp)
        if len(parts) == 2 and parts[1] is Ellipsis:
            return tuple(_decode(parts[0], v) for v in data)
        return tuple(_decode(a, v) for a, v in zip(parts, data, strict=True))
    if origin is frozenset:
        (arg,) = get_args(tp)
        return frozenset(_decode(arg, v) for v in data)
    if origin in (dict, typing.Mapping, _abc_mapping()):
        kt, vt = get_args(tp)
        return {_decode(kt, k): _decode(vt, v) for k, v in data.items()}
    if origin is list:
        (arg,) = get_args(tp)
        return [_decode(arg, v) for v in data]
    if isinstance(tp, type):
        if issubclass(tp, Enum):
            return tp(data)
        if dataclasses.is_dataclass(tp):
            hints = _hints(tp)
            kwargs = {f.name: _decode(hints[f.name], data[f.name]) for f in _fields(tp) if f.name in data}
            return tp(**kwargs)
        if tp is float and isinstance(data, int):
            return float(data)
        if tp in (int, str, bool, float):
            return data
    raise TypeError(f"cannot decode into {tp!r}")


def _abc_mapping() -> Any:
    import collections.abc

    return collections.abc.Mapping
