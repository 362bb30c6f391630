"""The reference land service's errors carry their ``google.rpc.Status`` (docs/gitm.md "Status
codes", edition 4), read here over gRPC with grpcio-status itself: a ``BadRequest`` naming the
field as the request has it, an ``ErrorInfo`` with the table's reason, a ``RetryInfo`` for an
outage, and a fault of its own answered INTERNAL without its text or stack; every refusal carries
its code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gitm.v1 import land_pb2, land_pb2_grpc
from pate.gitmkit.status_details import DOMAIN, REASONS, details_of
from tests.support.gitm_reference import land_channel, reference_gitm


def _fails(call: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value


def _info(exc: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    status = rpc_status.from_call(exc)
    assert status is not None and status.code == exc.code().value[0]
    info = error_details_pb2.ErrorInfo()
    assert any(d.Unpack(info) for d in status.details), status
    return info


def test_errors_carry_field_violations_and_reasons(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref, land_channel(ref.addr) as ch:
        stub = land_pb2_grpc.LandBridgeStub(ch)
        move = land_pb2.CargoMove(from_transport="BR1TR", to_transport="BR1TR")
        moves = land_pb2.ReportCargoMovesRequest(move_id="m", campaign_id="c", moves=[move, move])
        bad = _fails(lambda: stub.ReportCargoMoves(moves, timeout=5))
        status = rpc_status.from_call(bad)
        assert status is not None
        request = error_details_pb2.BadRequest()
        assert any(d.Unpack(request) for d in status.details)
        assert [v.field for v in request.field_violations] == ["moves[0].to_transport"]
        unit = land_pb2.BeginTransferRequest(
            transfer_id="t",
            campaign_id="c",
            port="Brest",
            transport_id="FR1TR",
            direction=land_pb2.DIRECTION_LOAD,
            units=["a", ""],
        )
        assert details_of(_fails(lambda: stub.BeginTransfer(unit, timeout=5))).fields[0][0] == "units[1]"

        unknown = _fails(
            lambda: stub.GetTransfer(land_pb2.GetTransferRequest(transfer_id="never"), timeout=5)
        )
        info = _info(unknown)
        assert (info.reason, info.domain, dict(info.metadata)) == (
            "TRANSFER_NOT_FOUND",
            DOMAIN,
            {"transfer_id": "never"},
        )
        near = land_pb2.UnitsNearRequest(campaign_id="never-opened", port="Brest")
        assert _info(_fails(lambda: stub.UnitsNear(near, timeout=5))).reason == "CAMPAIGN_NOT_OPENED"
        assert REASONS[info.reason][0] == unknown.code()


def test_without_the_token_the_reason_is_caller_rejected(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref, grpc.insecure_channel(ref.addr) as ch:
        stub = land_pb2_grpc.LandBridgeStub(ch)
        denied = _fails(lambda: stub.GetCapabilities(land_pb2.GetCapabilitiesRequest(), timeout=5))
        assert denied.code() == grpc.StatusCode.UNAUTHENTICATED
        assert _info(denied).reason == "CALLER_REJECTED"


def test_an_outage_says_when_to_retry(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref, land_channel(ref.addr) as ch:
        ref.faults(down_calls=1)
        stub = land_pb2_grpc.LandBridgeStub(ch)
        down = _fails(lambda: stub.GetCapabilities(land_pb2.GetCapabilitiesRequest(), timeout=5))
        details = details_of(down)
        assert down.code() == grpc.StatusCode.UNAVAILABLE
        assert (details.reason, details.retry_after) == ("LAND_UNAVAILABLE", 0.0)


def test_a_fault_of_its_own_is_internal_without_its_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with reference_gitm(tmp_path) as ref, land_channel(ref.addr) as ch:
        assert ref.running is not None

        def broken(_r: Any) -> Any:
            raise RuntimeError("secret-table broke at line 42")

        monkeypatch.setattr(ref.running.store, "get", broken)
        stub = land_pb2_grpc.LandBridgeStub(ch)
        fault = _fails(lambda: stub.GetTransfer(land_pb2.GetTransferRequest(transfer_id="t"), timeout=5))
    assert fault.code() == grpc.StatusCode.INTERNAL
    assert "secret" not in (fault.details() or "") and "Traceback" not in (fault.details() or "")
    assert _info(fault).reason == "INTERNAL_FAULT"


def test_every_refusal_carries_its_code(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref, land_channel(ref.addr) as ch:
        stub = land_pb2_grpc.LandBridgeStub(ch)
        ref.station("c", "Brest", [], supplies=1)
        begin = land_pb2.BeginTransferRequest(
            transfer_id="t",
            campaign_id="c",
            port="Brest",
            transport_id="FR1TR",
            direction=land_pb2.DIRECTION_LOAD,
            units=["FR9IN", "FR9IN"],
            supplies=5,
            state="FR",
        )
        status = stub.BeginTransfer(begin, timeout=5)
    assert not status.accepted
    assert {(r.item, r.code) for r in status.refusals} == {
        ("FR9IN", "unknown"),
        ("units", "twice"),
        ("supplies", "supplies"),
    }
