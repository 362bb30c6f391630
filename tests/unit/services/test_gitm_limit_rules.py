"""gitm.v1's limits are land.proto's ``buf.validate`` rules (docs/gitm.md "Limits"): every field
carries one, and the reference service checks each request against them before any work,
answering INVALID_ARGUMENT whose BadRequest names each field at fault by its path, once, without
quoting the value."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor

from gitm.v1 import land_pb2
from pate.gitmkit.land import Land
from pate.gitmkit.limits import rules
from pate.gitmkit.status_details import details_of
from services.gitm_reference.inprocess import InProcessStub, memory_store


def _refused(call: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    return err.value


def test_every_field_of_the_contract_has_a_rule() -> None:
    """A yes-or-no field has nothing to limit; every other one names its limit in the proto."""
    bare = [
        f"{m.name}.{f.name}"
        for m in land_pb2.DESCRIPTOR.message_types_by_name.values()
        for f in m.fields
        if f.type != FieldDescriptor.TYPE_BOOL and not rules(getattr(land_pb2, m.name), f.name).ListFields()
    ]
    assert bare == []


def test_a_bad_begin_names_each_field_at_fault_once_and_changes_nothing() -> None:
    stub = InProcessStub(memory_store())
    land = Land(stub, "limits", "Portsmouth")
    stub.OpenCampaign(land.open_request())
    secret = "hunter2-" * 40
    bad = land_pb2.BeginTransferRequest(
        transfer_id=secret,
        campaign_id="limits",
        port="Portsmouth",
        transport_id="BR1TR",
        direction=land_pb2.DIRECTION_LOAD,
        units=["BR1IN", "", "BR 2IN"],
        supplies=-1,
        state="br",
    )
    exc = _refused(lambda: stub.BeginTransfer(bad))
    named = [f for f, _ in details_of(exc).fields]
    assert named == ["transfer_id", "units[1]", "units[2]", "supplies", "state"]
    assert "hunter2" not in exc.details() and all("hunter2" not in d for _, d in details_of(exc).fields)
    snapshot = stub.GetLandSnapshot(land_pb2.GetLandSnapshotRequest(campaign_id="limits"))
    assert not snapshot.transfers and not any(u.unit.reserved for u in snapshot.units)


def test_nested_limits_are_named_by_their_path() -> None:
    stub = InProcessStub(memory_store())
    land = Land(stub, "paths", "Portsmouth")
    stub.OpenCampaign(land.open_request())
    ship = land_pb2.SightedShip(id="FR1SL", state="FR", type="XX")
    report = land_pb2.ReportSightingsRequest(
        report_id="paths:1:sightings",
        campaign_id="paths",
        turn=1,
        sightings=[
            land_pb2.ShoreSighting(port="Portsmouth", for_state="BR"),
            land_pb2.ShoreSighting(port="Portsmouth", for_state="BR", ships=[ship]),
        ],
    )
    exc = _refused(lambda: stub.ReportSightings(report))
    assert [f for f, _ in details_of(exc).fields] == ["sightings[1].ships[0].type"]
    move = land_pb2.CargoMove(from_transport="BR1TR", to_transport="BR2TR", units=["x" * 65])
    moves = land_pb2.ReportCargoMovesRequest(move_id="paths:1:cargo-moves", campaign_id="paths", moves=[move])
    exc = _refused(lambda: stub.ReportCargoMoves(moves))
    assert [f for f, _ in details_of(exc).fields] == ["moves[0].units[0]"]


def test_a_field_that_may_be_empty_is_accepted_empty() -> None:
    """An older PATE's empty campaign_id (docs/gitm.md "Ids", P7) and a begin without a hold."""
    stub = InProcessStub(memory_store())
    land = Land(stub, "empty", "Portsmouth")
    stub.OpenCampaign(land.open_request())
    with pytest.raises(grpc.RpcError) as err:
        stub.GetTransfer(land_pb2.GetTransferRequest(transfer_id="never", campaign_id=""))
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
