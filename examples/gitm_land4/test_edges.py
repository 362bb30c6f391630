"""Cases of docs/gitm.md the kit does not reach: hold expiry, the close's cargo, faults, limits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from examples.gitm_land4 import contract, server
from examples.gitm_land4.store import Store
from gitm.v1 import land_pb2 as pb
from gitm.v1 import land_pb2_grpc as pb_grpc

TOKEN = "edge-token-0123456789"
CAMPAIGN = "edge-1"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def land(tmp_path: Path) -> Iterator[tuple[pb_grpc.LandBridgeStub, Clock, Store]]:
    clock = Clock()
    store = Store(tmp_path / "land.db")
    grpc_server, port = server.build("127.0.0.1:0", store, contract.load(), [TOKEN], clock=clock)
    grpc_server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    stub = pb_grpc.LandBridgeStub(channel)
    yield stub, clock, store
    channel.close()
    grpc_server.stop(None)
    store.close()


def call(method: Any, request: Message) -> Any:
    return method(request, metadata=[("x-pate-gitm-token", TOKEN)], timeout=5)


def opened(stub: pb_grpc.LandBridgeStub) -> None:
    units = [
        pb.InitialUnit(unit=pb.Unit(id="BR1IN", state="BR", tactical_square=True, infantry=900),
                       city="Portsmouth"),
        pb.InitialUnit(unit=pb.Unit(id="BR2IN", state="BR", infantry=500), transport_id="BR1TR"),
    ]  # fmt: skip
    stocks = [pb.InitialStock(city="Portsmouth", supplies=4),
              pb.InitialStock(transport_id="BR1TR", supplies=2)]  # fmt: skip
    call(stub.OpenCampaign, pb.OpenCampaignRequest(
        campaign_id=CAMPAIGN, scenario="edge", turns=3, units=units, stocks=stocks))  # fmt: skip


def error_of(exc: grpc.RpcError) -> tuple[grpc.StatusCode, str]:
    status = rpc_status.from_call(exc)
    assert status is not None
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return exc.code(), info.reason
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            return exc.code(), bad.field_violations[0].field
    raise AssertionError("no details")


def load(tid: str, hold_id: str = "") -> pb.BeginTransferRequest:
    return pb.BeginTransferRequest(
        transfer_id=tid, campaign_id=CAMPAIGN, turn=1, port="Portsmouth",
        transport_id="BR1TR", direction=pb.DIRECTION_LOAD, units=["BR1IN"], state="BR",
        hold_id=hold_id,
    )  # fmt: skip


def test_a_hold_expires_after_its_ten_minutes(land) -> None:  # type: ignore[no-untyped-def]
    stub, clock, _ = land
    opened(stub)
    near = call(stub.UnitsNear, pb.UnitsNearRequest(
        campaign_id=CAMPAIGN, turn=1, port="Portsmouth", hold=True,
        hold_request_id=f"{CAMPAIGN}:1:Portsmouth:hold"))  # fmt: skip
    assert near.hold_expires_at == int(clock.now) + 600
    clock.now += 601
    refused = call(stub.BeginTransfer, load("edge-1:1:BR1TR:1", near.hold_id))
    assert refused.state == pb.TRANSFER_STATE_REFUSED
    assert refused.refusals[0].item == "hold"
    assert refused.refusals[0].reason.startswith("hold_expired")
    released = call(stub.ReleaseHold, pb.ReleaseHoldRequest(
        campaign_id=CAMPAIGN, hold_id=near.hold_id))  # fmt: skip
    assert released.state == "expired"


def test_the_close_lands_the_cargo_of_a_transport_in_an_on_map_port(land) -> None:  # type: ignore[no-untyped-def]
    stub, _, _ = land
    opened(stub)
    laden = [pb.LadenTransport(transport_id="BR1TR", city="Portsmouth", units=["BR2IN", "XX9IN"],
                               supplies=5)]  # fmt: skip
    closed = call(stub.CloseCampaign, pb.CloseCampaignRequest(
        campaign_id=CAMPAIGN, last_turn=3, laden=laden))  # fmt: skip
    assert closed.cancelled_transfers == 0
    near = call(stub.UnitsNear, pb.UnitsNearRequest(campaign_id=CAMPAIGN, turn=3, port="Portsmouth"))
    assert {u.id for u in near.units if u.tactical_square} == {"BR1IN", "BR2IN"}
    assert near.supplies == 6  # the 2 aboard, never the 5 named


def test_a_fault_of_its_own_is_internal_without_its_text(land) -> None:  # type: ignore[no-untyped-def]
    stub, _, store = land
    opened(stub)
    store.run("DROP TABLE transfers")
    with pytest.raises(grpc.RpcError) as caught:
        call(stub.BeginTransfer, load("edge-1:1:BR1TR:1"))
    assert error_of(caught.value) == (grpc.StatusCode.INTERNAL, "INTERNAL_FAULT")
    assert "transfers" not in (caught.value.details() or "")


def test_sightings_beyond_the_limits_name_their_field(land) -> None:  # type: ignore[no-untyped-def]
    stub, _, _ = land
    opened(stub)
    ships = [pb.SightedShip(id=f"S{i}", state="FR", type="FL") for i in range(101)]
    report = pb.ReportSightingsRequest(
        report_id=f"{CAMPAIGN}:1:sightings", campaign_id=CAMPAIGN, turn=1,
        sightings=[pb.ShoreSighting(port="Portsmouth", for_state="BR", ships=ships)],
    )  # fmt: skip
    with pytest.raises(grpc.RpcError) as caught:
        call(stub.ReportSightings, report)
    assert error_of(caught.value) == (grpc.StatusCode.INVALID_ARGUMENT, "sightings[0].ships")


def test_entries_of_one_port_and_state_are_one_list(land) -> None:  # type: ignore[no-untyped-def]
    stub, _, _ = land
    opened(stub)
    entry = pb.ShoreSighting(port="Portsmouth", for_state="BR", ships=[pb.SightedShip(id="F1")])
    report = pb.ReportSightingsRequest(
        report_id=f"{CAMPAIGN}:1:sightings", campaign_id=CAMPAIGN, turn=1,
        sightings=[entry, entry], next_close_unix=5,
    )  # fmt: skip
    assert call(stub.ReportSightings, report).sightings == 1
    report.next_close_unix = 9  # a moved deadline is the same report (A1)
    assert call(stub.ReportSightings, report).duplicate


def test_a_malformed_begin_of_a_campaign_never_opened_is_invalid(land) -> None:  # type: ignore[no-untyped-def]
    stub, _, _ = land
    bad = load("edge-1:1:BR1TR:1")
    bad.units[:] = ["x" * 300]
    with pytest.raises(grpc.RpcError) as caught:
        call(stub.BeginTransfer, bad)
    assert error_of(caught.value) == (grpc.StatusCode.INVALID_ARGUMENT, "units[0]")
