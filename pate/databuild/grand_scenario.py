"""Write ``data/scenarios/grand1805.toml``: every navy of 1805 at roughly its
historical strength, placed in its home ports and on its blockade stations.

Run ``python -m pate.databuild.grand_scenario`` after changing the fleet tables
(:mod:`pate.databuild.grand_fleets`) or the name lists in ``data/names/``; ``--check`` only reports
whether the file is up to date (a test runs it).  Ship names are taken in order from each
nation's list, so the output is deterministic.  The strengths and stations, and
where they come from, are documented in ``docs/rules/world.md``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pate.core.world.names import ShipNames
from pate.core.world.ships import Quality, ShipType
from pate.databuild.grand_armies import GARRISONS, LAND_UNITS, Unit
from pate.databuild.grand_fleets import FLEETS, Fleet
from pate.databuild.grand_sides import COALITION, FRENCH_SIDE, PLAYERS
from pate.datafiles import data_dir, load_nations, load_ship_names

OUTPUT = "scenarios/grand1805.toml"
QUALITY_PATTERN = (0, 0, 1, 0, -1, 0, 0)  # spread of quality around a squadron's level
SEA_STORES = 16  # ships on station have been out a while (rule 2.8)


@dataclass
class _Numbers:
    """The next ship number and unused names, per state and type (rule 2.2)."""

    names: dict[str, ShipNames]
    next_number: dict[tuple[str, ShipType], int] = field(default_factory=dict)
    used: dict[str, set[str]] = field(default_factory=dict)

    def take(self, state: str, type_: ShipType, port_name: str) -> tuple[str, str]:
        n = self.next_number.get((state, type_), 1)
        self.next_number[state, type_] = n + 1
        sid = f"{state}{n}{type_.value}"
        if type_ is ShipType.TR:
            return sid, f"{port_name} transports {n}"
        nation = load_nations().nation_of(state) or state
        used = self.used.setdefault(nation, set())
        name = self.names[nation].next_free(type_, used)
        if name is None:
            raise SystemExit(f"data/names/{nation}.toml: not enough {type_.value} names")
        used.add(name)
        return sid, name


def _quality(level: str, i: int) -> str:
    q = Quality.from_label(level).value + QUALITY_PATTERN[i % len(QUALITY_PATTERN)]
    return Quality(max(Quality.VERY_POOR.value, min(Quality.EXCELLENT.value, q))).label


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _inline(d: dict[str, object]) -> str:
    return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in d.items()) + " }"


def _squadron(fleet: Fleet, numbers: _Numbers) -> list[str]:
    port_name = str(fleet.where.get("port", fleet.base))
    ships: list[dict[str, object]] = []
    i = 0
    for type_, count in ((ShipType.FL, fleet.fl), (ShipType.SL, fleet.sl), (ShipType.FR, fleet.fr)):
        for _ in range(count):
            sid, name = numbers.take(fleet.state, type_, port_name)
            ship: dict[str, object] = {"id": sid, "name": name}
            q = _quality(fleet.quality, i)
            if q != fleet.quality:
                ship["quality"] = q
            ships.append(ship)
            i += 1
    for capacity in fleet.tr:
        sid, name = numbers.take(fleet.state, ShipType.TR, port_name)
        ships.append({"id": sid, "name": name, "capacity": capacity})
    lines = [""]
    if fleet.note:
        lines.append(f"# {fleet.note}")
    lines.append("[[squadrons]]")
    for k, v in fleet.where.items():
        lines.append(f"{k} = {_value(v)}")
    lines.append(f"base = {_value(fleet.base)}")
    lines.append(f"quality = {_value(fleet.quality)}")
    if fleet.experience:
        lines.append(f"experience = {fleet.experience}")
    if "sea_area" in fleet.where:
        lines.append(f"stores = {SEA_STORES}")
    if fleet.commander:
        lines.append(f"commander = {_value(fleet.commander)}")
    if not fleet.active:
        lines.append("active = false")
    attach = fleet.attach and fleet.active and len(ships) > 1
    if attach:
        lines.append("attach = true")
    lines.append("ships = [")
    lines += [f"  {_inline(s)}," for s in ships]
    lines.append("]")
    return lines


def _land_unit(uid: str, unit: Unit) -> list[str]:
    lines = [f"[land_units.{uid}]    # {unit.port}: {unit.note} ({unit.source})"]
    for arm in ("infantry", "cavalry", "artillery", "batteries"):
        if getattr(unit, arm):
            lines.append(f"{arm} = {getattr(unit, arm)}")
    if unit.headquarters != "none":
        lines.append(f"headquarters = {_value(unit.headquarters)}")
    if unit.supplies:
        lines.append(f"supplies = {unit.supplies}")
    return [*lines, ""]


def render() -> str:
    numbers = _Numbers(names=load_ship_names())
    wars = sorted({tuple(sorted((a, b))) for a in COALITION for b in FRENCH_SIDE})
    alliances = sorted(
        {tuple(sorted((a, b))) for side in (COALITION, FRENCH_SIDE) for a in side for b in side if a < b}
    )
    out = [
        "# The grand campaign of 1805: every navy at roughly its historical strength.",
        "# GENERATED by `python -m pate.databuild.grand_scenario` from the tables in",
        "# pate/databuild/grand_*.py and the names in data/names/: edit those, not this file.",
        "# Format: docs/formats/scenario.md; sources: docs/rules/world.md.",
        "",
        "[scenario]",
        "format = 1",
        'name = "grand1805"',
        'title = "The grand campaign of 1805"',
        'version = "1.0"',
        'description = """Autumn 1805: the Third Coalition against France, Spain and Holland.',
        'Every navy of Europe and the Americas at roughly its historical strength."""',
        "seed = 1805",
        "turns = 15",
        "",
        "[diplomacy]",
        f"wars = {_value([list(w) for w in wars])}",
        f"alliances = {_value([list(a) for a in alliances])}",
        "",
    ]
    for pid, name, state, role in PLAYERS:
        out.append(f"[players.{pid}]")
        out.append(f"name = {_value(name)}")
        if state:
            out.append(f"state = {_value(state)}")
        out.append(f"roles = [{_value(role)}]")
        out.append("")
    # EiA rule 12.2.7 (docs/rules/eia.md): Nelson is a named admiral under combat_rules = "eia-advanced"
    out += ["[admirals.nelson]", "nelson = true", ""]
    for port, units in GARRISONS.items():
        out.append(f"[ports.{_value(port) if ' ' in port else port}]")
        out.append(f"garrison = {_value(list(units))}")
        out.append("")
    out += [
        "# Land units of 1805 in those ports (section 9): men per arm, sources in",
        "# pate/databuild/grand_armies.py.",
        "",
    ]
    for uid, unit in LAND_UNITS.items():
        out += _land_unit(uid, unit)
    out += ["[ship_defaults]", "morale = 2"]
    for fleet in FLEETS:
        out += _squadron(fleet, numbers)
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is not up to date")
    args = parser.parse_args(argv)
    path = Path(data_dir()) / OUTPUT
    text = render()
    if args.check:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{path} is out of date: run python -m pate.databuild.grand_scenario", file=sys.stderr)
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
