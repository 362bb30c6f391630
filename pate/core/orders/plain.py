"""Orders as plain data (JSON objects), with located errors.

:func:`order_to_dict` is :func:`pate.core.codec.to_plain`: every field,
enums by value, tuples as lists.  :func:`order_from_dict` accepts that form
with any field left out (the default of rule 4.11 applies, and a left-out
``join_allies`` is false for evade, as in the text format) and checks every
type and enum value, raising :class:`OrderDataError` that lists each problem
by path (``movement.sea_areas[1]``), never another exception.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from pate.core.codec import to_plain
from pate.core.orders.model import Contact, ContactMode, ShipOrder


@dataclass(frozen=True, slots=True)
class DataProblem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or 'order'}: {self.message}"


class OrderDataError(ValueError):
    def __init__(self, problems: list[DataProblem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


def order_to_dict(order: ShipOrder) -> dict[str, Any]:
    plain: dict[str, Any] = to_plain(order)
    return plain


def order_from_dict(data: object, path: str = "") -> ShipOrder:
    problems: list[DataProblem] = []
    order = _decode(ShipOrder, data, path, problems)
    if problems or not isinstance(order, ShipOrder):
        raise OrderDataError(problems or [DataProblem(path, "not an order")])
    return order


def orders_from_list(data: object, path: str = "orders") -> list[ShipOrder]:
    """A list of orders; problems of every order are reported together."""
    if not isinstance(data, list):
        raise OrderDataError([DataProblem(path, f"expected a list of orders, got {_kind(data)}")])
    problems: list[DataProblem] = []
    out: list[ShipOrder] = []
    for i, item in enumerate(data):
        try:
            out.append(order_from_dict(item, f"{path}[{i}]"))
        except OrderDataError as err:
            problems += err.problems
    if problems:
        raise OrderDataError(problems)
    return out


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _decode(tp: Any, data: object, path: str, problems: list[DataProblem]) -> object:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        return _decode(inner, data, path, problems)
    if origin is tuple:
        return _tuple(typing.get_args(tp)[0], data, path, problems)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _enum(tp, data, path, problems)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp, data, path, problems)
    return _scalar(tp, data, path, problems)


def _tuple(item: Any, data: object, path: str, problems: list[DataProblem]) -> object:
    if not isinstance(data, list | tuple):
        problems.append(DataProblem(path, f"expected a list, got {_kind(data)}"))
        return ()
    return tuple(_decode(item, v, f"{path}[{i}]", problems) for i, v in enumerate(data))


def _enum(tp: type[Enum], data: object, path: str, problems: list[DataProblem]) -> object:
    values = [str(m.value) for m in tp]
    if isinstance(data, str) and data in values:
        return tp(data)
    problems.append(DataProblem(path, f"expected one of {', '.join(values)}, got {data!r}"[:200]))
    return next(iter(tp))


def _scalar(tp: Any, data: object, path: str, problems: list[DataProblem]) -> object:
    ok = {
        bool: isinstance(data, bool),
        int: isinstance(data, int) and not isinstance(data, bool),
        str: isinstance(data, str),
    }.get(tp, False)
    if not ok:
        name = {bool: "true or false", int: "a whole number", str: "a string"}.get(tp, str(tp))
        problems.append(DataProblem(path, f"expected {name}, got {_kind(data)}"))
        return tp() if tp in (bool, int, str) else None
    return data


def _dataclass(tp: type, data: object, path: str, problems: list[DataProblem]) -> object:
    if not isinstance(data, Mapping):
        problems.append(DataProblem(path, f"expected an object, got {_kind(data)}"))
        return None
    hints = _hints(tp)
    names = {f.name: f for f in dataclasses.fields(tp)}
    kwargs: dict[str, object] = {}
    before = len(problems)
    for key, value in data.items():
        if not isinstance(key, str) or key not in names:
            known = ", ".join(names)
            problems.append(DataProblem(_join(path, str(key)), f"unknown field; fields are {known}"[:300]))
            continue
        kwargs[key] = _decode(hints[key], value, _join(path, key), problems)
    for name, f in names.items():
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if required and name not in kwargs:
            problems.append(DataProblem(_join(path, name), "missing"))
    if len(problems) > before:
        return None
    if tp is Contact and "join_allies" not in kwargs:
        kwargs["join_allies"] = kwargs.get("mode", ContactMode.ACCEPT) is not ContactMode.EVADE
    return tp(**kwargs)
