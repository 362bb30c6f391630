"""The replay viewer: a campaign stepped through turn by turn on the map,
with the event list beside it.  A player replays his own history at any
time, each turn as his report of it told him (his knowledge then, from the
reports service); every side at once is the game master's at any time, and
every player's once the campaign has ended (nothing is hidden any more)."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import Response

from pate.core.codec import from_plain, parse_json
from pate.core.intel.model import PlayerKnowledge
from pate.datafiles import load_world_map
from pate.reports.replay import ReplayFrame, all_sides_frame, player_frame
from pate.reports.truth import read_truth, truth_frame
from pate.v1 import admin_pb2, desk_pb2
from services.web import archive_pages
from services.web.backend import Session, act_as
from services.web.backend_errors import ForbiddenError, NotLoggedInError
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
    return from_plain(PlayerKnowledge, parse_json(body))


def _render(
    desk: Desk,
    request: Request,
    cid: str,
    frame: ReplayFrame | None,
    turns: list[int],
    *,
    truth: ReplayFrame | None = None,
    player: str = "",
    **ctx: bool,
) -> Response:
    places = list(frame.places) if frame else []
    if truth:
        # one frame for both maps, so that the picture and the truth show the same water side by side
        places = sorted(set(places) | set(truth.places))
    views = [(which, svg, focus_on(which, places, svg)) for which, svg in frame.maps] if frame else []
    beside = [(w, svg, focus_on(w, places, svg)) for w, svg in truth.maps] if truth else []
    ctx.setdefault("spectator", False)  # a visitor of the archive (archive_pages.py)
    return desk.render(
        request,
        "replay.html",
        cid=cid,
        frame=frame,
        views=views,
        turns=turns,
        truth=truth,
        truth_views=beside,
        player=player,
        **ctx,
    )


async def replay(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    turns = sorted(await desk.backend.list_reports(session))
    every = all_sides_open(await desk.backend.my_campaign(session))
    if not turns:
        return _render(desk, request, cid, None, [], all_sides=False, every=every)
    turn = _chosen(request, turns)
    k = _knowledge(await desk.backend.report(session, turn, "json"))
    frame = player_frame(k, load_world_map())
    return _render(desk, request, cid, frame, turns, all_sides=False, every=every)


def all_sides_open(mine: desk_pb2.MyCampaign) -> bool:
    """The game master sees every side at any time; a player once the campaign has ended."""
    return ADMIN_ROLE in mine.roles or mine.campaign.status == admin_pb2.TURN_STATUS_FINISHED


async def replay_truth(desk: Desk, request: Request) -> Response:
    """His picture of each turn beside the truth: where the enemy really was, what he
    missed, which sightings were stale.  The reports service decides who may see the
    truth (a player once the campaign has finished); the game master asks as the
    administrator, and may name the player (?player=) whose view to set beside it."""
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    gm = ADMIN_ROLE in mine.roles
    if gm:
        act_as(session)
    player = request.query_params.get("player", "") if gm else ""
    if player:
        turns = sorted({t for t, p in await desk.backend.all_reports(cid) if p == player})
    else:
        turns = sorted(await desk.backend.list_reports(session))
    if not turns:
        if not all_sides_open(mine):
            raise ForbiddenError("not yet")  # shown as 404, as the service's refusal would be
        return _render(desk, request, cid, None, [], player=player, all_sides=False, every=True)
    turn = _chosen(request, turns)
    # the truth first: a player refused it sees nothing else of this page
    body = await desk.backend.truth(cid, turn, None if gm else session)
    if player:
        text = await desk.backend.report_of(cid, turn, player, "json")
    else:
        text = await desk.backend.report(session, turn, "json")
    k, world_map = _knowledge(text), load_world_map()
    beside = truth_frame(k, read_truth(parse_json(body)), world_map)
    frame = player_frame(k, world_map)
    return _render(desk, request, cid, frame, turns, truth=beside, player=player, all_sides=False, every=True)


async def replay_all(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session: Session | None = None
    try:
        session = desk.session_for(request, cid)
    except NotLoggedInError:
        # anyone, once the orders service says the campaign is finished and in the archive;
        # it refuses every other one (NOT_FOUND, the 404 page) before a report is read
        await archive_pages.archived(desk.backend, cid)
    else:
        if not all_sides_open(await desk.backend.my_campaign(session)):
            raise ForbiddenError("not a game master")  # shown as 404 like any page not yours
        # the game master with his own session; a player of a finished campaign with his (the
        # reports service gives every side's reports to the campaign's players once it is over)
        act_as(session)
    spectator = session is None
    refs = await desk.backend.all_reports(cid)
    turns = sorted({t for t, _ in refs})
    if not turns:
        return _render(desk, request, cid, None, [], all_sides=True, every=True, spectator=spectator)
    turn = _chosen(request, turns)
    bodies = [await desk.backend.report_of(cid, turn, p, "json") for t, p in refs if t == turn]
    frame = all_sides_frame([_knowledge(b) for b in bodies], load_world_map())
    return _render(desk, request, cid, frame, turns, all_sides=True, every=True, spectator=spectator)
