"""The game master's pages.

A game master is a player of the campaign with the administrator role (the
orders service says so: PlayerDesk.GetMyCampaign); only then does the web
call CampaignAdmin and Reports with its administrator token on his behalf,
for his campaign only: close the open turn by its number, set or extend its
deadline, set a player's password, recover a failed turn, and read every
player's report.  Creating a campaign is the server administrator's: the
form must carry the administrator token (docs/security.md).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from pate.core.world.state import COMBAT_RULESETS, NAVAL_RULESETS
from pate.datafiles import list_scenarios
from pate.v1 import admin_pb2, desk_pb2
from services.web import bots_calls, create_form, security, wording
from services.web.backend import act_as
from services.web.backend_errors import ForbiddenError, RefusedError
from services.web.desk import Desk
from services.web.pages import (
    ID_PATTERN,
    NAVAL_WORDS,
    RULES_WORDS,
    STATUS_WORDS,
    campaign_id,
    deadline_of,
    rules_name,
)
from services.web.reports_pages import turn_of

ADMIN_ROLE = "admin"
MAX_EXTEND_HOURS = 24 * 30
# The create form's inputs, and the field a refusal names (the web's own or the orders
# service's: "<field>: <why>") mapped to the input it is shown beside.
CREATE_INPUTS = ("new_id", "scenario", "first_deadline", "turn_hours", "combat_rules", "naval_rules", "solo")
_CREATE_FIELD = {
    "new_id": "new_id",
    "id": "new_id",
    "scenario": "scenario",
    "deadline": "first_deadline",
    "first_deadline": "first_deadline",
    "turn_hours": "turn_hours",
    "turn_seconds": "turn_hours",
    "combat_rules": "combat_rules",
    "naval_rules": "naval_rules",
    "solo": "solo",
    "humans": "solo",
    "admin_token": "admin_token",
}


def rules_choices() -> list[tuple[str, str]]:
    """The combat rule sets a new campaign may play, from the core's one list of them."""
    return [(name, RULES_WORDS.get(name, name)) for name in COMBAT_RULESETS]


def naval_choices() -> list[tuple[str, str]]:
    """The naval rule sets a new campaign may play (docs/rules/eia-operations.md)."""
    return [(name, NAVAL_WORDS.get(name, name)) for name in NAVAL_RULESETS]


def create_field(message: str) -> str:
    """The create form's input a refusal is about ("" when it names none of them)."""
    name, sep, _ = message.partition(":")
    return _CREATE_FIELD.get(name.strip(), "") if sep else ""


async def master_of_campaign(desk: Desk, request: Request) -> tuple[str, desk_pb2.MyCampaign]:
    """The campaign of a game master's page, once his role there is checked (any other caller
    is shown "Not found"); the rest of the request calls with his own session."""
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    mine = await desk.backend.my_campaign(session)
    if ADMIN_ROLE not in mine.roles:
        raise ForbiddenError("not a game master")  # shown as 404 like any page not yours
    act_as(session)
    return cid, mine


def _page(
    desk: Desk, request: Request, cid: str, mine: desk_pb2.MyCampaign, status: int = 200, **ctx: Any
) -> HTMLResponse:
    ctx.setdefault("message", str(desk.flash(request).get("done", ""))[:200])
    # a service's refusal ("player_id: ...") in words, without its field names or patterns
    ctx["error"] = "; ".join(wording.lines(ctx.get("error", "")))
    ctx.setdefault("logins", [])
    ctx.setdefault("create_errors", {})
    ctx.setdefault("create_values", {})
    ctx.setdefault("bot_errors", {})
    ctx.setdefault("civil_after", None)
    return desk.render(
        request,
        "gm.html",
        status=status,
        cid=cid,
        mine=mine,
        turn_status=STATUS_WORDS.get(mine.campaign.status, "?"),
        rules=rules_name(mine.campaign),
        deadline=deadline_of(mine.campaign),
        players=list(mine.players),
        bot_choices=hand_choices(mine),
        rules_choices=rules_choices(),
        naval_choices=naval_choices(),
        scenario_choices=[path.stem for path in list_scenarios()],
        **ctx,
    )


def hand_choices(mine: desk_pb2.MyCampaign) -> list[str]:
    """The players the game master may hand to the bot: those with a state (the game master's
    own seat has none, docs/bots.md) whom the bot does not play already."""
    played = {s.player_id for s in mine.bot_seats}
    return [p for p in mine.seats if p not in played]


async def master(desk: Desk, request: Request) -> Response:
    cid, mine = await master_of_campaign(desk, request)
    return await page_with(desk, request, cid, mine)


guarded = master_of_campaign  # the hand-over's forms (services/web/handover.py) check the role the same way


