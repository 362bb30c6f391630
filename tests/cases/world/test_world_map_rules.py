"""Rule cases for the map (rule section 1, rules 6.2, 6.3, 6.11): every
adjacency, port, strait and off-map fact the rule book states."""

from __future__ import annotations

import pytest

from pate.core.world.geography import Direction, MapName, WorldMap
from pate.datafiles import load_nations, load_world_map


@pytest.fixture(scope="module")
def wmap() -> WorldMap:
    return load_world_map()


def areas_of(wmap: WorldMap, which: MapName) -> set[str]:
    return {c for c, a in wmap.sea_areas.items() if a.map is which}


def test_rule_1_1_two_maps(wmap: WorldMap) -> None:
    """1.1: "PATE takes place on two maps, one showing European waters ... and
    one showing American waters"."""
    assert areas_of(wmap, MapName.EUROPE) and areas_of(wmap, MapName.AMERICA)
    assert len(wmap.sea_areas) >= 40
    assert len(wmap.ports) >= 90


def test_rule_1_1_european_waters_cover_the_named_seas(wmap: WorldMap) -> None:
    """1.1: European waters show "the Baltic, Mediterranean, North, and Black
    Seas, and the eastern Atlantic ocean"."""
    names = {wmap.sea_areas[c].name for c in areas_of(wmap, MapName.EUROPE)}
    for expected in ("Baltic Sea", "North Sea", "Western Mediterranean", "Eastern Mediterranean"):
        assert expected in names
    assert {"Western Black Sea", "Eastern Black Sea"} <= names
    assert any(wmap.sea_areas[c].atlantic_edge for c in areas_of(wmap, MapName.EUROPE))


def test_rule_1_2_sea_areas_have_tactical_areas(wmap: WorldMap) -> None:
    """1.2: "A sea area contains a number of smaller tactical areas"."""
    assert all(a.tactical_areas >= 1 for a in wmap.sea_areas.values())


@pytest.mark.parametrize(
    ("port", "area", "exit_"),
    [
        ("London", "NOS", Direction.EAST),
        ("Brest", "ECH", Direction.WEST),
        ("Venetzia", "ADR", Direction.EAST),
    ],
)
def test_rule_1_3_examples_of_connected_sea_areas(
    wmap: WorldMap, port: str, area: str, exit_: Direction
) -> None:
    """1.3: "London is connected to the North Sea sea area, exiting to the east;
    Brest is connected to the English Channel sea area, exiting to the west;
    Venetzia (Venice) is connected to the Adriatic Sea sea area, exiting to the east"."""
    assert wmap.ports[port].sea_area == area
    assert wmap.ports[port].exit is exit_
    assert wmap.sea_areas["NOS"].name == "North Sea"
    assert wmap.sea_areas["ECH"].name == "English Channel"
    assert wmap.sea_areas["ADR"].name == "Adriatic Sea"


def test_rule_1_3_port_au_prince(wmap: WorldMap) -> None:
    """1.3: "Port au Prince is connected to the Western Caribbean sea area. A ship
    sailing out of Port au Prince cannot sail directly into the Bahamas sea area
    or the Straits of Florida sea area"."""
    port = wmap.ports["Port au Prince"]
    assert wmap.sea_areas[port.sea_area].name == "Western Caribbean"
    assert port.reachable_sea_areas == (port.sea_area,)
    names = {a.name: c for c, a in wmap.sea_areas.items()}
    assert names["Bahamas"] not in port.reachable_sea_areas
    assert names["Straits of Florida"] not in port.reachable_sea_areas


def test_rule_1_3_every_port_connects_to_exactly_one_sea_area(wmap: WorldMap) -> None:
    """1.3: "Each port is connected to exactly one sea area, in a specific direction"."""
    for port in wmap.ports.values():
        assert port.sea_area in wmap.sea_areas
        assert isinstance(port.exit, Direction)


