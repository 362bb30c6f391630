"""Client request ids belong to the player who sent them.

A retry by the same player is answered as the first time; the same id sent by
another player is a new request of that player, checked for authority like any
other, and never replays someone else's answer.
"""

from __future__ import annotations

import grpc
import pytest

from tests.e2e.flow import Client
from tests.e2e.test_turn_flow import battle_orders

pytestmark = pytest.mark.integration

CAMPAIGN = "rids"


@pytest.fixture(scope="module")
def desk(desk_cluster: tuple[Client, str]) -> Client:
    client, _url = desk_cluster
    client.create(CAMPAIGN)
    client.wait_open(CAMPAIGN, 1)
    return client


def test_another_players_resent_request_id_gets_no_replay(desk: Client) -> None:
    british, french = battle_orders()
    first = desk.submit(CAMPAIGN, 1, "cornwallis", british, request_id="shared-id")
    assert first.accepted == 1 and not first.replayed
    again = desk.submit(CAMPAIGN, 1, "cornwallis", british, request_id="shared-id")
    assert again.replayed and list(again.ship_ids) == ["BR1FL"]

    # The French commander resends the very same request: it is his own, and BR1FL is not his.
    with pytest.raises(grpc.RpcError) as refused:
        desk.submit(CAMPAIGN, 1, "ganteaume", british, request_id="shared-id")
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "BR1FL" in (refused.value.details() or "")

    # The same id for his own ships is simply his first request under that id.
    own = desk.submit(CAMPAIGN, 1, "ganteaume", french, request_id="shared-id")
    assert own.accepted == 1 and not own.replayed and list(own.ship_ids) == ["FR1FL"]


def test_a_burst_of_the_same_request_is_stored_once(desk: Client) -> None:
    """The hot path stores copies that race in one group once: one is
    accepted, every other copy is answered as its replay."""
    from concurrent.futures import ThreadPoolExecutor

    british, _ = battle_orders()
    desk.submit(CAMPAIGN, 1, "cornwallis", british, request_id="warm-up")  # the session, turn and world known
    with ThreadPoolExecutor(8) as pool:
        answers = list(
            pool.map(lambda _: desk.submit(CAMPAIGN, 1, "cornwallis", british, request_id="burst"), range(16))
        )
    assert sorted(a.replayed for a in answers) == [False] + [True] * 15
    assert all(list(a.ship_ids) == ["BR1FL"] for a in answers)


def test_each_call_logs_one_line_saying_what_it_did(desk: Client) -> None:
    import json

    british, _ = battle_orders()
    desk.submit(CAMPAIGN, 1, "cornwallis", british, request_id="logged")
    log = desk.cluster.workdir / "logs" / "orders.log"
    lines = [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]
    calls = [
        x
        for x in lines
        if x["event"] == "grpc.call"
        and x["method"] == "/pate.v1.OrderDesk/SubmitOrders"
        and x.get("campaign") == CAMPAIGN
    ]
    assert calls and {(c["player"], c["ships"], c["status"]) for c in calls} >= {("cornwallis", 1, "OK")}
    assert not any(x["event"] == "orders_accepted" for x in lines)  # no second line per submission
