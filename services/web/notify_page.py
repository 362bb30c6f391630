"""The player's notification choices: what he wants to hear (a turn open, the
deadline near with ships still without orders, reports ready, the campaign's
end) and where (email, webhook).  The notifier worker sends them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.web import wording
from services.web.backend_errors import RefusedError
from services.web.desk import Desk
from services.web.pages import campaign_id

KINDS = (
    ("turn_opened", "A turn is open, with its deadline"),
    ("deadline", "The deadline is near and some of my ships have no orders"),
    ("reports", "My reports are ready"),
    ("campaign", "The campaign is over"),
    ("messages", "A player writes to me"),
)


async def notifications(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    session = desk.session_for(request, cid)
    if request.method == "GET":
        current = await desk.backend.notifications(session)
        return desk.render(
            request,
            "notifications.html",
            cid=cid,
            kinds=KINDS,
            email=current.email,
            webhook=current.webhook,
            chosen=set(current.kinds),
            error="",
            message=str(desk.flash(request).get("done", ""))[:100],
        )
    form = await desk.form(request)
    request.state.kept_form = form
    chosen = [k for k, _ in KINDS if form.get(f"kind.{k}") == "on"]
    email, webhook = form.get("email", "")[:400], form.get("webhook", "")[:600]
    try:
        await desk.backend.set_notifications(session, email, webhook, chosen)
    except RefusedError as err:
        return desk.render(
            request,
            "notifications.html",
            status=422,
            cid=cid,
            kinds=KINDS,
            email=email,
            webhook=webhook,
            chosen=set(chosen),
            error="; ".join(wording.lines(err.message)),
            message="",
        )
    return desk.redirect_with(request, f"/c/{cid}/notifications", done="saved")
