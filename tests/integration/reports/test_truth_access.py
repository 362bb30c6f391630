"""The truth of a campaign (reports.proto GetTruth) is checked on the server: a
player of a running campaign is refused, in words that tell nothing of the
turn asked for; once the campaign has finished he gets every ship's place; the
game master (the administrator's token) gets it at any time."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest
import sqlalchemy as sa

from pate.core.codec import parse_json
from pate.v1 import reports_pb2
from services.platform.security.auth import Authenticator
from services.platform.store import repository as repo
from services.reports.servicer import TRUTH_REFUSED, ReportsServicer
from tests.support.passwords import TEST_PASSWORD, open_training_campaign

pytestmark = pytest.mark.integration

CAMPAIGN = "truthful"
ADMIN = "admin-token-of-the-test"


class RefusedError(Exception):
    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code, self.details = code, details


class Context:
    """What the servicer reads of a call: its metadata and peer; abort raises."""

    def __init__(self, md: dict[str, str]) -> None:
        self.md = md

    def invocation_metadata(self) -> Any:
        return tuple(self.md.items())

    def peer(self) -> str:
        return "ipv4:127.0.0.1:5000"

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise RefusedError(code, details)


def _truth(servicer: ReportsServicer, md: dict[str, str], turn: int) -> reports_pb2.Truth:
    request = reports_pb2.GetTruthRequest(campaign_id=CAMPAIGN, turn=turn)
    return asyncio.run(servicer.GetTruth(request, Context(md)))


def test_a_player_gets_the_truth_only_after_the_end(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        open_training_campaign(conn, CAMPAIGN)
        # a player of a side (the scenario's admin player is its game master, who sees it at any time)
        player = sorted(p for p, x in repo.load_world(conn, CAMPAIGN, 1).players.items() if x.state)[0]
    servicer = ReportsServicer(engine, ADMIN, Authenticator(engine))
    me = {"x-pate-player": player, "x-pate-password": TEST_PASSWORD}

    refusals = []
    for turn in (0, 1, 7):  # a turn resolved or not: the same refusal
        with pytest.raises(RefusedError) as refused:
            _truth(servicer, me, turn)
        refusals.append((refused.value.code, refused.value.details))
    assert refusals == [(grpc.StatusCode.PERMISSION_DENIED, TRUTH_REFUSED)] * 3

    gm = _truth(servicer, {"x-pate-admin-token": ADMIN}, 0)  # the game master: at any time
    ships = parse_json(gm.body)
    assert ships and {s["id"] for s in ships} >= {"BR1FL"}
    assert set(ships[0]) == {"id", "state", "type", "active", "location"}  # places only

    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE campaigns SET status = 'FINISHED' WHERE id = :c"), {"c": CAMPAIGN})
    assert _truth(servicer, me, 0).body == gm.body
    with pytest.raises(RefusedError) as missing:
        _truth(servicer, me, 7)
    assert missing.value.code == grpc.StatusCode.NOT_FOUND


def test_a_wrong_admin_token_is_a_player_call_and_is_refused(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        open_training_campaign(conn, CAMPAIGN)
    servicer = ReportsServicer(engine, ADMIN, Authenticator(engine))
    with pytest.raises(RefusedError) as refused:
        _truth(servicer, {"x-pate-admin-token": "guess"}, 0)
    assert refused.value.code != grpc.StatusCode.OK and "BR1FL" not in refused.value.details


def _list(servicer: ReportsServicer, md: dict[str, str]) -> reports_pb2.ListReportsResponse:
    return asyncio.run(
        servicer.ListReports(reports_pb2.ListReportsRequest(campaign_id=CAMPAIGN), Context(md))
    )


def test_no_credentials_read_a_campaign_only_once_it_is_finished_and_in_the_public_archive(
    engine: sa.Engine,
) -> None:
    """The spectator's replay of the archive carries no credentials (the web holds no
    administrator token): the reports service answers it for a finished campaign its game master
    put in the archive, and refuses it, as any caller without a session, for any other."""
    with engine.begin() as conn:
        open_training_campaign(conn, CAMPAIGN)
    servicer = ReportsServicer(engine, ADMIN, Authenticator(engine))
    public = sa.text(
        "INSERT INTO campaign_options (campaign, show_ready, archive_public) VALUES (:c, :p, :p)"
    )
    finished = sa.text("UPDATE campaigns SET status = 'FINISHED' WHERE id = :c")
    for step in ("running", "finished, not public", "public"):
        if step == "finished, not public":
            with engine.begin() as conn:
                conn.execute(finished, {"c": CAMPAIGN})
        if step == "public":
            with engine.begin() as conn:
                conn.execute(public, {"c": CAMPAIGN, "p": True})
            break
        with pytest.raises(RefusedError) as refused:
            _list(servicer, {})
        assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED, step
    assert _truth(servicer, {}, 0).body  # every ship's place, as for a player once it is over
    with pytest.raises(RefusedError):
        _list(servicer, {"authorization": "Bearer s1." + "C" * 40})  # a bad session stays refused
