"""Reports under the EiA new naval rules, as a player reads them (text): each
player's event report tells what his fleets declared and what they met; his
naval minister reads the account and the state's trade routes; nobody learns
of a declared operation his ships did not detect."""

from __future__ import annotations

from pathlib import Path

from pate.cli.main import main


def test_example_declarations_are_told_to_their_side_only(tmp_path: Path) -> None:
    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text(
        "order BR1TR\n  operation transport BR1IN to Plymouth\n"
        "order FR1TR\n  operation invasion FR2IN to Portsmouth\n"
    )
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--orders", str(orders)]
    assert main([*args, "--naval-rules", "eia-operations", "--out", str(out)]) == 0
    reports = out / "turn-1" / "reports"
    british = (reports / "barham.txt").read_text()  # Britain's naval minister
    french = (reports / "decres.txt").read_text()  # France's
    assert "BR1TR Portsmouth transports declared Transport of BR1IN to Plymouth" in british
    assert "declared Invasion of FR2IN to Portsmouth" in french
    assert "declared Invasion" not in british and "declared Transport" not in french
    assert "Account: 60 trade ships sailed" in british and "Trade route from" in british
    assert "60 trade ships" not in french  # the British account is Britain's


def test_the_position_map_draws_known_trade_routes_and_blockade_boxes_only(tmp_path: Path) -> None:
    """The overview map of the position report: a trade route only for those
    its event reached (its protectors, its states' ministers), a blockade box
    where one's own fleet lies in an enemy port's coastal waters or where one's
    ships saw enemies in a port's."""
    import re

    orders = tmp_path / "orders"
    orders.mkdir()
    (orders / "turn-1.txt").write_text(
        "order BR1FL\n  operation rebase to blockade Brest\norder BR1TR\n  operation protect_trade ECH\n"
    )
    out = tmp_path / "sim"
    args = ["campaign", "simulate", "--scenario", "training", "--turns", "1", "--orders", str(orders)]
    assert main([*args, "--naval-rules", "eia-operations", "--out", str(out)]) == 0
    reports = out / "turn-1" / "reports"

    def drawn(player: str) -> tuple[list[str], list[str]]:
        page = (reports / f"{player}.html").read_text()
        routes = re.findall(r'class="trade-route" data-route="([^"]+)"[^>]*><title>([^<]+)', page)
        boxes = re.findall(r'class="blockade-box" data-port="([^"]+)"><title>([^<]+)', page)
        return [f"{k}: {t}" for k, t in routes], [f"{p}: {t}" for p, t in boxes]

    british_routes, british_boxes = drawn("barham")  # minister: the British route, protected by BR1TR
    assert len(british_routes) == 1 and "British trade ships; protected by BR1TR" in british_routes[0]
    assert british_boxes == ["Brest: Blockade box of Brest: your ships BR1FL, BR1SL, BR2SL"]
    routes, boxes = drawn("cornwallis")  # the blockading commander: his box, no route (not his to know)
    assert routes == [] and boxes == british_boxes
    french_routes, french_boxes = drawn("decres")  # France's minister: French routes only
    assert french_routes and all("French trade ships" in r for r in french_routes)
    assert not any("British" in r for r in french_routes)
    assert french_boxes == ["Brest: Blockade box of Brest: British ships seen in it"]  # seen from Brest
    assert drawn("calder") == ([], [])  # in the Bay of Biscay: saw none of it


def test_the_renderer_draws_a_route_through_bordering_areas_and_a_box_on_its_own_map() -> None:
    from pate.core.world.geography import MapName
    from pate.render.overlays import BlockadeBox, RouteLine
    from pate.render.svg_map import render_map
    from tests.cases.eia_ops.ops_world import MAP

    assert "BIS" in MAP.sea_areas["ECH"].adjacent and "ECH" in MAP.ports["Brest"].reachable_sea_areas
    route = RouteLine("Brest", ("ECH", "BIS", "ION"), ("Brest",), "#123456", "a route")
    boxes = [BlockadeBox("Brest", "#654321", "box of Brest"), BlockadeBox("New York", "#654321", "box of NY")]
    svg = render_map(MAP, MapName.EUROPE, routes=[route], boxes=boxes)
    group = svg.split('<g class="trade-route" data-route="Brest"', 1)[1].split("</g>", 1)[0]
    lines = group.count("<line ")
    brest_areas = [a for a in MAP.ports["Brest"].reachable_sea_areas if a in ("ECH", "BIS", "ION")]
    assert lines == 1 + len(
        brest_areas
    )  # ECH-BIS, and Brest to each route area it opens on; ION borders neither
    assert (
        svg.count('class="blockade-box"') == 1 and 'data-port="Brest"' in svg
    )  # New York is on the other map
    america = render_map(MAP, MapName.AMERICA, routes=[route], boxes=boxes)
    assert 'class="trade-route"' not in america and america.count('class="blockade-box"') == 1
