"""Fuzzing the order desk through its real gRPC server and database.

Every malformed, out-of-range, contradictory or hostile request gets
INVALID_ARGUMENT, PERMISSION_DENIED, UNAUTHENTICATED, FAILED_PRECONDITION or
NOT_FOUND with a message, never an internal error, and a refused request
stores no order.
"""

from __future__ import annotations

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from pate.v1 import common_pb2, orders_pb2
from services.platform.store import tables
from services.platform.store.db import make_engine
from tests.e2e.flow import Client

pytestmark = pytest.mark.integration

CAMPAIGN = "fuzz"
ALLOWED = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.RESOURCE_EXHAUSTED,  # too many wrong passwords for one player: wait
}
SHIPS = ["BR1FL", "BR1SL", "BR2SL", "BR1FR", "FR1FL", "BR2FL", "XX9FL", "", "br1fl", "BR0FL"]
WORDS = [
    "engage",
    "accept",
    "evade",
    "run_past",
    "pursue",
    "range",
    "close",
    "line_ahead",
    "break",
    "hull",
    "rigging",
    "harbor",
    "sea",
    "raid",
    "convoy",
    "ignore",
    "windward",
    "leeward",
    "",
    "x" * 300,
]
AREAS = ["ECH", "NOS", "BIS", "WAP", "IBC", "SOC", "XYZ", "", "ech"]
PORTS = ["Brest", "Plymouth", "Portsmouth", "Gibraltar", "Atlantis", "", "brest"]
int32 = st.integers(-(2**31), 2**31 - 1)
text = st.text(max_size=40)


@pytest.fixture(scope="module")
def desk(desk_cluster: tuple[Client, str]) -> tuple[Client, str]:
    client, url = desk_cluster
    client.create(CAMPAIGN)
    client.wait_open(CAMPAIGN, 1)
    return client, url


ship_orders = st.builds(
    common_pb2.ShipOrder,
    ship_id=st.sampled_from(SHIPS) | text,
    attach_to=st.sampled_from(SHIPS) | text,
    detach=st.booleans(),
    movement=st.builds(
        common_pb2.Movement,
        sea_areas=st.lists(st.sampled_from(AREAS) | text, max_size=4),
        port=st.sampled_from(PORTS) | text,
        any_enemy_port=st.booleans(),
        harbor=st.booleans(),
        sail_alone=st.booleans(),
    ),
    contact=st.builds(
        common_pb2.Contact,
        mode=st.sampled_from(WORDS),
        minimum=int32,
        maximum=int32,
        join_allies=st.booleans(),
        gauge=st.sampled_from(WORDS),
    ),
    combat=st.builds(
        common_pb2.Combat,
        stance=st.sampled_from(WORDS),
        range=st.sampled_from(WORDS),
        line=st.sampled_from(WORDS),
        aim=st.sampled_from(WORDS),
        flee_to=st.sampled_from(WORDS),
    ),
    commerce=st.sampled_from(WORDS),
    stores=int32,
    amphibious=st.builds(
        common_pb2.Amphibious,
        load_units=st.lists(text, max_size=2),
        unload_units=st.lists(text, max_size=2),
        load_supplies=int32,
        unload_supplies=int32,
    ),
    admin=st.lists(
        st.builds(
            common_pb2.AdminOrder,
            kind=st.sampled_from(
                ["inactivate", "reactivate", "transfer_crew", "divide", "combine", "scuttle", "", "x"]
            ),
            target=st.sampled_from(SHIPS),
            amount=int32,
        ),
        max_size=2,
    ),
)
requests = st.builds(
    orders_pb2.SubmitOrdersRequest,
    campaign_id=st.sampled_from([CAMPAIGN, "nope", ""]),
    turn=st.sampled_from([1, 0, 2, -1]),
    client_request_id=st.uuids().map(str) | text,
    orders=st.lists(ship_orders, max_size=3),
    orders_text=st.sampled_from(
        ["", "order BR1FL\n  combat engage\n", "order BR1FL\n  move\n", "garbage ]]"]
    ),
)
# (player, how): a session token of the player, a wrong password, a garbled token, nothing
credentials = st.sampled_from(
    [
        ("cornwallis", "token"),
        ("ganteaume", "token"),
        ("barham", "wrong"),
        ("", ""),
        ("nobody", "x"),
        ("cornwallis", "garbled"),
    ]
)


def _metadata(client: Client, who: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    player, how = who
    if how == "token":
        return client.player_md(CAMPAIGN, player)
    if how == "garbled":
        return (("authorization", "Bearer " + "x" * 43),)
    return (("x-pate-player", player), ("x-pate-password", how))


def _stored(url: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(select(func.count()).select_from(tables.metadata.tables["orders"])).scalar_one()
            )
    finally:
        engine.dispose()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(request=requests, who=credentials)
def test_any_request_gets_a_clear_answer_and_a_refusal_stores_nothing(
    desk: tuple[Client, str], request: orders_pb2.SubmitOrdersRequest, who: tuple[str, str]
) -> None:
    client, url = desk
    before = _stored(url)
    md = _metadata(client, who)
    try:
        response = client.desk.SubmitOrders(request, metadata=md, timeout=30)
        code = grpc.StatusCode.OK
    except grpc.RpcError as err:
        code = err.code()
        assert code in ALLOWED, f"{code}: {err.details()}"
        assert err.details(), "a refusal says why"
        assert _stored(url) == before
        return
    assert code == grpc.StatusCode.OK
    if not response.replayed:
        assert _stored(url) == before + response.accepted
