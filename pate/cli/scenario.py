"""``pate scenario``: check and list scenarios, draw the maps.

``validate`` prints every problem with its path in the file and exits 2 on bad
data, never with a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from pate.core.scenario.parse import Scenario
from pate.core.world.fields import DataError
from pate.core.world.geography import MapName


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("scenario", help="validate and list scenarios, draw the maps")
    sub = parser.add_subparsers(dest="scenario_command", required=True)

    p = sub.add_parser("validate", help="check a scenario file (and the maps) and list every problem")
    p.add_argument("file", nargs="+", help="scenario file, or the name of a shipped scenario (e.g. training)")
    p.set_defaults(handler=validate)

    p = sub.add_parser("list", help="list the shipped scenarios")
    p.set_defaults(handler=list_scenarios)

    p = sub.add_parser("map", help="draw a map as SVG")
    p.add_argument("map", choices=[m.value for m in MapName])
    p.add_argument("-o", "--output", help="file to write (default: standard output)")
    p.add_argument("--highlight", nargs="*", default=[], help="sea area codes to highlight")
    p.set_defaults(handler=draw_map)


def _load(name: str) -> Scenario:
    from pate.datafiles import load_scenario

    return load_scenario(name)


def summary(s: Scenario) -> str:
    types = Counter(ship.type.value for ship in s.world.ships.values())
    states = sorted({ship.state for ship in s.world.ships.values()})
    kinds = ", ".join(f"{n} {t}" for t, n in sorted(types.items()))
    return (
        f"{len(s.world.ships)} ships and transport groups ({kinds}) of {len(states)} states, "
        f"{len(s.world.players)} players, {s.world.turns} turns"
    )


def validate(args: argparse.Namespace) -> int:
    worst = 0
    for name in args.file:
        try:
            scenario = _load(name)
        except DataError as exc:
            print(f"{name}: {len(exc.problems)} problem(s)", file=sys.stderr)
            for problem in exc.problems:
                print(f"  {problem}", file=sys.stderr)
            worst = 2
            continue
        print(f"{name}: ok: {summary(scenario)}")
    return worst


def list_scenarios(args: argparse.Namespace) -> int:
    from pate.datafiles import list_scenarios as shipped

    code = 0
    for path in shipped():
        try:
            s = _load(str(path))
        except DataError as exc:
            hint = f"run pate scenario validate {path.stem}"
            print(f"{path.stem:<12} INVALID ({len(exc.problems)} problems: {hint})")
            code = 2
            continue
        print(f"{s.name:<12} v{s.version:<6} {s.title}")
        print(f"{'':<12} {summary(s)}")
    return code


def draw_map(args: argparse.Namespace) -> int:
    from pate.datafiles import load_world_map
    from pate.render.svg_map import MapStyle, render_map

    try:
        wmap = load_world_map()
    except DataError as exc:
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    unknown = [c for c in args.highlight if c not in wmap.sea_areas]
    if unknown:
        print(f"pate: unknown sea area(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    svg = render_map(wmap, MapName(args.map), MapStyle(), highlight=frozenset(args.highlight))
    if args.output:
        Path(args.output).write_text(svg, encoding="utf-8")
    else:
        sys.stdout.write(svg)
    return 0