async def page_with(
    desk: Desk, request: Request, cid: str, mine: desk_pb2.MyCampaign, status: int = 200, **ctx: Any
) -> HTMLResponse:
    """The page with the campaign's civil-disorder rule, which only BotAdmirals knows."""
    seats = await bots_calls.bot_seats(desk.backend, cid)
    return _page(desk, request, cid, mine, status=status, civil_after=seats.civil_disorder_after, **ctx)


async def close_turn(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    cid, mine = await master_of_campaign(desk, request)
    turn = form.get("turn", "")
    try:
        if not turn.isdigit() or len(turn) > 3:
            raise RefusedError("Turn to close: give the number of the open turn")
        await desk.backend.close_turn(cid, int(turn))
    except RefusedError as err:
        return _page(desk, request, cid, mine, status=422, error=err.message)
    return desk.redirect_with(request, f"/c/{cid}/gm", done=f"turn {turn} closed")


def parse_utc(text: str) -> datetime:
    """``YYYY-MM-DDTHH:MM`` (a datetime-local input), read as UTC."""
    try:
        return datetime.strptime(text.strip(), "%Y-%m-%dT%H:%M").replace(tzinfo=UTC)
    except ValueError:
        raise RefusedError("Deadline: give a date and time, YYYY-MM-DDTHH:MM (UTC)") from None


async def set_deadline(desk: Desk, request: Request) -> Response:
    """Set the open turn's deadline, extend it by hours, or remove it."""
    form = await desk.form(request)
    cid, mine = await master_of_campaign(desk, request)
    current = deadline_of(mine.campaign)
    try:
        if form.get("clear") == "on":
            deadline = None
        elif form.get("extend_hours", "").strip():
            hours = form["extend_hours"].strip()
            if not hours.isdigit() or not 0 < int(hours) <= MAX_EXTEND_HOURS:
                raise RefusedError(f"Extend by hours: 1 to {MAX_EXTEND_HOURS} hours")
            deadline = max(current or datetime.now(UTC), datetime.now(UTC)) + timedelta(hours=int(hours))
        else:
            deadline = parse_utc(form.get("deadline", ""))
        await desk.backend.set_deadline(cid, mine.campaign.turn, deadline)
    except RefusedError as err:
        return _page(desk, request, cid, mine, status=422, error=err.message)
    said = deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline else "none"
    return desk.redirect_with(request, f"/c/{cid}/gm", done=f"deadline of turn {mine.campaign.turn}: {said}")


async def set_password(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    cid, mine = await master_of_campaign(desk, request)
    player, password = form.get("player", ""), form.get("password", "")
    try:
        if not ID_PATTERN.fullmatch(player):
            raise RefusedError("Player: choose a player")
        if not 8 <= len(password) <= 1024:
            raise RefusedError("New password: 8 to 1024 characters")
        await desk.backend.set_password(cid, player, password)
    except RefusedError as err:
        return _page(desk, request, cid, mine, status=422, error=err.message)
    except ForbiddenError as err:
        return _page(desk, request, cid, mine, status=422, error=err.message)
    return desk.redirect_with(
        request, f"/c/{cid}/gm", done=f"password of {player} set; the old sessions are ended"
    )


NOT_THE_ADMINISTRATOR = create_form.said(
    "admin_token", "creating a campaign is the server administrator's work; give his token"
)
# a token was typed and the orders service refused it: saying "give his token" would not help
WRONG_ADMINISTRATOR_TOKEN = create_form.said(
    "admin_token", "this is not the server administrator's token; nothing was created"
)


def _server_administrator(form: dict[str, str]) -> bool:
    """The form carries a token to send as the server administrator's. The web holds none to
    compare it with: the orders service checks it, and a wrong one is refused there."""
    return bool(form.get("admin_token", "").strip())


def _create_refused(
    desk: Desk, request: Request, cid: str, mine: desk_pb2.MyCampaign, errors: dict[str, str], **ctx: Any
) -> HTMLResponse:
    """Every error beside its input; one no input shows at the top."""
    status = ctx.pop("status", 422)
    return _page(desk, request, cid, mine, status=status, create_errors=errors, **ctx)


async def create_campaign(desk: Desk, request: Request) -> Response:
    """The server administrator's work, not a game master's (docs/security.md)."""
    form = await desk.form(request)
    cid, mine = await master_of_campaign(desk, request)
    values = {k: form.get(k, "").strip()[:64] for k in CREATE_INPUTS}
    errors, humans = create_form.check_create(values)  # every error at once (docs/web.md)
    allowed = _server_administrator(form)
    if not allowed:
        errors = {"admin_token": NOT_THE_ADMINISTRATOR, **errors}
    if errors:
        status = 422 if allowed else 403
        return _create_refused(desk, request, cid, mine, errors, create_values=values, status=status)
    first = parse_utc(values["first_deadline"]) if values["first_deadline"] else None
    # the typed token goes with the calls: the new campaign is not the one this game master runs
    typed = form.get("admin_token", "")[:256]
    try:
        created = await desk.backend.create_campaign(
            values["new_id"],
            values["scenario"],
            first,
            int(values["turn_hours"] or 0) * 3600,
            combat_rules=values["combat_rules"],
            naval_rules=values["naval_rules"],
            admin_token=typed,
        )
        if humans:  # docs/bots.md: the bot admiral plays every other seat
            await desk.backend.make_solo(created.id, humans, admin_token=typed)
    except (RefusedError, ForbiddenError) as err:
        if isinstance(err, ForbiddenError) and "administrator token" in err.message:
            errors = {"admin_token": WRONG_ADMINISTRATOR_TOKEN}  # the orders service said it is not his
            return _create_refused(desk, request, cid, mine, errors, create_values=values, status=403)
        field = create_field(err.message)
        return _create_refused(
            desk,
            request,
            cid,
            mine,
            {field: create_form.reworded(field, err.message)} if field else {},
            error="" if field else wording.plain(err.message),
            create_values=values,
        )
    logins = [(lg.player_id, lg.password) for lg in created.logins]
    # the generated passwords are shown this once (the orders service keeps only their hashes)
    return _page(
        desk,
        request,
        cid,
        mine,
        message=f"campaign {created.id} created ({rules_name(created)} rules)"
        + (f"; solo: the bot admiral plays every seat but {values['solo']}" if values["solo"] else ""),
        logins=logins,
        new_id=created.id,
    )


async def all_reports(desk: Desk, request: Request) -> Response:
    cid, _mine = await master_of_campaign(desk, request)
    refs = await desk.backend.all_reports(cid)
    return desk.render(request, "gm_reports.html", cid=cid, refs=refs)


async def report_of(desk: Desk, request: Request) -> Response:
    cid, _mine = await master_of_campaign(desk, request)
    turn, player = turn_of(request), str(request.path_params["player"])
    if not ID_PATTERN.fullmatch(player):
        raise ForbiddenError("no such report")
    html = await desk.backend.report_of(cid, turn, player, "html")
    return HTMLResponse(html, headers={"content-security-policy": security.REPORT_CSP})


async def pause(desk: Desk, request: Request) -> Response:
    """Pause (the deadline stops) or resume (the time left runs again from now)."""
    form = await desk.form(request)
    cid, mine = await master_of_campaign(desk, request)
    resume = form.get("action") == "resume"
    try:
        state = await desk.backend.pause(cid, resume=resume)
    except RefusedError as err:
        return _page(desk, request, cid, mine, status=422, error=err.message)
    left = f"{state.remaining_seconds // 3600} h {state.remaining_seconds % 3600 // 60} min"
    said = "resumed: the deadline is back" if resume else f"paused with {left} left"
    return desk.redirect_with(request, f"/c/{cid}/gm", done=f"campaign {said}")


_RECOVERY = {
    "retry": ("RetryTurn", "turn {turn} sent to be resolved again"),
    "reopen": ("ReopenTurn", "turn {turn} is open again: players may change their orders"),
    "defaults": ("ResolveWithDefaults", "turn {turn} sent to be resolved with {player}'s orders replaced"),
}


async def recover_turn(desk: Desk, request: Request) -> Response:
    """A failed turn: retry it, reopen it, or resolve it with one player's orders
    replaced by the defaults of rule 4.11 (docs/operations.md, "A failed turn")."""
    form = await desk.form(request)
    cid, mine = await master_of_campaign(desk, request)
    action, turn, player = form.get("action", ""), form.get("turn", ""), form.get("player", "")
    try:
        if action not in _RECOVERY:
            raise RefusedError("Failed turn: retry, reopen or resolve with defaults")
        if not turn.isdigit() or len(turn) > 3:
            raise RefusedError("Failed turn: give the number of the failed turn")
        if action == "defaults" and not ID_PATTERN.fullmatch(player):
            raise RefusedError("Replace the orders of: choose the player whose orders are replaced")
        method, said = _RECOVERY[action]
        await desk.backend.admin_call(method, _recovery_request(action, cid, int(turn), player))
    except RefusedError as err:
        return _page(desk, request, cid, mine, status=422, error=err.message)
    return desk.redirect_with(request, f"/c/{cid}/gm", done=said.format(turn=turn, player=player))


def _recovery_request(action: str, cid: str, turn: int, player: str) -> Any:
    if action == "retry":
        return admin_pb2.RetryTurnRequest(campaign_id=cid, turn=turn)
    if action == "reopen":
        return admin_pb2.ReopenTurnRequest(campaign_id=cid, turn=turn)
    return admin_pb2.ResolveWithDefaultsRequest(campaign_id=cid, turn=turn, player_id=player)
