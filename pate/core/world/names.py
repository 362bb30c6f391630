"""Historic ship names per nation (rule 2.2: "Ships also have names, which
are chosen from a list of historic names"), read from ``data/names/*.toml``."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from pate.core.world.fields import Problems, Table
from pate.core.world.ships import ShipType

NAMED_TYPES = (ShipType.FL, ShipType.SL, ShipType.FR)  # transport groups are not named from lists


@dataclass(frozen=True, slots=True)
class ShipNames:
    """The names of one nation, by ship type, in the order of the file."""

    nation: str
    by_type: tuple[tuple[ShipType, tuple[str, ...]], ...]

    def names(self, type_: ShipType) -> tuple[str, ...]:
        for t, names in self.by_type:
            if t is type_:
                return names
        return ()

    def next_free(self, type_: ShipType, used: Collection[str]) -> str | None:
        """The first name of this type not in ``used`` (for new ships and prizes)."""
        return next((n for n in self.names(type_) if n not in used), None)


def parse_names(raw: Mapping[str, Any], nations: Collection[str] | None = None) -> dict[str, ShipNames]:
    """``raw`` maps each nation code (the file stem) to its file's content.
    Raises :class:`~pate.core.world.fields.DataError` listing every problem."""
    problems = Problems()
    out: dict[str, ShipNames] = {}
    for nation in sorted(raw):
        problems.prefix = f"[names/{nation}] "
        if nations is not None and nation not in nations:
            problems.add("", f"unknown nation {nation!r}")
            continue
        table = Table.at(raw[nation], "", problems)
        if table is None:
            continue
        table.check_keys([t.value for t in NAMED_TYPES])
        seen: dict[str, str] = {}
        by_type: list[tuple[ShipType, tuple[str, ...]]] = []
        for t in NAMED_TYPES:
            names: list[str] = []
            for path, name in table.str_list(t.value):
                if name in seen:
                    problems.add(path, f"{name!r} already listed at {seen[name]}")
                    continue
                seen[name] = path
                names.append(name)
            if names:
                by_type.append((t, tuple(names)))
        out[nation] = ShipNames(nation=nation, by_type=tuple(by_type))
    problems.prefix = ""
    problems.raise_if_any()
    return out
