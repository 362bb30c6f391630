"""Rule constants, loaded from the rules data files (``data/rules/*.toml``).

The core never reads files: an adapter parses the TOML and hands the mapping to
:func:`parse_rules`, which validates it once.  Each rule module owns the typed
section it needs; this module only gathers them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pate.core.world.ships import ShipType


class RulesDataError(ValueError):
    """A rules data file is malformed; ``problems`` lists each one by path."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class ShipClass:
    """Limits of a ship type (rule 2.7) and its base strength (7.7)."""

    type: ShipType
    max_crew: int
    max_marines: int
    min_crew: int  # least crew a transfer may leave aboard (2.7)
    base_strength: int
    stores_max: int  # rule 3.4: 24


@dataclass(frozen=True, slots=True)
class ResultScoring:
    """The points of a campaign's final account and the bands of its result
    (docs/rules/result.md; the rule book's victory conditions are lost)."""

    ship: Mapping[ShipType, int]  # a ship sunk, wrecked or taken, by type
    merchant: int  # a merchant (trade ship) taken
    port: int  # a port that changed sides
    troops_lost: int  # a land unit lost at sea
    troops_landed: int  # a land unit put ashore in a port an enemy held at the start
    draw_below: int  # a margin below this is a draw
    decisive_from: int  # a margin of this many points or more may be decisive ...
    decisive_share_pct: int  # ... when it is also this share of all the points in play


_RESULT_KEYS = ("merchant", "port", "troops_lost", "troops_landed")
_BAND_KEYS = ("draw_below", "decisive_from", "decisive_share_pct")


def _result_scoring(section: Mapping[str, Any], problems: list[str]) -> ResultScoring | None:
    """The ``result`` section: every weight a whole number of points, none negative."""
    found: dict[str, int] = {}
    ships = section.get("ships", {})
    points = section.get("points", {})
    bands = section.get("bands", {})
    wanted = [(f"ships.{t.value}", ships, t.value) for t in ShipType]
    wanted += [(f"points.{k}", points, k) for k in _RESULT_KEYS]
    wanted += [(f"bands.{k}", bands, k) for k in _BAND_KEYS]
    for path, table, key in wanted:
        value = table.get(key) if isinstance(table, Mapping) else None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.append(f"result.{path}: a whole number of points, 0 or more (found {value!r})")
        else:
            found[path] = value
    if len(found) < len(wanted):
        return None
    if found["bands.decisive_share_pct"] > 100:
        problems.append("result.bands.decisive_share_pct: a percentage, 0 to 100")
        return None
    return ResultScoring(
        ship={t: found[f"ships.{t.value}"] for t in ShipType},
        **{k: found[f"points.{k}"] for k in _RESULT_KEYS},
        **{k: found[f"bands.{k}"] for k in _BAND_KEYS},
    )


@dataclass(frozen=True, slots=True)
class RuleData:
    ship_classes: Mapping[ShipType, ShipClass]
    sections: Mapping[str, Mapping[str, Any]]  # every section as parsed
    result: ResultScoring | None = None  # the ``result`` section, when the data has one

    def ship_class(self, type_: ShipType) -> ShipClass:
        return self.ship_classes[type_]

    def result_scoring(self) -> ResultScoring:
        if self.result is None:
            raise RulesDataError(["result: missing (data/rules/result.toml)"])
        return self.result

    def section(self, name: str) -> Mapping[str, Any]:
        return self.sections.get(name, {})


def parse_rules(raw: Mapping[str, Mapping[str, Any]]) -> RuleData:
    problems = list(_not_finite(raw, ""))
    classes: dict[ShipType, ShipClass] = {}
    table = raw.get("ships", {}).get("class", {})
    for t in ShipType:
        entry = table.get(t.value)
        if not isinstance(entry, Mapping):
            problems.append(f"ships.class.{t.value}: missing")
            continue
        try:
            classes[t] = ShipClass(
                type=t,
                max_crew=int(entry["max_crew"]),
                max_marines=int(entry["max_marines"]),
                min_crew=int(entry["min_crew"]),
                base_strength=int(entry["base_strength"]),
                stores_max=int(entry["stores_max"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"ships.class.{t.value}: {exc}")
    result = _result_scoring(raw["result"], problems) if "result" in raw else None
    if problems:
        raise RulesDataError(problems)
    return RuleData(ship_classes=classes, sections=raw, result=result)


def _not_finite(value: Any, path: str) -> Iterator[str]:
    """Every number of the data that is nan or infinite.  TOML writes both, and a rule number so
    made turns every comparison it enters false; nor could the worlds and events it reached be
    stored, whose JSON has no such numbers."""
    if isinstance(value, float) and not math.isfinite(value):
        yield f"{path}: {value} is not a finite number"
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _not_finite(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _not_finite(item, f"{path}[{i}]")
