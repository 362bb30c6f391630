"""Labels on the desk's maps stay apart.  The desk zooms by narrowing the
SVG's viewBox at the whole map's proportions (services/web/static/map.js),
a uniform scale of text and map together, so labels apart on the whole map
are apart at every zoom it offers; what is checked here is the whole map,
with the markers of the largest page, the 213-ship British minister's."""

from __future__ import annotations

from pate.datafiles import load_scenario
from pate.v1 import desk_pb2
from services.web.campaign_map import ship_maps
from tests.unit.reports.test_reports_maps import overlapping


def _ships(state: str) -> list[desk_pb2.MyShip]:
    world = load_scenario("grand1805").world
    out = []
    for s in world.ships.values():
        if s.id.startswith(state):
            loc = s.location
            out.append(
                desk_pb2.MyShip(id=s.id, sea_area=getattr(loc, "area", ""), port=getattr(loc, "port", ""))
            )
    return out


def test_no_two_labels_overlap_on_the_ministers_maps() -> None:
    ships = _ships("BR")
    assert len(ships) == 213
    maps = ship_maps(ships)
    assert {m.which for m in maps} == {"europe", "america"}
    for m in maps:
        assert not overlapping(m.svg), (m.which, overlapping(m.svg)[:5])
        assert m.focus  # it opens round his ships
