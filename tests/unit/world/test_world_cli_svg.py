"""`pate scenario` commands, the SVG maps, the nations and the ship names."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pate.cli.main import main
from pate.core.world.fields import DataError
from pate.core.world.geography import MapName
from pate.core.world.names import parse_names
from pate.core.world.nations import NationKind, parse_nations
from pate.core.world.ships import ShipType
from pate.datafiles import data_dir, load_nations, load_ship_names, load_world_map, read_toml
from pate.render.svg_map import Icon, render_map

SVG = "{http://www.w3.org/2000/svg}"


def test_validate_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "validate", "training"]) == 0
    assert "training: ok" in capsys.readouterr().out


def test_validate_lists_every_problem_with_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (data_dir() / "scenarios" / "training.toml").read_text()
    text = text.replace('sea_area = "BIS"', 'sea_area = "XYZ"', 1).replace('id = "BR1SL"', 'id = "BR1FL"', 1)
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    assert main(["scenario", "validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "ships[4].sea_area: unknown sea area 'XYZ'" in err
    assert "ships[1].id: BR1FL already defined at ships[0]" in err
    assert "Traceback" not in err


def test_validate_bad_toml_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text("[scenario\nname = 1")
    assert main(["scenario", "validate", str(bad), str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err
    assert "not valid TOML" in err and "no such file" in err


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("training", "trafalgar", "grand1805"):
        assert name in out


def test_map_command_writes_svg(tmp_path: Path) -> None:
    out = tmp_path / "europe.svg"
    assert main(["scenario", "map", "europe", "-o", str(out), "--highlight", "ECH"]) == 0
    assert ET.parse(out).getroot().tag == f"{SVG}svg"
    assert main(["scenario", "map", "europe", "--highlight", "QQQ"]) == 2


@pytest.mark.parametrize("which", list(MapName))
def test_svg_map_draws_every_area_and_port_of_its_map(which: MapName) -> None:
    wmap = load_world_map()
    root = ET.fromstring(render_map(wmap, which))
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    for code, area in wmap.sea_areas.items():
        assert (f"area-{code}" in ids) is (area.map is which)
    mine = {c for c, a in wmap.sea_areas.items() if a.map is which}
    for port in wmap.ports.values():
        assert (f"port-{port.name.replace(' ', '_')}" in ids) is (port.sea_area in mine)


def test_svg_strait_ports_highlight_and_icons() -> None:
    wmap = load_world_map()
    svg = render_map(
        wmap,
        MapName.EUROPE,
        highlight=frozenset({"SOA"}),
        icons=[Icon(at="SOA", label="BR1FL", colour="#c00"), Icon(at="Brest", label="3 ships")],
    )
    root = ET.fromstring(svg)
    gib = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "port-Gibraltar")
    assert gib.find(f"{SVG}polygon") is not None  # strait ports are drawn as diamonds
    # rule 6.3: the strait port names both of its sea areas
    assert "Western Mediterranean (WMD) and, a strait port (6.3), South Atlantic (SOA)" in gib.findtext(
        f"{SVG}title", ""
    )
    areas = {p.get("id"): p for p in root.iter(f"{SVG}path") if p.get("class") == "sea-area"}
    assert areas["area-SOA"].get("fill") != areas["area-WMD"].get("fill")  # highlighted
    assert areas["area-SOA"].findtext(f"{SVG}title", "").startswith("South Atlantic (SOA) · wind from ")
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "BR1FL" in labels and "3 ships" in labels
    assert render_map(wmap, MapName.EUROPE) == render_map(wmap, MapName.EUROPE)  # pure and stable


def test_nations_thirteen_and_france_has_two_states() -> None:
    nations = load_nations()
    nwol = [n for n in nations.nations.values() if n.nwol]
    assert len(nwol) == 13
    assert nations.nations["FR"].states == ("FR", "BF")
    assert nations.states["BF"].name == "Bourbon French"
    assert {"BR", "FR", "SP", "NE"} <= set(nations.states)  # ship ids seen in the help pages
    assert nations.nations["TU"].kind is NationKind.NEUTRAL


def test_nations_problems() -> None:
    raw = read_toml(data_dir() / "nations.toml")
    raw["nations"]["XX"] = {"name": "Atlantis", "kind": "major", "states": {"BR": "Again", "x1": "Bad"}}
    with pytest.raises(DataError) as info:
        parse_nations(raw)
    assert "nations.XX.states.BR: state already belongs to BR" in info.value.problems
    assert "nations.XX.states.x1: a state code is two capital letters (rule 2.2)" in info.value.problems


def test_ship_names_enough_and_unique() -> None:
    names = load_ship_names()
    assert len(names["BR"].names(ShipType.SL)) >= 100
    assert names["FR"].names(ShipType.FL)[0] == "Ocean"
    assert names["BR"].next_free(ShipType.FL, {"Victory"}) == "Royal Sovereign"


def test_ship_names_problems() -> None:
    with pytest.raises(DataError) as info:
        parse_names({"BR": {"SL": ["Mars", "Mars"], "TR": ["x"]}, "QQ": {}}, nations={"BR"})
    assert info.value.problems == [
        "[names/BR] TR: unknown key (expected one of: FL, FR, SL)",
        "[names/BR] SL[1]: 'Mars' already listed at SL[0]",
        "[names/QQ]: unknown nation 'QQ'",
    ]
