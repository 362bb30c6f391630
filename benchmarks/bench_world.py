"""Loading the world: parsing both maps, parsing the scenarios, drawing a map."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from pate.core.scenario.parse import parse_scenario
from pate.core.world.geography import MapName
from pate.core.world.mapdata import parse_map
from pate.datafiles import (
    data_dir,
    load_nations,
    load_rule_data,
    load_world_map,
    read_toml,
    read_world_map_files,
)
from pate.render.svg_map import render_map


def _best_ms(fn: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def run() -> list[tuple[str, str]]:
    nations, rules, wmap = load_nations(), load_rule_data(), load_world_map()
    maps_raw = read_world_map_files()
    rows = [
        (
            f"parse + validate both maps ({len(wmap.sea_areas)} sea areas, {len(wmap.ports)} ports)",
            f"{_best_ms(lambda: parse_map(maps_raw, nations.nations, nations.states)):.1f} ms",
        )
    ]
    for name in ("training", "trafalgar", "grand1805"):
        raw = read_toml(data_dir() / "scenarios" / f"{name}.toml")
        ships = len(parse_scenario(raw, wmap, rules, nations).world.ships)
        ms = _best_ms(partial(parse_scenario, raw, wmap, rules, nations))
        rows.append((f"parse + validate scenario {name} ({ships} ships)", f"{ms:.1f} ms"))
    for which in MapName:
        ms = _best_ms(partial(render_map, wmap, which))
        rows.append((f"render SVG map of {which.value}", f"{ms:.1f} ms"))
    return rows


if __name__ == "__main__":
    for label, value in run():
        print(f"{label:<60} {value}")
