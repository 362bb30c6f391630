"""The battle simulator: spec parsing, its JSON shapes, the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pate.cli.main import main
from pate.core.rules.combat import SpecError, parse_spec, simulate, trace
from pate.core.world.ships import Quality, ShipType
from tests.unit.combat.combat_world import RULES

ROOT = Path(__file__).resolve().parents[3]
TRAFALGAR = ROOT / "data" / "battles" / "trafalgar-1805.json"

SMALL: dict[str, Any] = {
    "name": "two against two",
    "location": "sea",
    "wind": "moderate",
    "onshore": False,
    "shore_battery": None,
    "sides": {
        "A": {
            "state": "BR",
            "gauge": "windward",
            "orders": {"combat": "engage", "range": "close", "line": "line_ahead", "aim": "hull"},
            "ships": [{"type": "SL", "count": 2, "quality": "Good", "experience": 9}],
        },
        "B": {"state": "FR", "gauge": "leeward", "ships": [{"type": "SL"}, {"type": "FR", "count": 1}]},
    },
}


def test_missing_ship_fields_take_class_maximum_and_defaults() -> None:
    s = parse_spec(SMALL, RULES)
    b = s.battle.ships
    assert [x.key for x in b] == ["A1", "A2", "B1", "B2"]
    assert (b[2].crew, b[2].marines, b[2].quality, b[2].experience, b[2].hull, b[2].rigging) == (
        600,
        150,
        Quality.AVERAGE,
        0,
        0,
        0,
    )
    assert b[3].type is ShipType.FR and b[3].crew == 225 and b[3].marines == 25
    assert b[0].quality is Quality.GOOD
    assert s.battle.windward == 0
    assert s.states == ("BR", "FR")


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("location",), "lake", "location"),
        (("wind",), "gale", "wind"),
        (("onshore",), "yes", "onshore"),
        (("sides", "A", "gauge"), "up", "sides.A.gauge"),
        (("sides", "A", "orders", "combat"), "charge", "sides.A.orders.combat"),
        (("sides", "A", "orders", "range"), "far", "sides.A.orders.range"),
        (("sides", "A", "orders", "line"), "wedge", "sides.A.orders.line"),
        (("sides", "A", "orders", "aim"), "masts", "sides.A.orders.aim"),
        (("sides", "B", "ships"), [], "sides.B.ships"),
        (("sides", "B", "ships", 0, "type"), "XL", "sides.B.ships[0].type"),
        (("sides", "B", "ships", 0, "quality"), "Great", "sides.B.ships[0].quality"),
        (("sides", "B", "ships", 0, "crew"), 700, "sides.B.ships[0].crew"),
        (("sides", "B", "ships", 0, "marines"), -1, "sides.B.ships[0].marines"),
        (("sides", "B", "ships", 0, "count"), 0, "sides.B.ships[0].count"),
        (("sides", "B", "ships", 0, "experience"), 1.5, "sides.B.ships[0].experience"),
        (("sides", "B", "ships", 0, "hull_damage"), 5, "sides.B.ships[0].hull_damage"),
        (("sides", "B", "ships", 0, "rigging_damage"), 6, "sides.B.ships[0].rigging_damage"),
        (("sides", "B", "ships", 0, "colour"), "red", "sides.B.ships[0].colour"),
        (("shore_battery",), {"side": "A", "defense_rating": 2}, "shore_battery"),
    ],
)
def test_bad_spec_names_the_field(path: tuple[Any, ...], value: Any, field: str) -> None:
    raw = json.loads(json.dumps(SMALL))
    node = raw
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(SpecError) as err:
        parse_spec(raw, RULES)
    assert str(err.value).startswith(field + ":")


def test_missing_side_and_non_object_spec() -> None:
    with pytest.raises(SpecError, match=r"^sides\.B: missing"):
        parse_spec({"sides": {"A": SMALL["sides"]["A"]}}, RULES)
    with pytest.raises(SpecError, match=r"^spec: must be an object"):
        parse_spec([1, 2], RULES)


def test_shore_battery_in_harbor() -> None:
    raw = dict(SMALL, location="harbor", shore_battery={"side": "B", "defense_rating": 3, "damaged": True})
    s = parse_spec(raw, RULES)
    assert s.battle.battery is not None
    assert (s.battle.battery.side, s.battle.battery.defense, s.battle.battery.damaged) == (1, 3, True)
    with pytest.raises(SpecError, match=r"^shore_battery\.side:"):
        parse_spec(dict(raw, shore_battery={"side": "C", "defense_rating": 3}), RULES)


def test_simulate_shape() -> None:
    out = simulate(parse_spec(SMALL, RULES), RULES, 50, 4)
    assert set(out) == {"runs", "seed", "draws", "sides"}
    assert (out["runs"], out["seed"]) == (50, 4)
    assert set(out["sides"]) == {"A", "B"}
    for name, ships in (("A", 2), ("B", 2)):
        side = out["sides"][name]
        assert set(side) == {"ships", "wins", "sunk", "captured", "lost", "escaped"}
        assert side["ships"] == ships
        for key in ("sunk", "captured", "lost", "escaped"):
            assert set(side[key]) == {"mean", "p10", "p50", "p90"}
            assert side[key]["p10"] <= side[key]["p50"] <= side[key]["p90"]
    assert out["sides"]["A"]["wins"] + out["sides"]["B"]["wins"] + out["draws"] == 50
    b = out["sides"]["B"]
    assert b["lost"]["mean"] == pytest.approx(b["sunk"]["mean"] + b["captured"]["mean"], abs=1e-2)


def test_simulate_is_deterministic_and_trace_is_its_first_run() -> None:
    s = parse_spec(SMALL, RULES)
    assert simulate(s, RULES, 30, 9) == simulate(s, RULES, 30, 9)
    first = simulate(s, RULES, 1, 9)
    t = trace(s, RULES, 9)
    winner = next((k for k in ("A", "B") if first["sides"][k]["wins"]), None)
    assert t["winner"] == winner


def test_trace_shape() -> None:
    t = trace(parse_spec(SMALL, RULES), RULES, 2)
    assert t["winner"] in ("A", "B", None)
    assert [s["side"] for s in t["ships"]] == ["A", "A", "B", "B"]
    assert [s["type"] for s in t["ships"]] == ["SL", "SL", "SL", "FR"]
    for s in t["ships"]:
        assert {"side", "type", "strength", "outcome", "hull_damage", "rigging_damage", "crew_lost"} <= set(s)
        assert s["outcome"] in {"fought", "evaded", "escaped", "sunk", "captured"}
    # at sea the frigate cannot be engaged by ships of the line: it takes no part
    assert t["ships"][3]["outcome"] == "evaded" and t["ships"][3]["engaged"] is False


def test_cli_runs_and_traces(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(SMALL))
    assert main(["battle", "--spec", str(spec), "--runs", "20", "--seed", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["runs"] == 20 and out["seed"] == 5
    assert main(["battle", "--spec", str(spec), "--seed", "5", "--trace"]) == 0
    assert len(json.loads(capsys.readouterr().out)["ships"]) == 4


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not JSON"),
        (json.dumps({**SMALL, "wind": "gale"}), "wind: 'gale' is not one of light | moderate | heavy"),
    ],
)
def test_cli_bad_spec_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, expected: str
) -> None:
    spec = tmp_path / "bad.json"
    spec.write_text(content)
    assert main(["battle", "--spec", str(spec), "--runs", "5"]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", "--spec", "/nonexistent/spec.json"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_calibration_specs_parse() -> None:
    for path in sorted((ROOT / "data" / "battles").glob("*.json")):
        s = parse_spec(json.loads(path.read_text()), RULES)
        assert s.history["winner"] in ("A", "B")
        assert s.name
    assert TRAFALGAR.exists()
