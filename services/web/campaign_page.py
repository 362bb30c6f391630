"""The campaign page (the desk): the map, the one-line list of ships, and the
order panel of a ship or squadron beside the map (``?ship=ID`` or
``?squadron=ID``: a plain link, so it opens without JavaScript too).  The
panel is the order form, made compact, and sends to the same handler."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from pate.v1 import admin_pb2, desk_pb2
from services.web import forms, operation_form, ship_list, winds
from services.web.backend import Session
from services.web.backend_errors import ForbiddenError
from services.web.campaign_map import last_report, route_map, ship_maps
from services.web.desk import Desk

SHIP_ID_LONGEST = 64
MOVEMENT_INPUTS = frozenset({"sea1", "sea2", "port", "any_enemy_port", "harbor", "sail_alone"})
STATUS_WORDS = {v: k.removeprefix("TURN_STATUS_").lower() for k, v in admin_pb2.TurnStatus.items()}
# The campaign's combat rule set as players know it (docs/rules/eia.md).
RULES_WORDS = {
    "pate": "PATE",
    "eia-advanced": "Empires in Arms, advanced naval rules",
    "eia-advanced-revolution": "Empires in Arms, advanced naval rules (Revolution: no melee chits)",
}
# The campaign's naval rule set (docs/rules/eia-operations.md).
NAVAL_WORDS = {"pate": "PATE's orders and movement", "eia-operations": "Empires in Arms, fleet operations"}


def rules_name(c: admin_pb2.Campaign) -> str:
    """An older server sends no rule set: it played PATE's, the only one it knew."""
    name = c.combat_rules or "pate"
    words = RULES_WORDS.get(name, name)
    if c.naval_rules and c.naval_rules != "pate":
        words += "; " + NAVAL_WORDS.get(c.naval_rules, c.naval_rules)
    return words


def deadline_of(c: admin_pb2.Campaign) -> datetime | None:
    return c.deadline.ToDatetime(tzinfo=UTC) if c.HasField("deadline") else None


def squadron_of(mine: desk_pb2.MyCampaign, lead: str) -> list[str]:
    """A lead and the ships attached to it (rule 4.4)."""
    members = [
        s.id for s in mine.ships if s.id != lead and (s.effective.order.attach_to or s.attached_to) == lead
    ]
    return [lead, *members]


def panel_ships(request: Request, mine: desk_pb2.MyCampaign) -> list[str]:
    """The ships of the open panel, from the query; a ship not his reads as
    no ship at all (404), as on the order form."""
    ship, squadron = request.query_params.get("ship", ""), request.query_params.get("squadron", "")
    wanted = ship or squadron
    if not wanted:
        return []
    if len(wanted) > SHIP_ID_LONGEST or wanted not in {s.id for s in mine.ships}:
        raise ForbiddenError("not your ship")
    return squadron_of(mine, wanted) if squadron and not ship else [wanted]


def form_context(
    mine: desk_pb2.MyCampaign,
    ship_ids: Sequence[str],
    values: dict[str, str] | None,
    errors: forms.FieldErrors | None,
) -> dict[str, Any]:
    """What the order form's template needs, on its own page or in the panel."""
    by_id = {s.id: s for s in mine.ships}
    if not ship_ids or any(sid not in by_id for sid in ship_ids):
        raise ForbiddenError("not your ship")  # another player's ship looks like no ship at all
    ships = [by_id[sid] for sid in ship_ids]
    filled = values or {}
    if values is None:
        for i, s in enumerate(ships):
            filled.update({f"{i}.{k}": v for k, v in forms.values_of(s.effective.order).items()})
    errors = errors or forms.FieldErrors()
    return {
        "ships": ships,
        "moves": {s.id: forms.movement_choices(s) for s in ships},
        "route": route_map(ships),
        "choices": forms.CHOICES,
        "op_choices": operation_form.choices_of,
        "values": filled,
        "errors": errors,
        "bad_ships": {i for i, _ in errors.by_input},
        "bad_more": {i for i, name in errors.by_input if name not in MOVEMENT_INPUTS},
        "companions": {
            s.id: [o.id for o in mine.ships if o.id != s.id and o.location == s.location] for s in ships
        },
        "ship_list": ",".join(ship_ids),
        "compact": False,  # the panel folds the sections after movement
        "turn": mine.campaign.turn,
    }


async def campaign_view(
    desk: Desk,
    request: Request,
    cid: str,
    session: Session,
    *,
    mine: desk_pb2.MyCampaign | None = None,
    panel: Sequence[str] | None = None,
    values: dict[str, str] | None = None,
    errors: forms.FieldErrors | None = None,
    status: int = 200,
    extra: dict[str, Any] | None = None,
) -> Response:
    mine = mine or await desk.backend.my_campaign(session)
    panel = list(panel) if panel is not None else panel_ships(request, mine)
    sent_ids = desk.flash(request).get("sent", [])
    done = {s for s in sent_ids if isinstance(s, str)} if isinstance(sent_ids, list) else set()
    with_map = request.query_params.get("map", "") != "off"
    last = await last_report(desk.backend, session, mine.campaign.turn)
    known = winds.reported(last.winds)
    context: dict[str, Any] = {
        "mine": mine,
        "cid": cid,
        "places": ship_list.places(mine.ships, done | set(panel)),
        "keep": done | set(panel),
        "folded": ship_list.folded(mine.ships),
        "maps": ship_maps(mine.ships, last.seen, courses=True, earlier=last.earlier)
        if with_map and not panel
        else [],
        "with_map": with_map,
        "winds_now": winds.winds_line(mine.ships, known),
        "report_turn": last.turn,
        "deadline": deadline_of(mine.campaign),
        "rules": rules_name(mine.campaign),
        "turn_status": STATUS_WORDS.get(mine.campaign.status, "?"),
        "describe": forms.describe_order,
        "sent": done,
        "ordered": len(ship_list.ordered_ids(mine.ships)),
        "now": datetime.now(UTC),
        "panel": bool(panel),
        **(extra or {}),
    }
    if panel:
        context.update(form_context(mine, panel, values, errors))
        context["weather"] = winds.ship_weather(context["ships"][0], known, last.turn)
        context["squadron_lead"] = panel[0] if len(panel) > 1 else ""
    return desk.render(request, "campaign.html", status=status, **context)