def test_rule_1_3_only_three_exceptions(wmap: WorldMap) -> None:
    """1.3: "The three exceptions are: sailing between Gibraltar and SOA ...
    Kobenhavn and SKA ... Boulogne and NOS"."""
    straits = {p.name: p.strait_sea_area for p in wmap.ports.values() if p.strait_sea_area}
    assert straits == {"Gibraltar": "SOA", "Kobenhavn": "SKA", "Boulogne": "NOS"}


def test_rule_1_4_sea_area_codes_are_three_letters(wmap: WorldMap) -> None:
    """1.4: "Each sea area has a name and a three-letter code"."""
    for code, area in wmap.sea_areas.items():
        assert len(code) == 3 and code.isalpha() and code.isupper()
        assert area.name


def test_rule_1_4_wind_chances_and_four_directions(wmap: WorldMap) -> None:
    """1.4: "For each sea area there are chances for the winds to blow in various
    directions, and a list of sea areas to the north, south, east, and west"; winds
    are "either light, moderate, or heavy"."""
    for area in wmap.sea_areas.values():
        assert sum(v for _, v in area.winds.direction) == 100
        assert sum(v for _, v in area.winds.strength) == 100
        assert len(area.winds.direction) == 4 and len(area.winds.strength) == 3
        assert {d for d, _ in area.neighbours} <= set(Direction)


def test_rule_1_4_ports_belong_to_a_nation_and_are_controlled_by_a_state(wmap: WorldMap) -> None:
    """1.4: "Each port is belongs to one of the thirteen NWOL nations and is
    controlled by one NWOL state. Each port also has an exit direction and a
    defensive rating."  Decision (docs/rules/world.md): ports of powers outside
    NWOL (Ottoman Empire, Morocco, United States) belong to neutral nations."""
    nations = load_nations()
    assert sum(1 for n in nations.nations.values() if n.nwol) == 13
    for port in wmap.ports.values():
        assert port.nation in nations.nations
        assert port.controller in nations.states
        assert port.defense >= 0


def test_rule_1_5_off_gitm_map_ports(wmap: WorldMap) -> None:
    """1.5: "All Caribbean ports are off-GITM-map; all European ports are
    on-GITM-map except for Malta and Corfu, which are off-GITM-map"."""
    europe = areas_of(wmap, MapName.EUROPE)
    for port in wmap.ports.values():
        if port.sea_area in europe:
            assert port.on_gitm_map is (port.name not in {"Malta", "Corfu"}), port.name
        else:
            assert not port.on_gitm_map, port.name
    assert wmap.ports["Malta"].sea_area in europe and wmap.ports["Corfu"].sea_area in europe


def test_rule_1_6_maps_not_connected_directly(wmap: WorldMap) -> None:
    """1.6: "The European waters map and the American waters map are not connected directly"."""
    for area in wmap.sea_areas.values():
        assert all(wmap.sea_areas[o].map is area.map for o in area.adjacent)
    for port in wmap.ports.values():
        maps = {wmap.sea_areas[a].map for a in port.reachable_sea_areas}
        assert len(maps) == 1


def test_rule_1_4_sample_sea_area_map_northern_caribbean(wmap: WorldMap) -> None:
    """Sample sea area map of rule 1.4: NOC with the Bahamas above, the Western
    Caribbean to the left, the Southwest Atlantic to the right and the Southern
    Caribbean below."""
    noc = wmap.sea_areas["NOC"]
    assert noc.name == "Northern Caribbean"
    name = {c: a.name for c, a in wmap.sea_areas.items()}
    assert [name[c] for c in noc.neighbours_in(Direction.NORTH)] == ["Bahamas"]
    assert [name[c] for c in noc.neighbours_in(Direction.WEST)] == ["Western Caribbean"]
    assert [name[c] for c in noc.neighbours_in(Direction.EAST)] == ["Southwest Atlantic"]
    assert [name[c] for c in noc.neighbours_in(Direction.SOUTH)] == ["Southern Caribbean"]


