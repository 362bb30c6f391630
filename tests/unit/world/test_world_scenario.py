"""Scenario parsing and validation: every problem located by its path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pate.core.scenario.parse import Scenario, parse_scenario
from pate.core.world.fields import DataError
from pate.core.world.ships import AtSea, InAtlantic, InPort, Quality, ShipType
from pate.core.world.state import Role, TurnKind
from pate.datafiles import data_dir, load_nations, load_rule_data, load_world_map, read_toml


def raw_training() -> dict[str, Any]:
    return read_toml(data_dir() / "scenarios" / "training.toml")


def parse(raw: dict[str, Any]) -> Scenario:
    return parse_scenario(raw, load_world_map(), load_rule_data(), nations=load_nations())


def problems(raw: dict[str, Any]) -> list[str]:
    with pytest.raises(DataError) as info:
        parse(raw)
    return info.value.problems


def ship_index(raw: dict[str, Any], sid: str) -> int:
    return next(i for i, s in enumerate(raw["ships"]) if s["id"] == sid)


def test_training_loads_with_its_attributes() -> None:
    s = parse(raw_training())
    w = s.world
    assert (s.name, w.turn, w.turns, w.seed, w.winds) == ("training", 1, 15, 1805, {})
    assert w.kind is TurnKind.CAMPAIGN and w.turn_kinds[-1] is TurnKind.PEACE
    assert w.diplomacy.hostile("BR", "FR") and not w.diplomacy.hostile("BR", "SP")
    victory = w.ships["BR1FL"]
    assert victory.location == AtSea("ECH", 1) and victory.quality is Quality.VERY_GOOD
    assert (victory.crew, victory.marines) == (800, 200)  # rule 2.7 maxima by default
    assert w.ships["FR2FL"].location == InPort("Rochefort", harbor=False)
    assert not w.ships["BR4SL"].active
    assert w.ships["BR1SL"].attached_to == "BR1FL"
    assert w.naval_minister("FR") is not None and w.players["admin"].roles == frozenset({Role.ADMIN})
    assert set(w.ports) == set(load_world_map().ports)  # every port has a state
    assert w.ports["Brest"].garrison == ("FR1IN",)


def test_transport_group_defaults() -> None:
    w = parse(raw_training()).world
    tr = w.ships["FR1TR"]
    assert tr.type is ShipType.TR and tr.capacity == 12000
    assert tr.crew == 1200  # rule 2.7: one crew per 10 capacity
    assert tr.marines == 0 and tr.cargo.units == ("FR2IN",)
    assert tr.commander == "decres"  # default commander: the naval minister


def test_crew_above_class_limit() -> None:
    raw = raw_training()
    raw["ships"][0]["crew"] = 801
    raw["ships"][ship_index(raw, "BR1FR")]["marines"] = 26
    found = problems(raw)
    assert "ships[0].crew: 801 is above the maximum 800" in found
    assert f"ships[{ship_index(raw, 'BR1FR')}].marines: 26 is above the maximum 25" in found


def test_duplicate_ship_id() -> None:
    raw = raw_training()
    raw["ships"].append(copy.deepcopy(raw["ships"][0]))
    n = len(raw["ships"]) - 1
    assert problems(raw) == [f"ships[{n}].id: BR1FL already defined at ships[0]"]


def test_ship_in_port_that_does_not_exist() -> None:
    raw = raw_training()
    i = ship_index(raw, "FR2FR")
    raw["ships"][i]["port"] = "Atlantis"
    assert problems(raw) == [f"ships[{i}].port: unknown port 'Atlantis'"]


def test_unknown_sea_area_and_tactical_area_out_of_range() -> None:
    raw = raw_training()
    raw["ships"][0]["sea_area"] = "XYZ"
    raw["ships"][1]["tactical"] = 9
    found = problems(raw)
    assert "ships[0].sea_area: unknown sea area 'XYZ'" in found
    assert "ships[1].tactical: 9 is above the maximum 4" in found


def test_commander_who_is_not_a_player_or_of_another_state() -> None:
    raw = raw_training()
    raw["ships"][0]["commander"] = "nelson"
    raw["ships"][0]["deputy"] = "decres"
    found = problems(raw)
    assert "ships[0].commander: 'nelson' is not a player" in found
    assert "ships[0].deputy: player 'decres' plays FR, not BR (rule 2.3)" in found


def test_attachment_to_ship_elsewhere_and_chains() -> None:
    raw = raw_training()
    i = ship_index(raw, "BR2FL")
    raw["ships"][i]["attached_to"] = "BR1FL"  # BR1FL is in ECH, BR2FL in BIS
    j = ship_index(raw, "BR2SL")
    raw["ships"][j]["attached_to"] = "BR1SL"  # BR1SL is itself attached
    found = problems(raw)
    assert f"ships[{i}].attached_to: BR1FL is not in the same location (rule 4.4)" in found
    assert f"ships[{j}].attached_to: BR1SL is itself attached to BR1FL (rule 4.4)" in found


def test_inactive_ship_rules() -> None:
    raw = raw_training()
    raw["ships"][0]["active"] = False  # at sea, and attached to by others
    i = ship_index(raw, "FR1TR")
    raw["ships"][i]["active"] = False
    found = problems(raw)
    assert "ships[0].active: inactive ships lie in the harbor of a port (rule 2.6)" in found
    assert f"ships[{i}].active: transport groups cannot be inactivated (rule 2.6)" in found
    assert "ships[1].attached_to: inactive ships cannot be attached (rule 2.6)" in found


def test_inactive_ship_in_foreign_port() -> None:
    raw = raw_training()
    i = ship_index(raw, "BR4SL")
    raw["ships"][i]["port"] = "Lisbon"
    assert problems(raw) == [
        f"ships[{i}].active: Lisbon is not a port of the ship's home nation BR (rule 2.6)",
        f"ships[{i}].active: Lisbon is not controlled by BR (rule 2.6)",
    ]


def test_transport_cargo_over_capacity() -> None:
    raw = raw_training()
    i = ship_index(raw, "BR1TR")
    raw["ships"][i]["space"] = 5801
    raw["ships"][i]["stores"] = 34  # 10 extra stores take 200 capacity (rule 3.4)
    assert problems(raw) == [
        f"ships[{i}]: cargo space 5801, extra crew and extra stores need 6001, above the capacity 6000"
    ]


def test_warship_cargo_and_transport_marines_rejected() -> None:
    raw = raw_training()
    raw["ships"][0]["capacity"] = 1000
    i = ship_index(raw, "BR1TR")
    raw["ships"][i]["marines"] = 10
    found = problems(raw)
    assert "ships[0].capacity: only transport groups have capacity and cargo (rule 2.4)" in found
    assert f"ships[{i}].marines: transport groups carry no Marines (rule 2.4)" in found


def test_bad_ship_id_and_unknown_state() -> None:
    raw = raw_training()
    raw["ships"][0]["id"] = "BR1XX"
    raw["ships"][1]["id"] = "ZZ1SL"
    found = problems(raw)
    assert "ships[0].id: 'BR1XX' is not a ship id like BR1FL or NE4TR (rule 2.2)" in found
    assert "ships[1].id: unknown state 'ZZ'" in found


def test_location_must_be_exactly_one() -> None:
    raw = raw_training()
    raw["ships"][0]["port"] = "Brest"
    assert "ships[0]: give exactly one of sea_area, port or crossing_to" in problems(raw)


def test_crossing_the_atlantic() -> None:
    raw = raw_training()
    raw["ships"][ship_index(raw, "BR2FR")] = {
        "id": "BR2FR",
        "name": "Egyptienne",
        "crossing_to": "SWA",
        "arrives_turn": 3,
        "base": "Plymouth",
    }
    assert parse(raw).world.ships["BR2FR"].location == InAtlantic("SWA", 3, "SWA")


def test_diplomacy_problems() -> None:
    raw = raw_training()
    raw["diplomacy"] = {"wars": [["BR", "FR"], ["BR", "XX"], ["FR", "FR"], "BR"], "alliances": [["FR", "BR"]]}
    assert problems(raw) == [
        'diplomacy.wars[3]: expected a pair of state codes, e.g. ["BR", "FR"]',
        "diplomacy.wars[1]: unknown state 'XX'",
        "diplomacy.wars[2]: a state cannot be at war or allied with itself",
        "diplomacy.alliances: BR and FR are both at war and allied",
    ]


def test_players_problems() -> None:
    raw = raw_training()
    raw["players"]["pitt"] = {"name": "William Pitt", "state": "BR", "roles": ["naval_minister", "king"]}
    raw["players"]["ghost"] = {"name": "Nobody", "roles": ["commander"]}
    found = problems(raw)
    assert "players.pitt.roles: BR already has a naval minister: 'barham'" in found
    assert "players.pitt.roles[1]: 'king' is not one of: naval_minister, commander, admin" in found
    assert "players.ghost.state: a player who is not only an admin needs a state" in found


def test_header_problems() -> None:
    raw = raw_training()
    raw["scenario"]["format"] = 2
    raw["scenario"]["turn_kinds"] = ["campaign", "war"]
    raw["scenario"]["name"] = "Bad Name"
    raw["scenario"]["seeds"] = 3
    found = problems(raw)
    assert "scenario.format: format 2 is not supported (this version reads 1)" in found
    assert "scenario.turn_kinds[1]: 'war' is not one of: campaign, peace" in found
    assert "scenario.turn_kinds: 2 turn kinds for 15 turns" in found
    assert "scenario.name: use lower-case letters, digits, '-' and '_'" in found
    assert any(p.startswith("scenario.seeds: unknown key") for p in found)


def test_ports_problems() -> None:
    raw = raw_training()
    raw["ports"]["Atlantis"] = {"stores": 3}
    raw["ports"]["Brest"]["controller"] = "XX"
    raw["ports"]["Brest"]["building"] = 99
    found = problems(raw)
    assert "ports.Atlantis: unknown port 'Atlantis'" in found
    assert any(p.startswith("ports.Brest.controller: 'XX' is not one of:") for p in found)
    assert "ports.Brest.building: 99 is above the maximum 8" in found


def test_squadron_defaults_and_attach() -> None:
    raw = raw_training()
    raw["squadrons"] = [
        {
            "sea_area": "NOS",
            "tactical": 2,
            "base": "Chatham",
            "quality": "Good",
            "commander": "calder",
            "attach": True,
            "ships": [{"id": "BR9SL", "name": "Ajax"}, {"id": "BR10SL", "name": "Orion", "quality": "Fair"}],
        }
    ]
    w = parse(raw).world
    assert w.ships["BR9SL"].location == AtSea("NOS", 2) and w.ships["BR9SL"].quality is Quality.GOOD
    assert w.ships["BR10SL"].attached_to == "BR9SL" and w.ships["BR10SL"].quality is Quality.FAIR


def test_squadron_problem_reported_once_at_the_squadron() -> None:
    raw = raw_training()
    raw["squadrons"] = [
        {
            "sea_area": "XYZ",
            "base": "Chatham",
            "ships": [{"id": "BR9SL", "name": "Ajax"}, {"id": "BR10SL", "name": "Orion"}],
        }
    ]
    assert problems(raw) == ["squadrons[0].sea_area: unknown sea area 'XYZ'"]


@pytest.mark.parametrize("name", ["training", "trafalgar", "grand1805"])
def test_shipped_scenarios_load(name: str) -> None:
    from pate.datafiles import load_scenario

    s = load_scenario(name)
    assert s.name == name and s.world.ships


def test_grand_scenario_is_up_to_date() -> None:
    from pate.databuild.grand_scenario import main

    assert main(["--check"]) == 0


def test_grand_scenario_has_hundreds_of_ships_for_every_navy() -> None:
    from pate.datafiles import load_scenario

    ships = load_scenario("grand1805").world.ships.values()
    assert len(ships) >= 400
    line = {s.state for s in ships if s.type.of_the_line}
    assert {"BR", "FR", "SP", "RU", "HO", "DK", "SW", "PO", "NE"} <= line
    british_line = sum(1 for s in ships if s.state == "BR" and s.type.of_the_line)
    assert 100 <= british_line <= 150


def test_parse_without_nations_uses_the_maps_states() -> None:
    s = parse_scenario(raw_training(), load_world_map(), load_rule_data())
    assert s.world.diplomacy.hostile("BR", "FR")
    assert len(s.world.ships) == len(parse(raw_training()).world.ships)


def test_a_scenario_file_carries_no_passwords() -> None:
    """Passwords are set when a campaign is created, never published in a scenario."""
    raw = raw_training()
    raw["players"]["barham"]["password"] = "barham"
    assert problems(raw) == ["players.barham.password: passwords do not belong in scenario files"]
