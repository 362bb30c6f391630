"""OrderDesk.PreviewOrders: "what may happen?" (docs/rules/intel.md, "Previews").

A thin adapter: the caller's last knowledge and the campaign's public
settings are read, his allowance for the turn is counted and taken in the
audit trail, and the core plays the draft orders (pate.core.preview) on the
bounded CPU pool.  The real world of the turn is never read here, so nothing
the player cannot see can reach the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import Connection

from pate.core.codec import from_plain, parse_json
from pate.core.intel.model import PlayerKnowledge
from pate.core.orders.model import ShipOrder
from pate.core.preview.model import DEFAULT_RUNS, Preview
from pate.core.preview.picture import Setting
from pate.core.preview.run import preview
from pate.core.rules.validation.orders import Actor
from pate.engine.context import turn_context
from pate.reports.preview_text import preview_text
from pate.v1 import orders_pb2
from services.orders import desk, intake
from services.platform.errors import Code, DeskError
from services.platform.runtime.grpcutil import annotate_call
from services.platform.runtime.rpc import abort, in_transaction, run_cpu
from services.platform.store import repository as repo

# docs/rules/intel.md: each player may ask this many previews a turn; a preview of the
# default 20 runs costs about as much CPU as resolving his part of one turn 20 times.
MAX_PREVIEWS_PER_TURN = 30
ACTION = "preview"  # its name in the audit trail, where the allowance is counted


@dataclass(frozen=True, slots=True)
class Taken:
    knowledge: PlayerKnowledge
    setting: Setting
    left: int  # previews left this turn after this one


def take_preview(conn: Connection, campaign: str, turn: int, caller: Actor) -> Taken:
    """The open turn, the caller's knowledge at its start, and one of his
    previews of the turn, counted before any work.  The campaign's row is locked while
    the allowance is counted and taken, so two previews at once cannot both take the last."""
    row = desk.check_open(repo.get_campaign(conn, campaign, lock=True), campaign, turn)
    text = repo.load_player_knowledge(conn, campaign, turn - 1, caller.player)
    if text is None:
        raise DeskError(Code.FAILED_PRECONDITION, f"turn: you have no report for turn {turn} to preview from")
    used = repo.count_audit(conn, campaign, turn, caller.player, ACTION)
    if used >= MAX_PREVIEWS_PER_TURN:
        raise DeskError(
            Code.RESOURCE_EXHAUSTED, f"you have had your {MAX_PREVIEWS_PER_TURN} previews of turn {turn}"
        )
    repo.audit(conn, campaign, turn, caller.player, ACTION, True, {})
    knowledge: PlayerKnowledge = from_plain(PlayerKnowledge, parse_json(text))
    setting = Setting(turns=row.turns, combat_rules=row.combat_rules, naval_rules=row.naval_rules)
    return Taken(knowledge, setting, MAX_PREVIEWS_PER_TURN - used - 1)


def play(taken: Taken, orders: list[ShipOrder], runs: int) -> Preview:
    return preview(turn_context(), taken.knowledge, orders, taken.setting, runs or DEFAULT_RUNS)


def refused(p: Preview) -> DeskError:
    message = "; ".join(str(r) for r in p.refusals)
    return DeskError(desk._code(p.refusals), message, refusals=p.refusals)


def preview_pb(p: Preview, left: int) -> orders_pb2.PreviewOrdersResponse:
    return orders_pb2.PreviewOrdersResponse(
        turn=p.turn,
        runs=p.runs,
        seed=p.seed,
        text=preview_text(p),
        previews_left=left,
        ships=[
            orders_pb2.ShipPreview(
                ship_id=s.id,
                name=s.name,
                destination=s.destination or "",
                reached=s.reached,
                ends=[
                    orders_pb2.PreviewEnd(
                        place=e.place, sea_area=e.sea_area or "", port=e.port or "", runs=e.runs
                    )
                    for e in s.ends
                ],
                meetings=[
                    orders_pb2.PreviewMeeting(place=m.place, ship_ids=m.ships, kinds=m.kinds, runs=m.runs)
                    for m in s.meetings
                ],
            )
            for s in p.ships
        ],
    )


class PreviewRpcs:
    """Mixed into the OrderDesk servicer, whose ``_caller``, ``_refuse`` and ``engine`` it uses."""

    engine: Any
    _caller: Any
    _refuse: Any

    async def PreviewOrders(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        # the request's fields were held to their limits before this call (docs/security.md)
        caller = await self._caller(context, request.campaign_id)
        try:
            orders = await run_cpu(partial(intake.orders_of, request))
            taken = await in_transaction(
                self.engine, lambda c: take_preview(c, request.campaign_id, request.turn, caller)
            )
            p = await run_cpu(partial(play, taken, orders, request.runs))
        except DeskError as err:
            await abort(context, err)
        annotate_call(campaign=request.campaign_id, turn=request.turn, player=caller.player, runs=p.runs)
        if p.refusals:
            await self._refuse(context, refused(p))
        return preview_pb(p, taken.left)
