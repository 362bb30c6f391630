"""Two levers of the reference land service's administration (ReferenceAdmin.SetFaults) that the
end-to-end divergence tests need: named LandBridge calls answered UNAVAILABLE with nothing done
(a land service stuck between a begin and its completion), and the holds' clock run ahead (a
hold's ten minutes passed at once). Bad values are refused naming the field."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from gitm.v1 import land_pb2, land_pb2_grpc, reference_admin_pb2
from services.gitm_reference.faults import FaultError, Faults
from services.gitm_reference.holds import HOLD_SECONDS
from tests.support.gitm_reference import land_channel, reference_gitm

CAMPAIGN, PORT = "levers", "Portsmouth"


def _near(stub: land_pb2_grpc.LandBridgeStub) -> land_pb2.UnitsNearResponse:
    r = land_pb2.UnitsNearRequest(
        campaign_id=CAMPAIGN, turn=1, port=PORT, hold=True, hold_request_id=f"{CAMPAIGN}:1:{PORT}:hold"
    )
    return stub.UnitsNear(r, timeout=10)  # type: ignore[no-any-return]


def _begin(stub: land_pb2_grpc.LandBridgeStub, hold: str) -> land_pb2.TransferStatus:
    r = land_pb2.BeginTransferRequest(
        transfer_id=f"{CAMPAIGN}:1:BR1TR:1", campaign_id=CAMPAIGN, turn=1, port=PORT,
        transport_id="BR1TR", direction=land_pb2.DIRECTION_LOAD, units=["BR5IN"], state="BR", hold_id=hold,
    )  # fmt: skip
    return stub.BeginTransfer(r, timeout=10)  # type: ignore[no-any-return]


def test_named_calls_answer_unavailable_doing_nothing_and_the_others_still_answer(tmp_path: Path) -> None:
    with reference_gitm(tmp_path, scenario="training") as ref, land_channel(ref.addr) as ch:
        stub = land_pb2_grpc.LandBridgeStub(ch)
        ref.faults(unavailable_calls="BeginTransfer+CompleteTransfer")
        hold = _near(stub).hold_id  # not named: answered
        with pytest.raises(grpc.RpcError) as stuck:
            _begin(stub, hold)
        assert stuck.value.code() == grpc.StatusCode.UNAVAILABLE
        assert "unavailable_calls" in (stuck.value.details() or "")
        assert ref.places(CAMPAIGN)["BR5IN"] == f"city:{PORT}"  # nothing was reserved
        assert not [u for u in ref.snapshot(CAMPAIGN).units if u.reserved_by]
        ref.faults()
        assert _begin(stub, hold).accepted


def test_the_clock_run_ahead_ends_a_hold_and_lets_the_land_game_act(tmp_path: Path) -> None:
    with reference_gitm(tmp_path, scenario="training") as ref, land_channel(ref.addr) as ch:
        stub = land_pb2_grpc.LandBridgeStub(ch)
        hold = _near(stub).hold_id
        event = reference_admin_pb2.InjectLandEventRequest(
            campaign_id=CAMPAIGN,
            event=land_pb2.LandEvent(kind=land_pb2.LAND_EVENT_UNIT_DESTROYED, unit_id="BR5IN"),
        )
        with pytest.raises(grpc.RpcError) as held:
            ref.admin.InjectLandEvent(event, timeout=10)
        assert held.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        ref.faults(clock_ahead_seconds=HOLD_SECONDS + 1)
        refused = _begin(stub, hold)
        assert not refused.accepted and refused.refusals[0].reason.startswith("hold_expired")
        assert ref.admin.InjectLandEvent(event, timeout=10).sequence == 1


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("unavailable_calls=Nothing", "unavailable_calls"),
        ("unavailable_calls=Station", "unavailable_calls"),
        ("clock_ahead_seconds=-1", "clock_ahead_seconds"),
        ("clock_ahead_seconds=100000", "clock_ahead_seconds"),
    ],
)
def test_bad_levers_are_refused_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(FaultError, match=field):
        Faults.parse(text)


def test_a_bad_lever_over_the_admin_call_is_invalid_argument(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref:
        with pytest.raises(grpc.RpcError) as bad:
            ref.faults(unavailable_calls="x" * 500)
        assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "unavailable_calls" in (bad.value.details() or "")
        assert Faults.parse("unavailable_calls=CompleteTransfer+ReleaseHold").stalled() == {
            "CompleteTransfer",
            "ReleaseHold",
        }
