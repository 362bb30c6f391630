"""An absence through the real services and the admiral (docs/bots.md "Absence"): Cornwallis
declares turn 2 an absence and leaves standing instructions with the command line; at the
opening of turn 2 the bot plays his seat (reason "absent") and his instruction is honoured (his
ships sail for Portsmouth, where the bot left alone would not send them); the absence ends and
from turn 3 he plays himself; the absent turn is no deadline missed, under a civil-disorder
rule of one deadline that puts the others who sent nothing in civil disorder."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pate.admiral.decide import decide
from pate.cli import tokens
from pate.cli.main import main as pate
from pate.core.orders.model import ShipOrder
from pate.engine.bots import DEFAULT_LEVEL, load_levels
from pate.engine.context import turn_context
from pate.v1 import bots_pb2, bots_pb2_grpc, common_pb2, orders_pb2
from services.platform.runtime.cluster import Cluster
from tests.e2e.flow import Client
from tests.e2e.test_bot_admiral import my_desk, seats, wait_played

pytestmark = pytest.mark.e2e
CAMPAIGN = "e2e-away"


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


def _effective(client: Client, turn: int, player: str) -> dict[str, orders_pb2.EffectiveOrder]:
    req = orders_pb2.GetEffectiveOrdersRequest(campaign_id=CAMPAIGN, turn=turn)
    got = client.desk.GetEffectiveOrders(req, metadata=client.player_md(CAMPAIGN, player), timeout=30)
    return {e.order.ship_id: e for e in got.orders}


def _bot_alone(client: Client) -> dict[str, ShipOrder]:
    """What the bot orders for Cornwallis in turn 2 from his report of turn 1, without his
    instructions (the level and seed the admiral service plays with)."""
    report = json.loads(client.report(CAMPAIGN, 1, "cornwallis", "json").body)
    ctx = turn_context()
    c = client.campaign(CAMPAIGN)
    d = decide(report, ctx.map, ctx.rules, load_levels()[DEFAULT_LEVEL], c.seed)
    return {o.ship_id: o for o in d.orders}


def _cli_session(client: Client, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cluster: Cluster) -> None:
    """Cornwallis's session where ``pate login`` keeps it, for the player's commands."""
    monkeypatch.setenv("PATE_TOKEN_FILE", str(tmp_path / "sessions.json"))
    monkeypatch.setenv("PATE_ORDERS_ADDR", cluster.orders_addr)
    monkeypatch.setenv("PATE_ADMIN_TOKEN", cluster.admin_token)
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    tokens.remember(tokens.StoredSession(CAMPAIGN, "cornwallis", client.token(CAMPAIGN, "cornwallis"), later))


def _he_declares_with_the_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The game master's allowance, his absence (declared, over-asked, cancelled in part) and
    his standing instruction, all with the command line."""
    assert pate(["absence", "allowance", CAMPAIGN, "4"]) == 0  # the game master's
    assert "each player may be away 4 turns" in capsys.readouterr().out
    assert pate(["absence", "declare", "--campaign", CAMPAIGN, "2", "2"]) == 0
    assert "away: turns 2 to 2" in capsys.readouterr().out
    assert pate(["absence", "declare", "--campaign", CAMPAIGN, "4", "6"]) == 0
    assert "allowance: 4 of 4 turns used" in capsys.readouterr().out
    assert pate(["absence", "cancel", "--campaign", CAMPAIGN, "4"]) == 0  # thought better of it
    assert "allowance: 1 of 4 turns used" in capsys.readouterr().out
    assert pate(["absence", "declare", "--campaign", CAMPAIGN, "3", "7"]) == 2  # 5 turns, 3 left
    assert "FAILED_PRECONDITION: to_turn: 5 turns asked, 3 left" in capsys.readouterr().err
    orders_file = tmp_path / "standing.txt"
    orders_file.write_text("# while I am away\nreturn Portsmouth for all\n")
    assert pate(["standing", "set", "--campaign", CAMPAIGN, str(orders_file)]) == 0
    assert "1 standing instructions kept" in capsys.readouterr().out
    assert pate(["standing", "show", "--campaign", CAMPAIGN]) == 0
    assert "return Portsmouth for all" in capsys.readouterr().out


def test_an_absent_turn_is_played_by_the_bot_with_his_instructions_and_he_comes_back(
    client: Client,
    cluster: Cluster,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    client.create(CAMPAIGN)
    client.wait_open(CAMPAIGN, 1)
    _cli_session(client, monkeypatch, tmp_path, cluster)
    _he_declares_with_the_cli(capsys, tmp_path)

    # Turn 1: he plays himself.
    assert client.submit(CAMPAIGN, 1, "cornwallis", [common_pb2.ShipOrder(ship_id="BR1FL")]).accepted == 1
    client.close_turn(CAMPAIGN, 1)

    # Turn 2: the bot holds him for his absence and follows his instruction.  The rule of one
    # deadline is set now, so that no other seat is the bot's in this turn (his naval minister's
    # orders for his ships would replace his own, rule 4.1).
    client.wait_open(CAMPAIGN, 2)
    bots = bots_pb2_grpc.BotAdmiralsStub(client.orders_ch)
    rule = bots_pb2.SetCivilDisorderRequest(campaign_id=CAMPAIGN, after_missed=1)
    bots.SetCivilDisorder(rule, metadata=client.admin_md, timeout=10)
    held = {s.player_id: s for s in seats(client, CAMPAIGN).seats}
    assert held["cornwallis"].reason == "absent" and held["cornwallis"].since_turn == 2
    wait_played(client, CAMPAIGN, 2, "cornwallis")
    effective = _effective(client, 2, "cornwallis")
    leads = [e for e in effective.values() if not e.order.attach_to and e.source == "commander"]
    assert leads and all(e.order.movement.port == "Portsmouth" for e in leads)
    alone = _bot_alone(client)  # the same report, no instruction: the bot would not go there
    assert all(alone[e.order.ship_id].movement.port != "Portsmouth" for e in leads)
    assert my_desk(client, CAMPAIGN, "cornwallis").played_by_bot == "absent"
    assert pate(["absence", "show", "--campaign", CAMPAIGN]) == 0
    assert "the bot admiral plays your seat this turn" in capsys.readouterr().out
    # an order he sends himself in his absence replaces the bot's (4.1: the same voice, later)
    assert client.submit(CAMPAIGN, 2, "cornwallis", [common_pb2.ShipOrder(ship_id="BR1FR")]).accepted == 1
    assert _effective(client, 2, "cornwallis")["BR1FR"].order.movement.port == ""
    assert _effective(client, 2, "cornwallis")["BR1FL"].order.movement.port == "Portsmouth"
    client.close_turn(CAMPAIGN, 2)
    after = {s.player_id: s.reason for s in seats(client, CAMPAIGN).seats}
    assert seats(client, CAMPAIGN).missed.get("cornwallis", 0) == 0  # the absent turn: none missed
    assert after.get("calder") == "civil_disorder"  # two deadlines missed: the rule works

    # Turn 3: back; he plays himself and the bot leaves his seat alone.
    client.wait_open(CAMPAIGN, 3)
    assert "cornwallis" not in {s.player_id for s in seats(client, CAMPAIGN).seats}
    assert my_desk(client, CAMPAIGN, "cornwallis").played_by_bot == ""
    assert client.submit(CAMPAIGN, 3, "cornwallis", [common_pb2.ShipOrder(ship_id="BR1FR")]).accepted == 1
    time.sleep(3)  # several sweeps of the admiral
    assert (3, "cornwallis") not in {(t.turn, t.player_id) for t in seats(client, CAMPAIGN).bot_turns}