def test_recovered_ten_caribbean_sea_areas(wmap: WorldMap) -> None:
    """Recovered help pages: "The American map had ten Caribbean sea areas (one coded SOC)"."""
    caribbean = {"BAH", "FLS", "WIN", "WCA", "NOC", "SOC", "SUR", "PAN", "HON", "YUC"}
    assert caribbean <= areas_of(wmap, MapName.AMERICA)
    assert wmap.sea_areas["SOC"].name == "Southern Caribbean"


def test_rule_6_2_southern_caribbean(wmap: WorldMap) -> None:
    """6.2: "A ship in the Southern Caribbean may move to the Northern Caribbean,
    Surinam Coast, or Panama Coast. It may not move to the Western Caribbean or
    Southwest Atlantic, nor to the Bahamas ... It may move to Martinique, which is
    connected to the Southern Caribbeam, but not to Dominica, which is connected
    to the Northern Caribbean"."""
    name = {c: a.name for c, a in wmap.sea_areas.items()}
    soc = wmap.sea_areas["SOC"]
    assert {name[c] for c in soc.adjacent} == {"Northern Caribbean", "Surinam Coast", "Panama Coast"}
    assert "Martinique" in wmap.ports_reachable_from("SOC")
    assert "Dominica" not in wmap.ports_reachable_from("SOC")
    assert wmap.ports["Dominica"].sea_area == "NOC"
    assert "Dominica" in wmap.ports_reachable_from("NOC")


@pytest.mark.parametrize(
    ("port", "connected", "second"),
    [("Gibraltar", "WMD", "SOA"), ("Boulogne", "ECH", "NOS"), ("Kobenhavn", "BAS", "SKA")],
)
def test_rule_6_3_strait_ports(wmap: WorldMap, port: str, connected: str, second: str) -> None:
    """6.3: "Gibraltar is on the border between SOA and WMD, Bolougne is on the
    border between ECH and NOS, and Kobenhavn is on the border between SKA and
    BAS ... ships in either of the sea areas adjoining the port may sail directly
    to the port ... (Note that Gibraltar is not connected to SOA; it remains
    connected to WMD only for purposes of weather, sighting, etc.) ... ships
    moving between SOA and WMD must pass through Gibraltar"."""
    p = wmap.ports[port]
    assert (p.sea_area, p.strait_sea_area) == (connected, second)
    assert set(p.reachable_sea_areas) == {connected, second}
    assert port in wmap.ports_reachable_from(connected)
    assert port in wmap.ports_reachable_from(second)
    assert port in wmap.connected_ports(connected)
    assert port not in wmap.connected_ports(second)
    assert wmap.borders(connected, second) and wmap.borders(second, connected)
    assert wmap.strait_between(connected, second) == port
    assert wmap.strait_between(second, connected) == port


def test_rule_6_11_atlantic_crossing_example(wmap: WorldMap) -> None:
    """6.11: "A ship in Lisbon can cross the Atlantic by ordering a movement to the
    Iberian Coast, then to the Southwest Atlantic"."""
    lisbon = wmap.ports["Lisbon"]
    ibc = wmap.sea_areas[lisbon.sea_area]
    assert ibc.name == "Iberian Coast" and ibc.map is MapName.EUROPE and ibc.atlantic_edge
    swa = next(a for a in wmap.sea_areas.values() if a.name == "Southwest Atlantic")
    assert swa.map is MapName.AMERICA and swa.atlantic_edge


def test_issue_names_exist(wmap: WorldMap) -> None:
    """Names the rule book uses in its examples exist (1.3, 6.2, 6.3)."""
    for port in ("London", "Brest", "Venetzia", "Port au Prince", "Martinique", "Dominica", "Lisbon"):
        assert port in wmap.ports
    assert "Ferrol" in wmap.ports
    for code in ("SOA", "WMD", "ECH", "NOS", "SKA", "BAS", "NOC", "SOC"):
        assert code in wmap.sea_areas


def test_map_is_symmetric(wmap: WorldMap) -> None:
    """If B lies to the north of A, then A lies to the south of B (and so on)."""
    for code, area in wmap.sea_areas.items():
        for direction, others in area.neighbours:
            for other in others:
                assert code in wmap.sea_areas[other].neighbours_in(direction.opposite), (code, other)
