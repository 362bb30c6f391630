"""Finding and reading the project's data files (maps, rules, scenarios).

This is an adapter: it touches the file system so that the pure core never
does.  Files are parsed once per process and the results cached.
"""

from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from pate.core.ruledata import RuleData, parse_rules
from pate.core.scenario.parse import Scenario, parse_scenario
from pate.core.world.fields import DataError
from pate.core.world.geography import WorldMap
from pate.core.world.mapdata import parse_map
from pate.core.world.names import ShipNames, parse_names
from pate.core.world.nations import Nations, parse_nations


def data_dir() -> Path:
    """``PATE_DATA_DIR`` if set, else the ``data/`` folder of the source tree."""
    env = os.environ.get("PATE_DATA_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "data"


def read_toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        return tomllib.load(fh)


@cache
def load_rule_data() -> RuleData:
    """Every ``data/rules/*.toml`` file, one section per file name."""
    raw = {p.stem: read_toml(p) for p in sorted((data_dir() / "rules").glob("*.toml"))}
    return parse_rules(raw)


# --- the world: nations, maps, ship names, scenarios ---------------


class DataFileMissingError(DataError, FileNotFoundError):
    """A data file that does not exist: both a :class:`DataError` (one
    located problem) and a :class:`FileNotFoundError` (for callers that answer
    "not found")."""


def read_data_toml(path: Path) -> dict[str, Any]:
    """Like :func:`read_toml`, but an unreadable or malformed file is a
    :class:`DataError` naming the file (so commands never print a traceback)."""
    try:
        return read_toml(path)
    except FileNotFoundError as exc:
        raise DataFileMissingError([f"{path}: no such file"]) from exc
    except OSError as exc:
        raise DataError([f"{path}: cannot read: {exc.strerror or exc}"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise DataError([f"{path}: not valid TOML: {exc}"]) from exc


@cache
def load_nations() -> Nations:
    """``data/nations.toml``: the NWOL nations and their states."""
    return parse_nations(read_data_toml(data_dir() / "nations.toml"))


def read_world_map_files(directory: Path | None = None) -> dict[str, dict[str, Any]]:
    """The parsed ``data/maps/*.toml`` files, by map name (file stem)."""
    folder = directory or data_dir() / "maps"
    return {p.stem: read_data_toml(p) for p in sorted(folder.glob("*.toml"))}


@cache
def load_world_map() -> WorldMap:
    """Both maps (``data/maps/*.toml``) as one validated :class:`WorldMap`."""
    nations = load_nations()
    return parse_map(read_world_map_files(), nations=nations.nations, states=nations.states)


def scenario_path(name_or_path: str | Path) -> Path:
    """A bare name like ``training`` means ``data/scenarios/training.toml``."""
    text = str(name_or_path)
    if "/" in text or "\\" in text or text.endswith(".toml"):
        return Path(text)
    return data_dir() / "scenarios" / f"{text}.toml"


SCENARIO_NAME = re.compile(r"[a-z0-9_]{1,64}")
MAX_SCENARIO_CHARS = 1024 * 1024
MAX_SCENARIO_NESTING = 32


def load_shipped_scenario(name: str) -> Scenario:
    """A scenario of the data folder by its bare name, never a path: what a server
    reads for a caller (``training.toml`` or ``../x`` are refused, not looked up)."""
    if not SCENARIO_NAME.fullmatch(name):
        raise DataError([f"scenario: {name[:80]!r} is not a scenario name ([a-z0-9_]{{1,64}})"])
    return load_scenario(data_dir() / "scenarios" / f"{name}.toml")


def list_scenarios() -> list[Path]:
    """The shipped scenario files, by name."""
    return sorted((data_dir() / "scenarios").glob("*.toml"))


def load_scenario(name_or_path: str | Path) -> Scenario:
    """A validated scenario; raises :class:`DataError` listing every problem
    (an unreadable or malformed file is one problem)."""
    raw = read_data_toml(scenario_path(name_or_path))
    return parse_scenario(raw, load_world_map(), load_rule_data(), nations=load_nations())


@cache
def load_ship_names() -> dict[str, ShipNames]:
    """``data/names/<NATION>.toml``: historic ship names per nation (rule 2.2)."""
    raw = {p.stem: read_data_toml(p) for p in sorted((data_dir() / "names").glob("*.toml"))}
    return parse_names(raw, nations=load_nations().nations)


def parse_scenario_text(text: str, source: str = "scenario") -> Scenario:
    """A scenario given as TOML text (e.g. uploaded by an administrator), at most
    ``MAX_SCENARIO_CHARS`` long and ``MAX_SCENARIO_NESTING`` deep."""
    if len(text) > MAX_SCENARIO_CHARS:
        raise DataError([f"{source}: longer than {MAX_SCENARIO_CHARS} characters"])
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError([f"{source}: not valid TOML: {str(exc)[:160]}"]) from None
    except RecursionError:  # arrays or inline tables nested thousands deep
        raise DataError([f"{source}: nested deeper than {MAX_SCENARIO_NESTING} levels"]) from None
    if nesting(raw) > MAX_SCENARIO_NESTING:
        raise DataError([f"{source}: nested deeper than {MAX_SCENARIO_NESTING} levels"])
    return parse_scenario(raw, load_world_map(), load_rule_data(), nations=load_nations())


def nesting(value: object) -> int:
    """How deep tables and arrays lie inside each other (iteratively: no recursion to exhaust)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest
