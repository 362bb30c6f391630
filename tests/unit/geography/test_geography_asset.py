"""The drawn geography (data/geography/map.json) against the map data: every
sea area a polygon on real coasts, ports and labels inside their areas,
neighbours touching (or linked by a strait port or a declared passage),
and areas that are not neighbours kept apart (rule 1.6's map, rule 6.3)."""

from __future__ import annotations

import pytest

from pate.core.world.geography import WorldMap
from pate.databuild.geography_inputs import REGENERATE, inputs_sha256
from pate.datafiles import load_world_map
from pate.render.geography import Geography, MapGeography, contains, load_geography, path_rings


@pytest.fixture(scope="module")
def world() -> WorldMap:
    return load_world_map()


@pytest.fixture(scope="module")
def geo() -> Geography:
    return load_geography()


def _maps(geo: Geography) -> list[MapGeography]:
    return [geo.maps[name] for name in ("europe", "america")]


def _vertices(m: MapGeography, code: str) -> set[tuple[float, float]]:
    return {pt for ring in m.rings(code) for pt in ring}


def test_the_asset_is_made_from_the_inputs_in_this_repository(geo: Geography) -> None:
    assert geo.inputs_sha256 == inputs_sha256(), f"stale geography asset: regenerate with {REGENERATE}"


def test_every_sea_area_of_the_map_data_is_a_polygon_on_its_map(world: WorldMap, geo: Geography) -> None:
    for code, area in world.sea_areas.items():
        m = geo.maps[area.map.value]
        assert m.rings(code), code
    drawn = {c for m in _maps(geo) for c in m.areas}
    assert drawn == set(world.sea_areas)


def test_every_port_lies_inside_its_connected_sea_area(world: WorldMap, geo: Geography) -> None:
    # rule 1.3: a port has one connected sea area; a strait port (6.3) may
    # stand on the border with its second one
    outside = []
    for port in world.ports.values():
        m = geo.maps[world.sea_areas[port.sea_area].map.value]
        point = m.ports[port.name]
        areas = [port.sea_area] + ([port.strait_sea_area] if port.strait_sea_area else [])
        if not any(contains(m.rings(a), point) for a in areas):
            outside.append(f"{port.name} ({port.sea_area}) at {point}")
    assert outside == []


def test_every_sea_area_label_lies_inside_its_polygon(geo: Geography) -> None:
    for m in _maps(geo):
        for code, point in m.labels.items():
            assert contains(m.rings(code), point), code


def _linked(world: WorldMap, m: MapGeography) -> set[frozenset[str]]:
    links = {frozenset((a, b)) for a, b, _ in m.passages}
    links |= {frozenset((p.sea_area, p.strait_sea_area)) for p in world.ports.values() if p.strait_sea_area}
    return links


def test_neighbouring_areas_share_a_border_or_a_declared_strait(world: WorldMap, geo: Geography) -> None:
    apart = []
    for m in _maps(geo):
        links = _linked(world, m)
        for code in m.areas:
            for other in world.sea_areas[code].adjacent:
                shared = _vertices(m, code) & _vertices(m, other)
                if code < other and len(shared) < 2 and frozenset((code, other)) not in links:
                    apart.append(f"{code}-{other}")
    assert apart == []


def test_areas_that_are_not_neighbours_share_no_border(world: WorldMap, geo: Geography) -> None:
    touching = []
    for m in _maps(geo):
        codes = sorted(m.areas)
        for n, code in enumerate(codes):
            mine = _vertices(m, code)
            for other in codes[n + 1 :]:
                if other not in world.sea_areas[code].adjacent and len(mine & _vertices(m, other)) >= 2:
                    touching.append(f"{code}-{other}")
    assert touching == []


def test_the_coast_is_drawn_and_ports_stand_by_it(geo: Geography) -> None:
    # the land is Natural Earth's, not a schematic: Brest lies on the land's
    # edge at the western tip of Brittany, west of Cherbourg and Le Havre
    europe = geo.maps["europe"]
    land = path_rings(europe.land)
    assert sum(len(r) for r in land) > 2000
    brest, cherbourg = europe.ports["Brest"], europe.ports["Cherbourg"]
    assert brest[0] < cherbourg[0]
    near = [(brest[0] + dx, brest[1] + dy) for dx in (-6, 0, 6) for dy in (-6, 0, 6)]
    on_land = [contains(land, p) for p in near]
    assert any(on_land) and not all(on_land)


def test_every_port_has_its_real_position_with_a_source(world: WorldMap) -> None:
    # data/geography/ports.toml: the gazetteer's latitude and longitude of
    # each port, which the map data must use
    from pate.datafiles import data_dir, read_toml

    places = read_toml(data_dir() / "geography" / "ports.toml")
    assert set(places) == set(world.ports)
    for name, port in world.ports.items():
        assert tuple(places[name]["position"]) == port.position, name
        assert places[name]["source"].strip(), name
