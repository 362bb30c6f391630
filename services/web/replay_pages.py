"""The replay viewer: a campaign stepped through turn by turn on the map,
with the event list beside it.  A player replays his own history at any
time, each turn as his report of it told him (his knowledge then, from the
reports service); the game master replays every side at once."""

from __future__ import annotations

import json
from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import Response

from pate.core.codec import from_plain
from pate.core.intel.model import PlayerKnowledge
from pate.datafiles import load_world_map
from pate.reports.replay import ReplayFrame, all_sides_frame, player_frame
from services.web.backend import ForbiddenError
from services.web.campaign_map import focus_on
from services.web.desk import Desk
from services.web.gm import ADMIN_ROLE
from services.web.pages import campaign_id

MAX_TURN = 999


def _chosen(request: Request, turns: Sequence[int]) -> int:
    """The turn asked for (?turn=N), else the first; one not in ``turns`` is refused."""
    raw = request.query_params.get("turn", "")
    if not raw:
        return min(turns)
    if not raw.isdigit() or len(raw) > 3 or int(raw) not in turns:
        raise ForbiddenError("no such turn")  # shown as 404: the turn field names no report of yours
    return int(raw)


def _knowledge(body: str) -> PlayerKnowledge:
    return from_plain(PlayerKnowledge, json.loads(body))


def _render(
    desk: Desk, request: Request, cid: str, frame: ReplayFrame | None, turns: list[int], **ctx: bool
) -> Response:
    views = [(which, svg, focus_on(which, frame.places, svg)) for which, svg in frame.maps] if frame else []
    return desk.render(request, "replay.html", cid=cid, frame=frame, views=views, turns=turns, **ctx)


async def replay(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    turns = sorted(await desk.backend.list_reports(session))
    if not turns:
        return _render(desk, request, cid, None, [], all_sides=False)
    turn = _chosen(request, turns)
    k = _knowledge(await desk.backend.report(session, turn, "json"))
    return _render(desk, request, cid, player_frame(k, load_world_map()), turns, all_sides=False)


async def replay_all(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    mine = await desk.backend.my_campaign(desk.session_for(request, cid))
    if ADMIN_ROLE not in mine.roles:
        raise ForbiddenError("not a game master")  # shown as 404 like any page not yours
    refs = await desk.backend.all_reports(cid)
    turns = sorted({t for t, _ in refs})
    if not turns:
        return _render(desk, request, cid, None, [], all_sides=True)
    turn = _chosen(request, turns)
    bodies = [await desk.backend.report_of(cid, turn, p, "json") for t, p in refs if t == turn]
    frame = all_sides_frame([_knowledge(b) for b in bodies], load_world_map())
    return _render(desk, request, cid, frame, turns, all_sides=True)
