"""The bot admiral through the real services (docs/bots.md): civil disorder
and the game master's hand-over, with the admiral service a client of the
orders and reports services like a human player.

What must hold end to end: a player misses a deadline, the bot plays his next turn,
he sends orders again and gets his ships back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from pate.cli.main import main as pate
from pate.v1 import bots_pb2, bots_pb2_grpc, common_pb2, desk_pb2, desk_pb2_grpc, orders_pb2
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client

pytestmark = pytest.mark.e2e


@pytest.fixture
def cluster(tmp_path: Path, nats_url: str, database_url: str) -> Iterator[Cluster]:
    c = Cluster(workdir=tmp_path, nats_url=nats_url, database_url=database_url)
    c.extra_env = {"PATE_ADMIRAL_POLL_SECONDS": "0.5"}
    try:
        c.start_all()
        c.start("admiral")
        c.wait_serving()
        yield c
    finally:
        c.stop()


@pytest.fixture
def client(cluster: Cluster) -> Iterator[Client]:
    c = Client(cluster)
    yield c
    c.close()


def seats(client: Client, campaign: str) -> bots_pb2.BotSeats:
    stub = bots_pb2_grpc.BotAdmiralsStub(client.orders_ch)
    req = bots_pb2.GetBotSeatsRequest(campaign_id=campaign)
    return stub.GetBotSeats(req, metadata=client.admin_md, timeout=10)  # type: ignore[no-any-return]


def wait_played(client: Client, campaign: str, turn: int, player: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while (turn, player) not in {(t.turn, t.player_id) for t in seats(client, campaign).bot_turns}:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the bot did not play {player} in turn {turn}")
        time.sleep(0.3)


def my_desk(client: Client, campaign: str, player: str) -> desk_pb2.MyCampaign:
    stub = desk_pb2_grpc.PlayerDeskStub(client.orders_ch)
    req = desk_pb2.GetMyCampaignRequest(campaign_id=campaign)
    return stub.GetMyCampaign(req, metadata=client.player_md(campaign, player), timeout=30)  # type: ignore[no-any-return]


def sources(client: Client, campaign: str, turn: int, player: str) -> dict[str, str]:
    req = orders_pb2.GetEffectiveOrdersRequest(campaign_id=campaign, turn=turn)
    got = client.desk.GetEffectiveOrders(req, metadata=client.player_md(campaign, player), timeout=30)
    return {e.order.ship_id: e.source for e in got.orders}


def test_civil_disorder_a_missed_deadline_the_bot_plays_and_the_player_comes_back(client: Client) -> None:
    campaign = "e2e-bots"
    client.create(campaign)
    client.wait_open(campaign, 1)
    bots = bots_pb2_grpc.BotAdmiralsStub(client.orders_ch)
    rule = bots_pb2.SetCivilDisorderRequest(campaign_id=campaign, after_missed=1)
    assert bots.SetCivilDisorder(rule, metadata=client.admin_md, timeout=10).civil_disorder_after == 1

    # Turn 1: Ganteaume sends orders, Cornwallis none: his deadline is missed.
    french = [common_pb2.ShipOrder(ship_id="FR1FL")]
    assert client.submit(campaign, 1, "ganteaume", french).accepted == 1
    client.close_turn(campaign, 1)
    after_one = seats(client, campaign)
    held = {s.player_id: s for s in after_one.seats}
    assert held["cornwallis"].reason == "civil_disorder" and held["cornwallis"].since_turn == 2
    assert "ganteaume" not in held and after_one.missed["cornwallis"] == 1

    # Turn 2: the bot plays him; his ships carry out its orders as his own (4.1).
    client.wait_open(campaign, 2)
    wait_played(client, campaign, 2, "cornwallis")
    assert "commander" in sources(client, campaign, 2, "cornwallis").values()
    desk = my_desk(client, campaign, "cornwallis")  # what his desk page shows
    assert desk.played_by_bot == "civil_disorder" and desk.bot_orders_this_turn
    gm = my_desk(client, campaign, "admin")  # and the game master's
    assert "cornwallis" in {s.player_id for s in gm.bot_seats}

    # He sends orders again: from the next turn he plays himself.
    mine = [common_pb2.ShipOrder(ship_id="BR1FL")]
    assert client.submit(campaign, 2, "cornwallis", mine).accepted == 1
    wait_played(client, campaign, 2, "barham")
    client.close_turn(campaign, 2)
    after_two = seats(client, campaign)
    assert "cornwallis" not in {s.player_id for s in after_two.seats}
    # the bot's orders are not the player's own: Barham, played by the bot, is still absent
    assert "barham" in {s.player_id for s in after_two.seats} and after_two.missed["barham"] == 2
    client.wait_open(campaign, 3)
    # his reports say which turn the bot played for him (text and HTML)
    note = "Your orders of turn 2 were written for you by the bot admiral"
    assert client.report(campaign, 2, "cornwallis", "text").body.startswith(note)
    assert 'id="bot-admiral"' in client.report(campaign, 2, "cornwallis", "html").body
    assert "bot admiral" not in client.report(campaign, 1, "cornwallis", "text").body
    time.sleep(3)  # several sweeps of the admiral
    assert (3, "cornwallis") not in {(t.turn, t.player_id) for t in seats(client, campaign).bot_turns}


def test_the_game_master_hands_a_player_to_the_bot_and_takes_him_back(
    client: Client, cluster: Cluster, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = "e2e-bots-gm"
    client.create(campaign)
    client.wait_open(campaign, 1)
    bots = bots_pb2_grpc.BotAdmiralsStub(client.orders_ch)
    seat = bots_pb2.BotSeatRequest(campaign_id=campaign, player_id="ganteaume")
    with pytest.raises(grpc.RpcError) as refused:
        bots.BotLogin(seat, metadata=client.admin_md, timeout=10)  # the bot does not hold him
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as denied:
        bots.HandToBot(seat, metadata=client.player_md(campaign, "ganteaume"), timeout=10)
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED

    monkeypatch.setenv("PATE_ORDERS_ADDR", cluster.orders_addr)
    monkeypatch.setenv("PATE_ADMIN_TOKEN", cluster.admin_token)
    assert pate(["campaign", "hand-to-bot", campaign, "ganteaume"]) == 0  # the game master's command
    assert '"reason": "game_master"' in capsys.readouterr().out
    wait_played(client, campaign, 1, "ganteaume")  # the open turn, at once
    assert "commander" in sources(client, campaign, 1, "ganteaume").values()
    assert pate(["campaign", "take-back", campaign, "ganteaume"]) == 0
    assert not bots.GetBotSeats(
        bots_pb2.GetBotSeatsRequest(campaign_id=campaign), metadata=client.admin_md, timeout=10
    ).seats


def test_a_solo_campaign_closes_each_turn_as_soon_as_the_bots_have_played(client: Client) -> None:
    """Every seat a bot (no human to wait for): each turn closes as soon as
    the admiral has played its seats, with no deadline and no game master."""
    campaign = "e2e-bots-solo"
    client.create(campaign)
    client.wait_open(campaign, 1)
    bots = bots_pb2_grpc.BotAdmiralsStub(client.orders_ch)
    solo = bots.MakeSolo(bots_pb2.MakeSoloRequest(campaign_id=campaign), metadata=client.admin_md, timeout=10)
    assert solo.solo and {s.player_id for s in solo.seats} >= {"cornwallis", "ganteaume", "barham"}
    _past(client, campaign, 3)  # the bots may play the whole campaign before we look
    played = {(t.turn, t.player_id) for t in seats(client, campaign).bot_turns}
    assert {(1, "cornwallis"), (2, "ganteaume")} <= played


def _past(client: Client, campaign: str, turn: int, timeout: float = 180) -> None:
    """Until the campaign has reached ``turn`` (open, later, or finished): a solo campaign of
    bots alone closes each turn as soon as they have played, so it may run past any one turn
    between two looks."""
    deadline = time.monotonic() + timeout
    while client.campaign(campaign).turn < turn:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{campaign}: turn {turn} not reached")
        time.sleep(0.2)
