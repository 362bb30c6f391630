"""Orders confirmed, the game master's early close, and messages between allies.

The campaign page's Confirm orders flag (any later change takes it back, in
the orders service), the game master's choice to close a turn once every
player with ships has confirmed and to show players who has confirmed, and
the messages page (opening it marks the messages read, in the orders service).
"""

from __future__ import annotations

import contextlib

from starlette.requests import Request
from starlette.responses import Response

from pate.messaging import message_limits
from services.web import desk_calls, wording
from services.web.backend_errors import RefusedError
from services.web.desk import Desk, redirect
from services.web.gm import master_of_campaign
from services.web.pages import campaign_id


async def confirm(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    form = await desk.form(request)
    turn = form.get("turn", "")
    if not turn.isdigit() or len(turn) > 4:
        return redirect(f"/c/{cid}")
    with contextlib.suppress(RefusedError):  # the turn closed meanwhile: the campaign page says so
        await desk_calls.confirm_orders(desk.backend, session, int(turn), form.get("confirmed") == "yes")
    return redirect(f"/c/{cid}")


async def messages(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    to, body, error, sent = "allies", "", "", request.query_params.get("sent") == "1"
    if request.method == "POST":
        form = await desk.form(request)
        request.state.kept_form = form
        to, body = form.get("to", "")[:200], form.get("body", "")[: message_limits().max_characters + 1]
        kind, _, whom = to.partition(":")
        try:
            await desk_calls.send_message(desk.backend, session, kind, whom, body)
            return redirect(f"/c/{cid}/messages?sent=1")
        except RefusedError as err:
            error = readable(err.message)
    listing = await desk_calls.messages(desk.backend, session)
    return desk.render(
        request,
        "messages.html",
        status=422 if error else 200,
        cid=cid,
        listing=listing,
        to=to,
        body=body if error else "",
        error=error,
        sent=sent,
        max_body=message_limits().max_characters,
    )


def readable(message: str) -> str:
    """The orders service's "field: why" without the internal field name."""
    name, sep, why = wording.plain(message).partition(": ")
    words = {"to": "To", "to_kind": "To", "body": "Message"}
    return f"{words[name]}: {why}" if sep and name in words else message


async def early_close(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    cid, _ = await master_of_campaign(desk, request)
    enabled, keep = form.get("enabled") == "on", form.get("after") == "schedule"
    await desk_calls.set_early_close(desk.backend, cid, enabled, keep)
    return desk.redirect_with(request, f"/c/{cid}/gm", done=early_close_said(enabled, keep))


def early_close_said(enabled: bool, keep_schedule: bool) -> str:
    """What the game master saved, said back to him."""
    if not enabled:
        return "early close saved: off, each turn closes at its deadline"
    then = "stays on schedule" if keep_schedule else "runs from the early close"
    return (
        "early close saved: on, the turn closes once every player with ships has confirmed;"
        f" the next deadline {then}"
    )


async def campaign_options(desk: Desk, request: Request) -> Response:
    """The game master's campaign options: whether players see who has confirmed."""
    form = await desk.form(request)
    cid, _ = await master_of_campaign(desk, request)
    show = form.get("show_ready") == "on"
    public = form.get("spectators_see_result") == "on"
    archived = form.get("archive_public") == "on"
    await desk_calls.set_options(desk.backend, cid, show, public, archived)
    said = "players now see who has confirmed" if show else "players no longer see who has confirmed"
    said += (
        "; anyone may read the finished campaign's result" if public else "; only its players read its result"
    )
    if archived:
        said += "; once finished it is in the public archive"
    return desk.redirect_with(request, f"/c/{cid}/gm", done=f"options saved: {said}")
