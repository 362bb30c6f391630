"""The result of a campaign (docs/web.md, "The result of a campaign"): every side's final
account and the result it names (docs/rules/result.md), from CampaignResults.GetCampaignResult.

A browser with a session in the campaign asks as its player (the game master's session as the
game master's, who sees the account so far at any time); any other browser asks as a spectator,
with no credentials.  Whatever the orders service refuses is the one "Not found" page.
"""

from __future__ import annotations

from collections.abc import Callable

import grpc
from starlette.requests import Request
from starlette.responses import Response

from pate.core.ruledata import ResultScoring
from pate.datafiles import load_rule_data
from pate.v1 import result_pb2, result_pb2_grpc
from services.web.backend import CALL_TIMEOUT, Backend, Session
from services.web.backend_errors import NotLoggedInError, translate
from services.web.desk import Desk
from services.web.pages import campaign_id

TYPES = ("fl", "sl", "fr", "tr")


async def fetch_result(b: Backend, campaign: str, s: Session | None) -> result_pb2.CampaignResult:
    stub = result_pb2_grpc.CampaignResultsStub(b._orders())
    md = b._md(s) if s is not None else ()
    try:
        out: result_pb2.CampaignResult = await stub.GetCampaignResult(
            result_pb2.GetCampaignResultRequest(campaign_id=campaign), metadata=md, timeout=CALL_TIMEOUT
        )
    except grpc.RpcError as err:
        raise translate(err, "orders") from None
    return out


def _ships(c: result_pb2.ShipCounts) -> str:
    return ", ".join(f"{t.upper()} {getattr(c, t)}" for t in TYPES)


def _ports(names: list[str]) -> str:
    return f"{len(names)}: {', '.join(names)}" if names else "0"


Cell = Callable[[result_pb2.SideAccount], str]

ROWS: tuple[tuple[str, str, Cell], ...] = (
    ("ships-start", "Ships at the start", lambda a: _ships(a.ships_start)),
    ("ships-end", "Ships at the end", lambda a: _ships(a.ships_end)),
    ("sunk", "Own ships sunk or destroyed by the enemy", lambda a: _ships(a.sunk)),
    ("taken", "Own ships taken by the enemy", lambda a: _ships(a.taken)),
    ("lost-to-sea", "Own ships foundered or wrecked", lambda a: _ships(a.lost_to_sea)),
    ("scuttled", "Own ships scuttled", lambda a: _ships(a.scuttled)),
    ("sank", "Enemy ships sunk or destroyed", lambda a: _ships(a.sank)),
    ("prizes", "Enemy ships taken (prizes)", lambda a: _ships(a.prizes)),
    ("merchants-taken", "Merchants taken", lambda a: str(a.merchants_taken)),
    ("merchants-lost", "Merchants lost", lambda a: str(a.merchants_lost)),
    ("trade", "Trade: merchants sailed, arrived", lambda a: f"{a.trade_sailed}, {a.trade_arrived}"),
    (
        "troops-landed",
        "Troops landed (units; on an enemy shore)",
        lambda a: f"{a.troops_landed} ({a.troops_landed_on_enemy})",
    ),
    ("troops-lost", "Troops lost at sea (units; men known)", lambda a: f"{a.troops_lost} ({a.men_lost})"),
    ("ports-taken", "Ports taken", lambda a: _ports(list(a.ports_taken))),
    ("ports-lost", "Ports lost", lambda a: _ports(list(a.ports_lost))),
    ("points-won", "Points won", lambda a: str(a.points_won)),
    ("points-lost", "Points lost", lambda a: str(a.points_lost)),
    ("score", "Score", lambda a: str(a.score)),
)


def account_rows(res: result_pb2.CampaignResult) -> list[tuple[str, str, list[str]]]:
    return [(key, label, [cell(a) for a in res.sides]) for key, label, cell in ROWS]


def unrecorded(res: result_pb2.CampaignResult) -> list[tuple[str, str]]:
    """Sides whose end count the events do not explain: said, never hidden."""
    out = []
    for a in res.sides:
        if any(getattr(a.unrecorded, t) for t in TYPES):
            out.append((a.name, _ships(a.unrecorded)))
    return out


def scoring_words(s: ResultScoring) -> str:
    """The points and bands of data/rules/result.toml, as the page tells them."""
    ships = ", ".join(f"{t.value} {points}" for t, points in s.ship.items())
    return (
        f"A ship sunk, wrecked, scuttled or taken counts its strength ({ships}); a merchant taken"
        f" {s.merchant}; a port that changed sides {s.port}; a land unit lost at sea {s.troops_lost},"
        f" one landed on an enemy shore {s.troops_landed}. A side's score is its points won less its"
        f" points lost. A margin below {s.draw_below} is a draw; a margin of {s.decisive_from} or more"
        f" that is also {s.decisive_share_pct}% of all the points in play is a decisive victory;"
        " between, a marginal victory."
    )


async def result(desk: Desk, request: Request) -> Response:
    cid = campaign_id(request)
    try:
        session: Session | None = desk.session_for(request, cid)
    except NotLoggedInError:
        session = None  # a spectator
    res = await fetch_result(desk.backend, cid, session)
    return desk.render(
        request,
        "result.html",
        cid=cid,
        res=res,
        rows=account_rows(res),
        unrecorded=unrecorded(res),
        player=session is not None,
        scoring=scoring_words(load_rule_data().result_scoring()),
    )
