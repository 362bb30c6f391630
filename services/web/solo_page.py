"""A plain player makes himself a solo campaign from his home page (docs/web.md, "Solo
campaigns"): he chooses a shipped scenario's seat and the rule sets; the bot admiral plays every
other seat.  The web asks the orders service with his session (BotAdmirals.CreateSolo, which
checks the session and the server's limits in the transaction that makes the campaign), logs him
in to the new campaign and shows his password there once."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.web import bots_calls, create_form, pages
from services.web.backend_errors import ForbiddenError, NotLoggedInError, RefusedError
from services.web.desk import Desk

SOLO_INPUTS = ("new_id", "seat", "combat_rules", "naval_rules")
# a refusal's field (the orders service's "<field>: <why>") -> the input it is shown beside
_FIELD = {"campaign_id": "new_id", "id": "new_id", "new_id": "new_id", "scenario": "seat", "seat": "seat"}
_FIELD |= {"combat_rules": "combat_rules", "naval_rules": "naval_rules"}


async def create(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    sessions = desk.logged_in(request)
    if not sessions:
        raise NotLoggedInError("log in to one of your campaigns first")
    values = {k: form.get(k, "").strip()[:110] for k in SOLO_INPUTS}
    errors, scenario, seat = create_form.check_solo(values)
    if errors:
        return await pages.home(desk, request, status=422, solo_errors=errors, solo_values=values)
    try:
        session, password = await bots_calls.create_solo(
            desk.backend,
            sessions[0],
            values["new_id"],
            scenario,
            seat,
            values["combat_rules"],
            values["naval_rules"],
        )
    except (RefusedError, ForbiddenError, NotLoggedInError) as err:
        name, _, _ = err.message.partition(":")
        field = _FIELD.get(name.strip(), "new_id")
        said = create_form.reworded(field, err.message)
        return await pages.home(desk, request, status=422, solo_errors={field: said}, solo_values=values)
    kept = [session, *(s for s in sessions if s.campaign != session.campaign)]
    response = await pages.home(
        desk, request, solo_created=(session.campaign, session.player, password), sessions=kept
    )
    desk.store_sessions(request, response, kept)
    return response
