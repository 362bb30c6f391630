"""The cities on GITM's map: the ports of PATE's map files with on_gitm_map (rule 1.5)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path

DEFAULT_MAP = Path(__file__).resolve().parents[2] / "data" / "maps" / "europe.toml"


def load_cities(paths: Iterable[Path]) -> frozenset[str]:
    """Every port whose on_gitm_map is true; a port without it takes the map's own."""
    cities: set[str] = set()
    for path in paths:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        default = bool(data.get("map", {}).get("on_gitm_map", False))
        for name, port in data.get("ports", {}).items():
            if bool(port.get("on_gitm_map", default)):
                cities.add(name)
    return frozenset(cities)
