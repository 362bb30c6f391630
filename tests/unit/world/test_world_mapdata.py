"""Map parsing and validation: each problem is reported with its path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pate.core.world.fields import DataError
from pate.core.world.geography import Direction, MapName
from pate.core.world.mapdata import parse_map
from pate.datafiles import read_world_map_files

WIND = {"north": 25, "south": 25, "east": 25, "west": 25}
STRENGTH = {"light": 30, "moderate": 50, "heavy": 20}


def area(name: str, **neighbours: list[str]) -> dict[str, Any]:
    return {
        "name": name,
        "tactical_areas": 3,
        "atlantic_edge": True,
        "position": [0, 0],
        "neighbours": neighbours,
        "wind_direction": dict(WIND),
        "wind_strength": dict(STRENGTH),
    }


def port(sea_area: str, **extra: Any) -> dict[str, Any]:
    base = {
        "nation": "BR",
        "controller": "BR",
        "sea_area": sea_area,
        "exit": "east",
        "defense": 2,
        "yard": 2,
        "stores": 100,
        "position": [1.0, 2.0],
    }
    return base | extra


def small() -> dict[str, Any]:
    return {
        "europe": {
            "sea_areas": {"AAA": area("Alpha", east=["BBB"]), "BBB": area("Beta", west=["AAA"])},
            "ports": {"Porta": port("AAA"), "Strait": port("AAA", strait="BBB")},
        },
        "america": {
            "map": {"on_gitm_map": False},
            "sea_areas": {"CCC": area("Gamma", north=["DDD"]), "DDD": area("Delta", south=["CCC"])},
            "ports": {"Portc": port("CCC")},
        },
    }


def problems(raw: dict[str, Any], **kw: Any) -> list[str]:
    with pytest.raises(DataError) as info:
        parse_map(raw, **kw)
    return info.value.problems


def test_small_map_parses() -> None:
    wmap = parse_map(small())
    assert set(wmap.sea_areas) == {"AAA", "BBB", "CCC", "DDD"}
    assert wmap.sea_areas["CCC"].map is MapName.AMERICA
    assert wmap.sea_areas["AAA"].neighbours_in(Direction.EAST) == ("BBB",)
    assert wmap.ports["Strait"].reachable_sea_areas == ("AAA", "BBB")
    assert not wmap.ports["Portc"].on_gitm_map and wmap.ports["Porta"].on_gitm_map


def test_shipped_maps_parse() -> None:
    wmap = parse_map(read_world_map_files())
    assert len(wmap.sea_areas) >= 40 and len(wmap.ports) >= 90


def test_unknown_neighbour_is_located() -> None:
    raw = small()
    raw["america"]["sea_areas"]["CCC"]["neighbours"]["north"].append("XYZ")
    assert problems(raw) == ["[america] sea_areas.CCC.neighbours.north[1]: unknown sea area 'XYZ'"]


def test_one_way_adjacency() -> None:
    raw = small()
    raw["europe"]["sea_areas"]["BBB"]["neighbours"] = {"south": ["AAA"]}
    found = problems(raw)
    assert (
        "[europe] sea_areas.AAA.neighbours.east[0]: one-way adjacency: BBB does not list AAA to the west"
        in found
    )
    assert (
        "[europe] sea_areas.BBB.neighbours.south[0]: one-way adjacency: AAA does not list BBB to the north"
        in found
    )


def test_neighbour_on_other_map() -> None:
    raw = small()
    raw["europe"]["sea_areas"]["AAA"]["neighbours"]["south"] = ["CCC"]
    assert any("AAA.neighbours.south[0]: 'CCC' is on the america map" in p for p in problems(raw))


def test_wind_chances_must_sum_to_100() -> None:
    raw = small()
    raw["europe"]["sea_areas"]["AAA"]["wind_direction"]["north"] = 5
    raw["europe"]["sea_areas"]["BBB"]["wind_strength"]["heavy"] = 50
    found = problems(raw)
    assert "[europe] sea_areas.AAA.wind_direction: chances sum to 80, not 100" in found
    assert "[europe] sea_areas.BBB.wind_strength: chances sum to 130, not 100" in found
    # the broken areas are not reported again as unknown by their neighbours
    assert len(found) == 2


def test_duplicate_code_across_maps() -> None:
    raw = small()
    raw["america"]["sea_areas"]["AAA"] = area("Alpha again", west=["CCC"])
    assert "[europe] sea_areas.AAA: sea area code already used on the america map" in problems(raw)


def test_duplicate_port_name_ignores_case() -> None:
    raw = small()
    raw["america"]["ports"]["PORTA"] = port("CCC")
    assert "[europe] ports.Porta: port name already used by 'PORTA'" in problems(raw)


def test_port_connected_to_unknown_area() -> None:
    raw = small()
    raw["europe"]["ports"]["Porta"]["sea_area"] = "ZZZ"
    assert problems(raw) == ["[europe] ports.Porta.sea_area: unknown sea area 'ZZZ'"]


def test_port_connected_to_area_of_other_map() -> None:
    raw = small()
    raw["europe"]["ports"]["Porta"]["sea_area"] = "CCC"
    assert problems(raw) == ["[europe] ports.Porta.sea_area: 'CCC' is on the america map"]


def test_strait_area_must_border_the_connected_area() -> None:
    raw = small()
    raw["europe"]["sea_areas"]["EEE"] = area("Epsilon", north=["BBB"])
    raw["europe"]["sea_areas"]["BBB"]["neighbours"]["south"] = ["EEE"]
    raw["europe"]["ports"]["Strait"]["strait"] = "EEE"
    assert problems(raw) == [
        "[europe] ports.Strait.strait: EEE does not border the connected sea area AAA (rule 6.3)"
    ]


def test_strait_same_as_connected_and_unknown() -> None:
    raw = small()
    raw["europe"]["ports"]["Strait"]["strait"] = "AAA"
    raw["europe"]["ports"]["Porta"]["strait"] = "QQQ"
    found = problems(raw)
    assert (
        "[europe] ports.Strait.strait: the strait's second sea area must differ from the connected one"
        in found
    )
    assert "[europe] ports.Porta.strait: unknown sea area 'QQQ'" in found


def test_two_straits_between_the_same_areas() -> None:
    raw = small()
    raw["europe"]["ports"]["Porta"]["strait"] = "BBB"
    assert problems(raw) == ["[europe] ports.Strait.strait: Porta is already the strait between AAA and BBB"]


def test_american_port_on_gitm_map() -> None:
    raw = small()
    raw["america"]["ports"]["Portc"]["on_gitm_map"] = True
    assert problems(raw) == [
        "[america] ports.Portc.on_gitm_map: ports of American waters are off the GITM map (rule 1.5)"
    ]


def test_unknown_keys_and_bad_types() -> None:
    raw = small()
    raw["europe"]["sea_areas"]["AAA"]["tactical"] = 3
    raw["europe"]["ports"]["Porta"]["defense"] = "high"
    raw["europe"]["ports"]["Porta"]["exit"] = "up"
    found = problems(raw)
    assert any(p.startswith("[europe] sea_areas.AAA.tactical: unknown key") for p in found)
    assert "[europe] ports.Porta.defense: expected an integer, found a string" in found
    assert "[europe] ports.Porta.exit: 'up' is not one of: east, north, south, west" in found


def test_bad_code_and_quoted_port_path() -> None:
    raw = small()
    raw["europe"]["sea_areas"]["aa1"] = area("Bad", east=["BBB"])
    raw["europe"]["ports"]["Port Royal"] = port("AAA", yard=-1)
    found = problems(raw)
    assert "[europe] sea_areas.aa1: a sea area code is three capital letters (rule 1.4)" in found
    assert '[europe] ports."Port Royal".yard: -1 is below the minimum 0' in found


def test_nation_and_controller_checked_when_given() -> None:
    raw = small()
    raw["europe"]["ports"]["Porta"]["nation"] = "XX"
    found = problems(raw, nations={"BR"}, states={"BR"})
    assert found == ["[europe] ports.Porta.nation: 'XX' is not one of: BR"]


def test_cut_off_area_and_missing_edge() -> None:
    raw = small()
    raw["america"]["sea_areas"]["EEE"] = area("Island", north=["FFF"])
    raw["america"]["sea_areas"]["FFF"] = area("Island two", south=["EEE"])
    for a in raw["america"]["sea_areas"].values():
        a["atlantic_edge"] = False
    found = problems(raw)
    assert "[america] sea_areas: cut off from CCC: EEE, FFF" in found
    assert "[america] sea_areas: no sea area on the Atlantic edge (rule 6.11)" in found


def test_unknown_map_name() -> None:
    raw = small()
    raw["africa"] = copy.deepcopy(raw["europe"])
    assert problems(raw) == ["[africa]: unknown map (expected one of: europe, america)"]


def test_every_problem_reported_at_once() -> None:
    raw = small()
    raw["europe"]["ports"]["Porta"]["sea_area"] = "ZZZ"
    raw["america"]["ports"]["Portc"]["stores"] = -5
    raw["europe"]["sea_areas"]["AAA"]["tactical_areas"] = 0
    assert len(problems(raw)) == 3
