"""Reading validated values out of parsed data files (TOML as plain mappings).

Every reader records a problem located by its path in the file instead of
raising, so that a loader can report every problem of a file at once and then
raise a single :class:`DataError`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class DataError(ValueError):
    """A data file (map, nations, names, scenario) is invalid.

    ``problems`` lists every problem found, each located by its path in the
    file, e.g. ``sea_areas.NOC.neighbours.south[1]: unknown sea area 'XYZ'``.
    """

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def join(path: str, key: str | int) -> str:
    """The path of ``key`` inside ``path``, TOML style (quoted keys with spaces)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    text = key if _BARE_KEY.fullmatch(key) else f'"{key}"'
    return f"{path}.{text}" if path else text


class Problems:
    """Collects located problems."""

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix
        self.items: list[str] = []
        self._seen: set[str] = set()
        self.count = 0

    def add(self, path: str, message: str) -> None:
        where = f"{self.prefix}{path}".rstrip()
        item = f"{where}: {message}" if where else message
        self.count += 1  # counts repeats too: callers compare it to learn whether a read failed
        if item not in self._seen:  # a shared value read by several records is reported once
            self._seen.add(item)
            self.items.append(item)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise DataError(list(self.items))


def type_name(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array"}
    for t, name in names.items():
        if type(value) is t:
            return name
    if isinstance(value, Mapping):
        return "a table"
    return type(value).__name__


class Table:
    """A mapping read at a path; each getter records a problem and returns
    ``None`` when the value is missing or malformed."""

    def __init__(
        self,
        data: Mapping[str, Any],
        path: str,
        problems: Problems,
        origins: Mapping[str, str] | None = None,
    ) -> None:
        self.data = data
        self.path = path
        self.problems = problems
        self.origins = origins or {}  # path of keys inherited from elsewhere (squadron defaults)

    @classmethod
    def at(cls, value: object, path: str, problems: Problems) -> Table | None:
        if not isinstance(value, Mapping):
            problems.add(path, f"expected a table, found {type_name(value)}")
            return None
        return cls(value, path, problems)

    def where(self, key: str | int) -> str:
        if isinstance(key, str) and key in self.origins:
            return self.origins[key]
        return join(self.path, key)

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def keys(self) -> list[str]:
        return [str(k) for k in self.data]

    def check_keys(self, allowed: Collection[str]) -> None:
        for key in self.data:
            if key not in allowed:
                self.problems.add(
                    self.where(str(key)), f"unknown key (expected one of: {', '.join(sorted(allowed))})"
                )

    def _fetch(self, key: str, required: bool) -> tuple[bool, Any]:
        if key not in self.data:
            if required:
                self.problems.add(self.where(key), "missing")
            return False, None
        return True, self.data[key]

    def str_(
        self, key: str, default: str | None = None, *, choices: Collection[str] | None = None
    ) -> str | None:
        found, value = self._fetch(key, default is None)
        if not found:
            return default
        if not isinstance(value, str):
            self.problems.add(self.where(key), f"expected a string, found {type_name(value)}")
            return None
        if not value.strip():
            self.problems.add(self.where(key), "must not be empty")
            return None
        if choices is not None and value not in choices:
            self.problems.add(self.where(key), f"{value!r} is not one of: {', '.join(sorted(choices))}")
            return None
        return value

    def opt_str(self, key: str) -> str | None:
        """An optional string: ``None`` when absent."""
        if key not in self.data:
            return None
        return self.str_(key)

    def int_(
        self, key: str, default: int | None = None, *, lo: int | None = None, hi: int | None = None
    ) -> int | None:
        found, value = self._fetch(key, default is None)
        if not found:
            return default
        return self.check_int(value, self.where(key), lo, hi)

    def check_int(self, value: object, path: str, lo: int | None = None, hi: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.add(path, f"expected an integer, found {type_name(value)}")
            return None
        if lo is not None and value < lo:
            self.problems.add(path, f"{value} is below the minimum {lo}")
            return None
        if hi is not None and value > hi:
            self.problems.add(path, f"{value} is above the maximum {hi}")
            return None
        return value

    def bool_(self, key: str, default: bool | None = None) -> bool | None:
        found, value = self._fetch(key, default is None)
        if not found:
            return default
        if not isinstance(value, bool):
            self.problems.add(self.where(key), f"expected true or false, found {type_name(value)}")
            return None
        return value

    def point(self, key: str) -> tuple[float, float] | None:
        """A drawing position ``[x, y]`` (longitude, latitude)."""
        found, value = self._fetch(key, True)
        if not found:
            return None
        ok = (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        )
        if not ok:
            self.problems.add(self.where(key), "expected [longitude, latitude]")
            return None
        return (float(value[0]), float(value[1]))

    def str_list(self, key: str, *, required: bool = False) -> list[tuple[str, str]]:
        """A list of strings as (path, value) pairs; bad items are reported."""
        found, value = self._fetch(key, required)
        if not found:
            return []
        if not isinstance(value, list):
            self.problems.add(self.where(key), f"expected an array of strings, found {type_name(value)}")
            return []
        out: list[tuple[str, str]] = []
        for i, item in enumerate(value):
            path = join(self.where(key), i)
            if not isinstance(item, str):
                self.problems.add(path, f"expected a string, found {type_name(item)}")
            elif not item.strip():
                self.problems.add(path, "must not be empty")
            else:
                out.append((path, item))
        return out

    def table(self, key: str, *, required: bool = False) -> Table | None:
        found, value = self._fetch(key, required)
        if not found:
            return None
        return Table.at(value, self.where(key), self.problems)

    def tables(self, key: str, *, required: bool = False) -> Iterator[tuple[str, Table]]:
        """The sub-tables of the table at ``key``, by name."""
        outer = self.table(key, required=required)
        if outer is None:
            return
        for name, value in outer.data.items():
            sub = Table.at(value, outer.where(str(name)), self.problems)
            if sub is not None:
                yield str(name), sub

    def array_of_tables(self, key: str) -> Iterator[tuple[int, Table]]:
        found, value = self._fetch(key, False)
        if not found:
            return
        if not isinstance(value, list):
            self.problems.add(self.where(key), f"expected an array of tables, found {type_name(value)}")
            return
        for i, item in enumerate(value):
            sub = Table.at(item, join(self.where(key), i), self.problems)
            if sub is not None:
                yield i, sub
