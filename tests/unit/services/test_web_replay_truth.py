"""The replay's view beside the truth on the web desk, without a server: the
truth is asked of the reports service as the player himself (which refuses him
while the campaign runs: the page is then "Not found" and shows nothing of his
picture or of any ship), once it has finished his picture and the truth stand
side by side with what he missed and which sightings were stale; the game
master asks as the administrator at any time."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pate.core.codec import canonical_json, to_plain
from pate.core.intel.knowledge import knowledge_for
from pate.reports.truth import truth_json
from pate.v1 import admin_pb2, desk_pb2
from services.web import security
from services.web.backend import Backend, Session
from services.web.backend_errors import ForbiddenError
from services.web.gm import ADMIN_ROLE
from services.web.routes import create_app
from tests.web.test_web_http import settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "cases" / "intel"))
from intel_world import MAP, intel_events, rules, sea, ship, world

SHIPS = [ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1)), ship("BR4SL", sea("SOC", 2))]


def _knowledge_and_truth() -> tuple[str, str]:
    start = world(SHIPS, turn=0)
    k = knowledge_for("villeneuve", start, start, intel_events(start, start, seed=3), MAP, rules())
    return canonical_json(to_plain(k)), truth_json(start.ships.values())


class TruthBackend(Backend):
    """The reports service's answers, and its rule: the truth is a player's once it has finished."""

    status = admin_pb2.TURN_STATUS_OPEN
    roles: tuple[str, ...] = ("commander",)
    asked: list[str]

    async def my_campaign(self, s: Session) -> desk_pb2.MyCampaign:
        mine = desk_pb2.MyCampaign(player_id=s.player, roles=list(self.roles))
        mine.campaign.status = self.status
        return mine

    async def list_reports(self, s: Session) -> list[int]:
        return [0]

    async def all_reports(self, campaign: str) -> list[tuple[int, str]]:
        return [(1, "calder"), (0, "calder"), (0, "villeneuve")]

    async def report_of(self, campaign: str, turn: int, player: str, fmt: str) -> str:
        return _knowledge_and_truth()[0]

    async def report(self, s: Session, turn: int, fmt: str) -> str:
        return _knowledge_and_truth()[0]

    async def truth(self, campaign: str, turn: int, s: Session | None = None) -> str:
        self.asked.append("player" if s is not None else "admin")
        if s is not None and self.status != admin_pb2.TURN_STATUS_FINISHED:
            raise ForbiddenError("the truth of the campaign is shown once it has finished")
        return _knowledge_and_truth()[1]


@pytest.fixture
def desk() -> Iterator[tuple[TestClient, TruthBackend]]:
    s = settings(None)
    backend = TruthBackend(s.orders_addr, s.reports_addr)
    backend.asked = []
    with TestClient(create_app(backend, s), base_url="http://desk.test") as c:
        session = Session("t" * 24, "demo", "villeneuve", time.time() + 3600)
        c.cookies.set(security.SESSION_COOKIE, session.cookie())
        c.cookies.set(security.BROWSER_COOKIE, "browser-1")
        yield c, backend


def test_a_player_of_a_running_campaign_is_refused(desk) -> None:  # type: ignore[no-untyped-def]
    client, backend = desk
    r = client.get("/c/demo/replay/truth?turn=0")
    assert r.status_code == 404 and backend.asked == ["player"]
    assert "BR2FL" not in r.text and "BR4SL" not in r.text and "FR3FL" not in r.text


def test_after_the_end_his_view_stands_beside_the_truth(desk) -> None:  # type: ignore[no-untyped-def]
    client, backend = desk
    backend.status = admin_pb2.TURN_STATUS_FINISHED
    r = client.get("/c/demo/replay/truth?turn=0")
    assert r.status_code == 200 and backend.asked == ["player"]
    assert 'id="view-head"' in r.text and 'id="truth-head"' in r.text
    assert "<strong>missed</strong>: BR4SL in SOC" in r.text  # never in contact
    assert "<strong>seen</strong>: BR2FL in NOC" in r.text


def test_the_game_master_sees_it_at_any_time(desk) -> None:  # type: ignore[no-untyped-def]
    client, backend = desk
    backend.roles = (ADMIN_ROLE,)
    r = client.get("/c/demo/replay/truth?turn=0")
    assert r.status_code == 200 and backend.asked == ["admin"]
    assert "<strong>missed</strong>: BR4SL in SOC" in r.text


def test_the_game_master_steps_through_the_player_he_named(desk) -> None:  # type: ignore[no-untyped-def]
    client, backend = desk
    backend.roles = (ADMIN_ROLE,)
    r = client.get("/c/demo/replay/truth?player=calder&turn=0")
    assert r.status_code == 200 and "calder's view beside the truth" in r.text
    assert 'name="player" value="calder"' in r.text  # the turn chooser keeps him
    assert 'href="/c/demo/replay/truth?player=calder&amp;turn=1"' in r.text  # and so does the next turn


def test_the_picture_and_the_truth_are_framed_on_the_same_water(desk) -> None:  # type: ignore[no-untyped-def]

    client, backend = desk
    backend.status = admin_pb2.TURN_STATUS_FINISHED
    r = client.get("/c/demo/replay/truth?turn=0")
    picture = re.findall(r'id="map-(\w+)"><div class="map-view" data-focus="([^"]*)"', r.text)
    truth = re.findall(r'id="truth-(\w+)"><div class="map-view" data-focus="([^"]*)"', r.text)
    assert picture and truth
    framed = dict(picture)
    # the truth holds BR4SL in SOC, which his picture missed: both frames take it in
    for which, focus in truth:
        assert focus and framed.get(which) == focus
