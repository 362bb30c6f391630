"""The player's "Away" page (docs/web.md): declare or cancel an absence, during which the bot
admiral plays his seat, and write the standing instructions it follows then
(docs/formats/standing.md).  CSRF-protected forms like every other; a refusal is shown above
the form it is about, and what he typed is kept."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from pate.admiral.standing import MAX_TEXT_CHARS
from services.web import away_calls, wording
from services.web.backend_errors import ForbiddenError, RefusedError
from services.web.desk import Desk
from services.web.pages import campaign_id

MAX_TURN_DIGITS = 3


async def away(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    return await _page(desk, request, cid, message=str(desk.flash(request).get("done", ""))[:100])


async def _page(desk: Desk, request: Request, cid: str, status: int = 200, **shown: Any) -> Response:
    session = desk.session_for(request, cid)
    state = await away_calls.absence(desk.backend, session)
    written = await away_calls.standing(desk.backend, session)
    ctx: dict[str, Any] = {
        "absence_error": "",
        "standing_error": "",
        "message": "",
        "text": written.text,
        "from_turn": "",
        "to_turn": "",
    }
    ctx.update(shown)
    return desk.render(
        request,
        "away.html",
        status=status,
        cid=cid,
        state=state,
        written=written,
        max_chars=MAX_TEXT_CHARS,
        **ctx,
    )


def _turn(text: str, field: str) -> int:
    text = text.strip()
    if not text.isdigit() or len(text) > MAX_TURN_DIGITS:
        raise RefusedError(f"{field}: a turn number")
    return int(text)


async def absence(desk: Desk, request: Request) -> Response:
    """Declare an absence (``action`` declare, turns ``from_turn`` to ``to_turn``) or end one
    (``action`` cancel, the absence from ``from_turn``)."""
    cid = campaign_id(request)
    form = await desk.form(request)
    session = desk.session_for(request, cid)
    action = form.get("action", "")
    raw_from, raw_to = form.get("from_turn", "")[:8], form.get("to_turn", "")[:8]
    try:
        if action == "declare":
            first, last = _turn(raw_from, "from_turn"), _turn(raw_to, "to_turn")
            await away_calls.declare(desk.backend, session, first, last)
            said = f"away from turn {first} to turn {last}"
        elif action == "cancel":
            first = _turn(raw_from, "from_turn")
            await away_calls.cancel(desk.backend, session, first)
            said = "absence ended: you play your seat again from the open turn"
        else:
            raise RefusedError("action: declare an absence or cancel one")
    except (RefusedError, ForbiddenError) as err:
        return await _page(
            desk,
            request,
            cid,
            status=422,
            absence_error="; ".join(wording.lines(err.message)),
            from_turn=raw_from if action == "declare" else "",
            to_turn=raw_to if action == "declare" else "",
        )
    return desk.redirect_with(request, f"/c/{cid}/away", done=said)


async def standing(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    form = await desk.form(request)
    session = desk.session_for(request, cid)
    text = form.get("text", "")[: MAX_TEXT_CHARS + 1].replace("\r\n", "\n")
    try:
        kept = await away_calls.set_standing(desk.backend, session, text)
    except (RefusedError, ForbiddenError) as err:
        return await _page(
            desk, request, cid, status=422, standing_error="; ".join(wording.lines(err.message)), text=text
        )
    said = (
        f"{kept.instructions} standing instructions kept"
        if kept.instructions
        else "standing instructions cleared"
    )
    return desk.redirect_with(request, f"/c/{cid}/away", done=said)
