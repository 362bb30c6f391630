"""The order panel's "Preview" button (docs/rules/intel.md, "Previews"): the
orders as filled in are sent to OrderDesk.PreviewOrders, not stored, and the
same form comes back with the answer under it: the summary in words and a
map with, at each place his ships may end, the share of runs that end there.
Everything shown comes from the answer, which the orders service built from
the player's own report."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import grpc
from starlette.requests import Request
from starlette.responses import Response

from pate.core.world.geography import MapName
from pate.datafiles import load_world_map
from pate.render.style import MAP_TITLES, Icon
from pate.render.svg_map import render_map
from pate.v1 import common_pb2, orders_pb2, orders_pb2_grpc
from services.web import forms
from services.web.backend import CALL_TIMEOUT, Backend, Session
from services.web.backend_errors import RefusedError, translate
from services.web.campaign_page import campaign_view
from services.web.desk import Desk
from services.web.pages import _order_page, _refused, _turn, campaign_id, posted_orders

LIKELY = "#0b5394"  # the colour of the player's own ships on the desk's maps


@dataclass(frozen=True, slots=True)
class PreviewMap:
    which: str
    title: str
    svg: str


@dataclass(frozen=True, slots=True)
class PreviewView:
    text: str
    runs: int
    left: int
    maps: tuple[PreviewMap, ...]


async def preview_orders(
    b: Backend, s: Session, turn: int, orders: Sequence[common_pb2.ShipOrder]
) -> orders_pb2.PreviewOrdersResponse:
    req = orders_pb2.PreviewOrdersRequest(campaign_id=s.campaign, turn=turn, orders=list(orders))
    stub = orders_pb2_grpc.OrderDeskStub(b._orders())
    try:
        out: orders_pb2.PreviewOrdersResponse = await stub.PreviewOrders(
            req, metadata=b._md(s), timeout=CALL_TIMEOUT
        )
    except grpc.RpcError as err:
        raise translate(err, "orders") from None
    return out


def preview_maps(resp: orders_pb2.PreviewOrdersResponse) -> tuple[PreviewMap, ...]:
    """One map per side of the Atlantic his ships may end on: at each sea
    area or port, his ships that may end there and how often."""
    world = load_world_map()
    # a ship's ends in the tactical areas of one sea area are one chance of ending there
    runs: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for ship in resp.ships:
        for end in ship.ends:
            place = end.port or end.sea_area
            if place and resp.runs:
                runs[place][ship.ship_id] += end.runs
    at = {
        place: [f"{sid} {round(100 * n / resp.runs)}%" for sid, n in sorted(ships.items())]
        for place, ships in runs.items()
    }
    by_map: dict[MapName, list[Icon]] = defaultdict(list)
    for place, lines in sorted(at.items()):
        area = world.ports[place].sea_area if place in world.ports else place
        if area not in world.sea_areas:
            continue
        label = lines[0] if len(lines) == 1 else f"{len(lines)} ships"
        by_map[world.sea_areas[area].map].append(
            Icon(at=place, label=label, colour=LIKELY, title=", ".join(lines))
        )
    out = []
    for which, icons in sorted(by_map.items()):
        highlight = frozenset(i.at for i in icons if i.at in world.sea_areas)
        title = f"Where my ships may end: {MAP_TITLES[which]}"
        svg = render_map(world, which, highlight=highlight, icons=icons, title=title, legend=False)
        out.append(PreviewMap(which.value, title, svg))
    return tuple(out)


async def preview_form(desk: Desk, request: Request) -> Response:
    """The order form sent with "Preview": answered with the same form and the preview."""
    cid = campaign_id(request)
    posted = await posted_orders(desk, request, cid)
    if isinstance(posted, Response):
        return posted
    form, session, ship_ids, orders = posted.form, posted.session, posted.ship_ids, posted.orders
    try:
        resp = await preview_orders(desk.backend, session, _turn(form), orders)
    except RefusedError as err:
        errors = forms.place_refusals(err.refusals, fallback=err.message, ships=ship_ids)
        return await _refused(desk, request, cid, session, ship_ids, form, errors)
    view = PreviewView(resp.text, resp.runs, resp.previews_left, preview_maps(resp))
    if form.get("panel") == "1":
        return await campaign_view(
            desk, request, cid, session, panel=ship_ids, values=form, extra={"preview": view}
        )
    return await _order_page(desk, request, cid, session, ship_ids, values=form, extra={"preview": view})
