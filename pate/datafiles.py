"""Finding and reading the project's data files (maps, rules, scenarios).

This is an adapter: it touches the file system so that the pure core never
does.  Files are parsed once per process and the results cached.
"""

from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from pate.core.rules.data import RuleData, parse_rules


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
