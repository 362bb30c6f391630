"""Parsing and validating the map data files (``data/maps/*.toml``, rule section 1).

The two maps are read into one :class:`WorldMap`: sea-area codes and port names
are unique across both, and ``SeaArea.map`` says which map an area is on.  The
schema is documented in ``docs/formats/map.md``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from pate.core.world.fields import Problems, Table, join
from pate.core.world.geography import Direction, MapName, Port, SeaArea, WindStrength, WindTable, WorldMap

AREA_CODE = re.compile(r"[A-Z]{3}")
MAX_TACTICAL_AREAS = 9
MAX_DEFENSE = 9
MAX_YARD = 20

_AREA_KEYS = (
    "name",
    "tactical_areas",
    "atlantic_edge",
    "position",
    "neighbours",
    "wind_direction",
    "wind_strength",
)
_PORT_KEYS = (
    "nation",
    "controller",
    "sea_area",
    "exit",
    "defense",
    "yard",
    "stores",
    "on_gitm_map",
    "strait",
    "position",
)

Located = list[tuple[str, str]]  # (path in the file, value)


@dataclass
class _Parsed:
    """What the files said, with where they said it, before cross-checks."""

    problems: Problems
    areas: dict[str, SeaArea] = field(default_factory=dict)
    ports: dict[str, Port] = field(default_factory=dict)
    neighbours: dict[str, dict[Direction, Located]] = field(default_factory=dict)
    prefix: dict[str, str] = field(default_factory=dict)  # "[europe] " by area code and port name
    port_map: dict[str, MapName] = field(default_factory=dict)
    declared: set[str] = field(default_factory=set)  # every area code in the files, valid or not

    def add(self, key: str, path: str, message: str) -> None:
        self.problems.items.append(f"{self.prefix.get(key, '')}{path}: {message}")


def parse_map(
    raw: Mapping[str, Any],
    nations: Collection[str] | None = None,
    states: Collection[str] | None = None,
) -> WorldMap:
    """Both maps as one :class:`WorldMap`.

    ``raw`` maps each map's name (``europe``, ``america``: the file stem) to
    the parsed content of its file.  ``nations`` and ``states``, when given,
    are the codes a port's ``nation`` and ``controller`` must be one of.
    Raises :class:`~pate.core.world.fields.DataError` listing every problem,
    each as ``[map] path: message``.
    """
    parsed = _Parsed(Problems())
    for map_key in sorted(raw):
        if map_key not in MapName._value2member_map_:
            parsed.problems.prefix = ""
            parsed.problems.add(
                f"[{map_key}]", f"unknown map (expected one of: {', '.join(m.value for m in MapName)})"
            )
            continue
        parsed.problems.prefix = f"[{map_key}] "
        top = Table.at(raw[map_key], "", parsed.problems)
        if top is not None:
            _read_map(top, MapName(map_key), parsed, nations, states)
    parsed.problems.prefix = ""
    _check_neighbours(parsed)
    _check_ports(parsed)
    _check_connected(parsed)
    parsed.problems.raise_if_any()
    return WorldMap(sea_areas=dict(sorted(parsed.areas.items())), ports=dict(sorted(parsed.ports.items())))


def _read_map(
    top: Table,
    map_name: MapName,
    parsed: _Parsed,
    nations: Collection[str] | None,
    states: Collection[str] | None,
) -> None:
    top.check_keys(("map", "sea_areas", "ports"))
    header = top.table("map")
    gitm_default = True
    if header is not None:
        header.check_keys(("title", "on_gitm_map"))
        header.str_("title", "")
        gitm_default = header.bool_("on_gitm_map", True) is not False
    prefix = parsed.problems.prefix
    for code, table in top.tables("sea_areas", required=True):
        parsed.declared.add(code)
        area = _read_area(code, table, map_name, parsed)
        if area is None:
            continue
        if code in parsed.areas:
            parsed.problems.add(
                table.path, f"sea area code already used on the {parsed.areas[code].map.value} map"
            )
            continue
        parsed.areas[code] = area
        parsed.prefix[code] = prefix
    for name, table in top.tables("ports", required=True):
        port = _read_port(name, table, gitm_default, nations, states)
        if port is None:
            continue
        clash = next((p for p in parsed.ports if p.casefold() == name.casefold()), None)
        if clash is not None:
            parsed.problems.add(table.path, f"port name already used by {clash!r}")
            continue
        parsed.ports[name] = port
        parsed.prefix[name] = prefix
        parsed.port_map[name] = map_name


def _read_area(code: str, t: Table, map_name: MapName, parsed: _Parsed) -> SeaArea | None:
    t.check_keys(_AREA_KEYS)
    n_before = t.problems.count
    if not AREA_CODE.fullmatch(code):
        t.problems.add(t.path, "a sea area code is three capital letters (rule 1.4)")
    name = t.str_("name")
    tactical = t.int_("tactical_areas", lo=1, hi=MAX_TACTICAL_AREAS)
    edge = t.bool_("atlantic_edge", False)
    position = t.point("position")
    neighbours = _read_neighbours(t)
    direction = _read_chances(t, "wind_direction", [d.value for d in Direction])
    strength = _read_chances(t, "wind_strength", [s.value for s in WindStrength])
    if t.problems.count > n_before:
        return None
    assert name is not None and tactical is not None and edge is not None and position is not None
    assert direction is not None and strength is not None
    if code not in parsed.neighbours:
        parsed.neighbours[code] = neighbours
    return SeaArea(
        code=code,
        name=name,
        map=map_name,
        neighbours=tuple((d, tuple(c for _, c in neighbours[d])) for d in Direction if neighbours.get(d)),
        winds=WindTable(
            direction=tuple((Direction(k), v) for k, v in direction),
            strength=tuple((WindStrength(k), v) for k, v in strength),
        ),
        tactical_areas=tactical,
        atlantic_edge=edge,
        position=position,
    )


def _read_neighbours(t: Table) -> dict[Direction, Located]:
    out: dict[Direction, Located] = {}
    table = t.table("neighbours", required=True)
    if table is None:
        return out
    table.check_keys([d.value for d in Direction])
    seen: set[str] = set()
    for d in Direction:
        items = table.str_list(d.value)
        for path, code in items:
            if code in seen:
                t.problems.add(path, f"{code!r} listed twice")
            seen.add(code)
        out[d] = items
    if not any(out.values()):
        t.problems.add(table.path, "a sea area needs at least one neighbour")
    return out


def _read_chances(t: Table, key: str, names: list[str]) -> list[tuple[str, int]] | None:
    """A table of percentages, one per name, summing to 100 (rule 1.4)."""
    table = t.table(key, required=True)
    if table is None:
        return None
    table.check_keys(names)
    out: list[tuple[str, int]] = []
    for name in names:
        value = table.int_(name, lo=0, hi=100)
        if value is None:
            return None
        out.append((name, value))
    total = sum(v for _, v in out)
    if total != 100:
        t.problems.add(table.path, f"chances sum to {total}, not 100")
        return None
    return out


def _read_port(
    name: str,
    t: Table,
    gitm_default: bool,
    nations: Collection[str] | None,
    states: Collection[str] | None,
) -> Port | None:
    t.check_keys(_PORT_KEYS)
    n_before = t.problems.count
    if name != name.strip() or not name:
        t.problems.add(t.path, "a port name may not be empty nor start or end with spaces")
    nation = t.str_("nation", choices=nations)
    controller = t.str_("controller", choices=states)
    sea_area = t.str_("sea_area")
    exit_ = t.str_("exit", choices=[d.value for d in Direction])
    defense = t.int_("defense", lo=0, hi=MAX_DEFENSE)
    yard = t.int_("yard", lo=0, hi=MAX_YARD)
    stores = t.int_("stores", lo=0)
    on_gitm = t.bool_("on_gitm_map", gitm_default)
    strait = t.opt_str("strait")
    position = t.point("position")
    if t.problems.count > n_before:
        return None
    assert nation and controller and sea_area and exit_ and position is not None
    assert defense is not None and yard is not None and stores is not None and on_gitm is not None
    return Port(
        name=name,
        nation=nation,
        controller=controller,
        sea_area=sea_area,
        exit=Direction(exit_),
        defense=defense,
        yard=yard,
        stores=stores,
        on_gitm_map=on_gitm,
        strait_sea_area=strait,
        position=position,
    )


def _check_neighbours(parsed: _Parsed) -> None:
    """Every neighbour exists, is on the same map, and lists this area back in
    the opposite direction (the map is symmetric)."""
    areas = parsed.areas
    for code in sorted(areas):
        area = areas[code]
        for d in Direction:
            for path, other in parsed.neighbours[code].get(d, []):
                if other == code:
                    parsed.add(code, path, "a sea area cannot border itself")
                elif other in parsed.declared and other not in areas:
                    continue  # its own problems are reported already
                elif other not in areas:
                    parsed.add(code, path, f"unknown sea area {other!r}")
                elif areas[other].map is not area.map:
                    parsed.add(code, path, f"{other!r} is on the {areas[other].map.value} map (rule 1.6)")
                elif code not in areas[other].neighbours_in(d.opposite):
                    msg = f"one-way adjacency: {other} does not list {code} to the {d.opposite.value}"
                    parsed.add(code, path, msg)


def _check_ports(parsed: _Parsed) -> None:
    areas = parsed.areas
    straits: dict[frozenset[str], str] = {}
    for name in sorted(parsed.ports):
        port = parsed.ports[name]
        path = join("ports", name)
        area = areas.get(port.sea_area)
        if area is None:
            if port.sea_area not in parsed.declared:
                parsed.add(name, f"{path}.sea_area", f"unknown sea area {port.sea_area!r}")
            continue
        if area.map is not parsed.port_map[name]:
            parsed.add(name, f"{path}.sea_area", f"{port.sea_area!r} is on the {area.map.value} map")
        if name in areas:
            parsed.add(name, path, "a port may not be named like a sea area code (orders name both)")
        if parsed.port_map[name] is MapName.AMERICA and port.on_gitm_map:
            parsed.add(
                name, f"{path}.on_gitm_map", "ports of American waters are off the GITM map (rule 1.5)"
            )
        if port.strait_sea_area is not None:
            _check_strait(parsed, name, port, area, straits)


def _check_strait(
    parsed: _Parsed, name: str, port: Port, area: SeaArea, straits: dict[frozenset[str], str]
) -> None:
    """Rule 6.3: a strait port lies on the border of two adjacent sea areas."""
    path = f"{join('ports', name)}.strait"
    second = port.strait_sea_area
    assert second is not None
    if second == port.sea_area:
        parsed.add(name, path, "the strait's second sea area must differ from the connected one")
    elif second not in parsed.areas:
        if second not in parsed.declared:
            parsed.add(name, path, f"unknown sea area {second!r}")
    elif second not in area.adjacent:
        parsed.add(name, path, f"{second} does not border the connected sea area {port.sea_area} (rule 6.3)")
    else:
        pair = frozenset((port.sea_area, second))
        if pair in straits:
            parsed.add(
                name, path, f"{straits[pair]} is already the strait between {port.sea_area} and {second}"
            )
        straits[pair] = name


def _check_connected(parsed: _Parsed) -> None:
    """Every sea area of a map can be reached from every other one, and each
    map has a sea area on its Atlantic edge (rule 6.11)."""
    areas = parsed.areas
    for map_name in MapName:
        codes = sorted(c for c, a in areas.items() if a.map is map_name)
        if not codes:
            continue
        seen = {codes[0]}
        todo = [codes[0]]
        while todo:
            for nxt in sorted(areas[todo.pop()].adjacent):
                if nxt in areas and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        cut_off = [c for c in codes if c not in seen]
        if cut_off:
            parsed.problems.add(
                f"[{map_name.value}] sea_areas", f"cut off from {codes[0]}: {', '.join(cut_off)}"
            )
        if not any(areas[c].atlantic_edge for c in codes):
            parsed.problems.add(
                f"[{map_name.value}] sea_areas", "no sea area on the Atlantic edge (rule 6.11)"
            )
