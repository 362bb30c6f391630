"""Land units in scenarios (``[land_units.<ID>]``, rule 1.5, lost section 9): parsed into
``WorldState.land_units``, every problem located by its path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pate.core.codec import from_plain, to_plain
from pate.core.rules.transport import SpaceRules, unit_space
from pate.core.scenario.parse import Scenario, parse_scenario
from pate.core.world.fields import DataError
from pate.core.world.state import Headquarters, LandUnit, WorldState
from pate.datafiles import data_dir, load_nations, load_rule_data, load_world_map, read_toml


def raw(name: str = "training") -> dict[str, Any]:
    return read_toml(data_dir() / "scenarios" / f"{name}.toml")


def parse(data: dict[str, Any]) -> Scenario:
    return parse_scenario(data, load_world_map(), load_rule_data(), nations=load_nations())


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(DataError) as info:
        parse(data)
    return info.value.problems


def ship(data: dict[str, Any], sid: str) -> dict[str, Any]:
    return next(s for s in data["ships"] if s["id"] == sid)


def test_training_declares_its_units_with_sizes() -> None:
    w = parse(raw()).world
    assert sorted(w.land_units) == ["BR1IN", "BR5IN", "FR1IN", "FR2IN", "FR3IN"]
    assert w.land_units["BR5IN"] == LandUnit("BR5IN", "BR", infantry=1900, artillery=100)
    assert w.land_units["FR3IN"] == LandUnit("FR3IN", "FR", infantry=5000, cavalry=300, batteries=1)
    assert w.ports["Portsmouth"].garrison == ("BR5IN",) and w.ports["Portsmouth"].supplies == 10


def test_every_unit_named_in_the_shipped_scenarios_is_declared_and_cargo_space_adds_up() -> None:
    space = SpaceRules.of(load_rule_data())
    for name in ("training", "trafalgar"):
        w = parse(raw(name)).world
        named = {u for p in w.ports.values() for u in p.garrison}
        named |= {u for s in w.ships.values() for u in s.cargo.units}
        assert named == set(w.land_units), name
        for s in w.ships.values():
            if s.cargo.units:
                units = sum(unit_space(w.land_units[u], space) for u in s.cargo.units)
                assert s.cargo.space == units + s.cargo.supplies * space.per_supply, s.id
    corps = parse(raw("trafalgar")).world.land_units["FR1IN"]
    assert (corps.headquarters, corps.supplies) == (Headquarters.CORPS, 8)


def test_land_units_survive_the_codec() -> None:
    w = parse(raw("trafalgar")).world
    assert from_plain(WorldState, to_plain(w)).land_units == w.land_units


def test_state_defaults_to_the_id_prefix_and_may_be_given() -> None:
    data = raw()
    data["land_units"]["BR5IN"] = {"state": "BR", "infantry": 10}
    data["land_units"]["FR1IN"] = {"infantry": 10, "headquarters": "army"}
    w = parse(data).world
    assert w.land_units["BR5IN"].state == "BR"
    assert w.land_units["FR1IN"] == LandUnit("FR1IN", "FR", infantry=10, headquarters=Headquarters.ARMY)


def test_problems_in_a_unit_are_reported_by_path() -> None:
    data = raw()
    units = data["land_units"]
    units["FR1IN"] = {"infantry": -5, "headquarters": "division", "colour": "blue"}
    units["FR3IN"] = {"state": "ZZ", "cavalry": "many"}
    units["BR5IN"] = {"artillery": 10, "supplies": 3, "batteries": 1}
    units["fr9in"] = {"infantry": 100}
    units["FR2IN"] = {"state": "FR"}
    found = problems(data)
    for expected in (
        "land_units.FR1IN.infantry: -5 is below the minimum 0",
        "land_units.FR1IN.headquarters: 'division' is not one of: army, corps, none",
        "land_units.FR1IN.colour: unknown key",
        "land_units.FR3IN.state: unknown state 'ZZ'",
        "land_units.FR3IN.cavalry: expected an integer, found a string",
        "land_units.BR5IN.supplies: only a corps headquarters carries supplies",
        "land_units.BR5IN.batteries: batteries are attached to infantry or cavalry",
        "land_units.fr9in: a land unit id starts with its state's code",
        "land_units.fr9in.state: missing",
        "land_units.FR2IN: a land unit has men or is a headquarters",
    ):
        assert any(p.startswith(expected) for p in found), (expected, found)


def test_a_declared_unit_must_stand_somewhere() -> None:
    data = raw()
    data["land_units"]["FR7IN"] = {"infantry": 100}
    assert problems(data) == [
        "land_units.FR7IN: FR7IN is in no port's garrison and aboard no transport group"
    ]


def test_an_undeclared_unit_in_a_garrison_is_allowed_with_no_size() -> None:
    """Decision: GITM may report its size later; till then it cannot be loaded."""
    data = raw()
    data["ports"]["Brest"]["garrison"] = ["FR1IN", "FR8IN"]
    w = parse(data).world
    assert "FR8IN" in w.ports["Brest"].garrison and "FR8IN" not in w.land_units


def test_a_unit_id_is_one_an_order_can_name() -> None:
    """A unit a scenario places must be one an order can name (1 to 32 characters) and GITM
    can hold (docs/gitm.md "Ids"): a longer id, declared or only in a garrison, is refused."""
    long_id = "FR" + "9" * 40 + "IN"
    data = raw()
    data["ports"]["Brest"]["garrison"] = ["FR1IN", long_id]
    assert problems(data) == ["ports.Brest.garrison[1]: a unit id is 1 to 32 of A-Z a-z 0-9 _ -"]
    index = next(i for i, s in enumerate(data["ships"]) if s["id"] == "BR1TR")
    data["ports"]["Brest"]["garrison"] = ["FR1IN"]
    data["ships"][index]["units"] = [*data["ships"][index]["units"], "BR" + "9" * 40]
    assert f"ships[{index}].units[1]: a unit id is 1 to 32 of A-Z a-z 0-9 _ -" in problems(data)
    data = raw()
    data["ports"]["Brest"]["garrison"] = ["FR1IN", long_id]
    data["land_units"][long_id] = {"infantry": 100}
    assert f"land_units.{long_id}: a land unit id starts with its state's code, e.g. FR1IN (at most 32)" in (
        problems(data)
    )


def test_a_scenario_never_takes_the_ids_gitm_gives_the_units_it_creates() -> None:
    """docs/gitm.md, A6: "a unit GITM creates takes an id with an underscore right after its
    state's code (FR_12IN), and PATE's scenarios may not use that form", declared or placed only;
    an underscore further on (FR1_IN) stays allowed."""
    why = "an underscore after the state's code marks a unit GITM created (FR_12IN): choose another id"
    data = raw()
    data["ports"]["Brest"]["garrison"] = ["FR1IN", "FR_12IN"]
    assert problems(data) == [f"ports.Brest.garrison[1]: {why}"]
    data["land_units"]["FR_12IN"] = {"infantry": 100}
    assert f"land_units.FR_12IN: {why}" in problems(data)
    data = raw()
    data["ports"]["Brest"]["garrison"] = ["FR1IN", "FR1_IN"]
    assert "FR1_IN" in parse(data).world.ports["Brest"].garrison


def test_a_unit_aboard_is_of_the_group_s_state() -> None:
    data = raw()
    data["land_units"]["BR1IN"]["state"] = "SP"
    index = next(i for i, s in enumerate(data["ships"]) if s["id"] == "BR1TR")
    assert problems(data) == [f"ships[{index}].units[0]: BR1IN is a unit of SP, not of BR"]


def test_cargo_space_must_match_the_declared_units() -> None:
    data = raw()
    ship(data, "BR1TR")["space"] = 2500
    found = problems(data)
    assert any(
        p.endswith(".space: 2500, but the units and supplies aboard take 3000 (section 9)") for p in found
    )
    data = raw()
    tr = ship(data, "BR1TR")
    tr["units"], tr["space"] = ["BR1IN", "BR7IN"], 2900  # BR7IN undeclared: at least 3,000
    assert any(
        ".space: 2900, but the units and supplies aboard take at least 3000" in p for p in problems(data)
    )
    tr["space"] = 3600
    assert parse(copy.deepcopy(data)).world.ships["BR1TR"].cargo.space == 3600


def test_port_supplies_are_not_negative() -> None:
    data = raw()
    data["ports"]["Portsmouth"]["supplies"] = -1
    assert problems(data) == ["ports.Portsmouth.supplies: -1 is below the minimum 0"]
