"""The game master's hand-over on his page (docs/bots.md): hand a player to the bot admiral,
take him back, set the campaign's civil-disorder rule and the players' allowance of absent
turns.  CSRF-protected forms like every other; a refusal is shown beside the field it is about
(docs/web.md)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from services.web import away_calls, bots_calls, gm, wording
from services.web.backend_errors import ForbiddenError, RefusedError
from services.web.desk import Desk
from services.web.pages import ID_PATTERN

MAX_AFTER = 15  # the orders service's bound (a campaign of rule 3.1 lasts 15 turns)
MAX_ALLOWANCE = 15  # absent turns a player may declare: the orders service's bound too
_ACTIONS = {"hand": "hand-player", "take": "take-player"}


async def seats(desk: Desk, request: Request) -> Response:
    """Hand a player to the bot (``action`` hand) or take him back (``take``)."""
    form = await desk.form(request)
    cid, mine = await gm.guarded(desk, request)
    action, player = form.get("action", ""), form.get("player", "")[:64]
    field = _ACTIONS.get(action, "hand-player")
    try:
        if action not in _ACTIONS:
            raise RefusedError("action: hand the player to the bot, or take him back")
        known = gm.hand_choices(mine) if action == "hand" else mine.players
        if not ID_PATTERN.fullmatch(player) or player not in known:
            raise RefusedError("player_id: choose a player of the campaign with a state")
        if action == "hand":
            await bots_calls.hand_to_bot(desk.backend, cid, player)
        else:
            await bots_calls.take_back(desk.backend, cid, player)
    except (RefusedError, ForbiddenError) as err:
        return await gm.page_with(
            desk, request, cid, mine, status=422, bot_errors={field: _plain(err.message)}
        )
    said = f"the bot admiral plays {player}" if action == "hand" else f"{player} plays himself again"
    return desk.redirect_with(request, f"/c/{cid}/gm", done=said)


async def civil_disorder(desk: Desk, request: Request) -> Response:
    form = await desk.form(request)
    cid, mine = await gm.guarded(desk, request)
    after = form.get("after", "").strip()
    try:
        if not after.isdigit() or int(after) > MAX_AFTER:
            raise RefusedError(f"after_missed: 0 (never) to {MAX_AFTER} deadlines missed in a row")
        await bots_calls.set_civil_disorder(desk.backend, cid, int(after))
    except (RefusedError, ForbiddenError) as err:
        return await gm.page_with(
            desk, request, cid, mine, status=422, bot_errors={"after": _plain(err.message)}
        )
    said = "never" if after == "0" else f"after {int(after)} deadline(s) missed in a row"
    return desk.redirect_with(request, f"/c/{cid}/gm", done=f"civil disorder: the bot plays a player {said}")


async def absence_allowance(desk: Desk, request: Request) -> Response:
    """Each player's allowance of absent turns in the campaign (docs/bots.md "Absence")."""
    form = await desk.form(request)
    cid, mine = await gm.guarded(desk, request)
    turns = form.get("allowance", "").strip()
    try:
        if not turns.isdigit() or int(turns) > MAX_ALLOWANCE:
            raise RefusedError(f"allowance: 0 (no absence) to {MAX_ALLOWANCE} turns")
        await away_calls.set_allowance(desk.backend, cid, int(turns))
    except (RefusedError, ForbiddenError) as err:
        return await gm.page_with(
            desk, request, cid, mine, status=422, bot_errors={"allowance": _plain(err.message)}
        )
    return desk.redirect_with(
        request, f"/c/{cid}/gm", done=f"absence: each player may be away {int(turns)} turns"
    )


def _plain(message: str) -> str:
    """The refusal without its field name (it is shown beside the field)."""
    name, sep, rest = wording.plain(message).partition(":")
    return rest.strip() if sep and " " not in name.strip() else wording.plain(message)
