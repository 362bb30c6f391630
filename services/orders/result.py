"""The result of a campaign (pate.v1.CampaignResults; docs/rules/result.md, docs/web.md).

The orders service serves it because it keeps what decides who may read it: the campaign's
status and the game master's options.  The game master reads it at any time (the account so
far while the campaign runs); a player of the campaign once it is finished; anyone else only
once it is finished and the game master lets spectators see it.  Every other call gets the
same NOT_FOUND, whether the campaign runs, does not exist or keeps its result to its players,
so that a refusal tells nothing of a running campaign.
"""

from __future__ import annotations

from enum import StrEnum

import grpc
from sqlalchemy import Connection, Engine, func, select

from pate.core.result import TYPES, CampaignResult, SideAccount, campaign_result
from pate.core.world.state import Role
from pate.datafiles import load_rule_data
from pate.v1 import result_pb2, result_pb2_grpc
from services.orders import archive, desk, options
from services.platform.errors import Code, DeskError
from services.platform.runtime.rpc import abort, call_credentials, caller_row, in_reader, is_admin
from services.platform.security.auth import Authenticator
from services.platform.store import repository as repo
from services.platform.store import tables

HIDDEN = "campaign_id: no result to show"


class Reader(StrEnum):
    MASTER = "master"
    PLAYER = "player"
    SPECTATOR = "spectator"


def may_read(status: str | None, reader: Reader, spectators: bool) -> bool:
    """Who reads a campaign's result (``status`` None: no such campaign)."""
    if status is None:
        return False
    if reader is Reader.MASTER:
        return True
    return status == "FINISHED" and (reader is Reader.PLAYER or spectators)


def _final_turn(conn: Connection, campaign: str) -> int | None:
    """The turn of the last world stored: the world after the last resolved turn."""
    t = tables.world_states
    found = conn.execute(select(func.max(t.c.turn)).where(t.c.campaign == campaign)).scalar()
    return int(found) if found is not None else None


def compute(conn: Connection, campaign: str) -> CampaignResult:
    """The account from the start world (turn 1), the last world and every resolved turn's events."""
    last = _final_turn(conn, campaign)
    if last is None:
        raise DeskError(Code.NOT_FOUND, HIDDEN)
    start = repo.load_world(conn, campaign, 1)
    final = repo.load_world(conn, campaign, last)
    events = {turn: repo.load_events(conn, campaign, turn) for turn in range(1, last)}
    return campaign_result(start, final, events, load_rule_data().result_scoring())


def _counts(by_type: dict[str, int]) -> result_pb2.ShipCounts:
    return result_pb2.ShipCounts(**{t.lower(): by_type[t] for t in TYPES})


_COUNTS = (
    "ships_start",
    "ships_end",
    "sunk",
    "lost_to_sea",
    "scuttled",
    "taken",
    "sank",
    "prizes",
    "unrecorded",
)
_NUMBERS = (
    "merchants_lost",
    "merchants_taken",
    "trade_sailed",
    "trade_arrived",
    "troops_landed",
    "troops_landed_on_enemy",
    "troops_lost",
    "men_lost",
)


def _side_pb(a: SideAccount) -> result_pb2.SideAccount:
    out = result_pb2.SideAccount(
        side=a.side,
        name=a.name,
        states=list(a.states),
        ports_taken=list(a.ports_taken),
        ports_lost=list(a.ports_lost),
        points_won=a.won,
        points_lost=a.lost,
        score=a.score,
    )
    for name in _COUNTS:
        getattr(out, name).CopyFrom(_counts(getattr(a, name)))
    for name in _NUMBERS:
        setattr(out, name, getattr(a, name))
    return out


def result_pb(campaign: str, res: CampaignResult, final: bool) -> result_pb2.CampaignResult:
    v = res.verdict
    return result_pb2.CampaignResult(
        campaign_id=campaign,
        turns=res.turns,
        final=final,
        sides=[_side_pb(a) for a in res.sides],
        result=v.kind,
        winner=v.winner,
        margin=v.margin,
        points_in_play=v.in_play,
        sentence=v.sentence,
    )


class CampaignResultsServicer(result_pb2_grpc.CampaignResultsServicer):
    def __init__(
        self,
        engine: Engine,
        auth: Authenticator,
        admin_token: str,
        trusted_proxies: frozenset[str] = frozenset(),
    ) -> None:
        self.engine = engine
        self.auth = auth
        self.admin_token = admin_token
        self.trusted_proxies = trusted_proxies

    async def _reader(self, context: grpc.aio.ServicerContext, campaign: str) -> Reader:
        """The game master (admin token, or a session of a player with the admin role), a
        player (a session of the campaign), or a spectator (no credentials at all)."""
        if is_admin(context, self.admin_token):
            return Reader.MASTER
        creds = call_credentials(context, self.trusted_proxies)
        if not (creds.token or creds.player or creds.password):
            return Reader.SPECTATOR
        actor = desk.actor_of(await caller_row(self.auth, context, campaign, self.trusted_proxies))
        return Reader.MASTER if Role.ADMIN in actor.roles else Reader.PLAYER

    async def GetCampaignResult(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        campaign = request.campaign_id

        def work(conn: Connection) -> result_pb2.CampaignResult:
            row = repo.get_campaign(conn, campaign)
            chosen = options.options(conn, campaign)
            # the archive opens a finished campaign's result to anyone (archive.py)
            spectators = chosen.spectators_see_result or chosen.archive_public
            if row is None or not may_read(row.status, reader, spectators):
                raise DeskError(Code.NOT_FOUND, HIDDEN)
            return result_pb(campaign, compute(conn, campaign), row.status == "FINISHED")

        try:
            reader = await self._reader(context, campaign)
            return await in_reader(self.engine, work)
        except DeskError as err:
            await abort(context, err)

    async def ListArchive(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        try:  # no credentials: the fields are checked, the read is one bounded page
            size = archive.page_size(request.page_size)
            after = archive.check_page_token(request.page_token)
            found, following = await in_reader(self.engine, lambda conn: archive.listed(conn, size, after))
        except DeskError as err:
            await abort(context, err)
        return result_pb2.ListArchiveResponse(
            campaigns=[_archived_pb(a) for a in found], next_page_token=following
        )

    async def GetArchived(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        try:
            found = await in_reader(self.engine, lambda conn: archive.archived(conn, request.campaign_id))
        except DeskError as err:
            await abort(context, err)
        return _archived_pb(found)


def _archived_pb(a: archive.Archived) -> result_pb2.ArchivedCampaign:
    out = result_pb2.ArchivedCampaign(campaign_id=a.campaign, scenario=a.scenario, turns=a.turns)
    if a.finished_at is not None:
        out.finished_at.FromDatetime(a.finished_at)
    return out
