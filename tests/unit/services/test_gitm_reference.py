"""The reference GITM land service (services/gitm_reference): hostile input is INVALID_ARGUMENT
naming the field, an id reused with other content is ALREADY_EXISTS, faults come from
PATE_GITM_FAULTS, gRPC health answers SERVING, and loading moves supplies exactly once."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gitm.v1 import land_pb2, land_pb2_grpc
from pate.datafiles import load_scenario, load_world_map
from services.gitm_reference.faults import FaultError, Faults
from tests.cases.turn.turn_world import infantry
from tests.support.gitm_reference import LAND_TOKEN, Reference, land_channel, reference_gitm

LOAD = land_pb2.DIRECTION_LOAD


def _begin(**kw: object) -> land_pb2.BeginTransferRequest:
    base: dict[str, object] = dict(
        transfer_id="t1",
        campaign_id="c",
        turn=1,
        port="Brest",
        transport_id="FR1TR",
        direction=LOAD,
        units=["FR1IN"],
    )
    return land_pb2.BeginTransferRequest(**{**base, **kw})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"transfer_id": ""}, "transfer_id"),
        ({"transfer_id": "x" * 300}, "transfer_id"),
        ({"direction": 0}, "direction"),
        ({"units": [], "supplies": 0}, "at least one"),
        ({"supplies": -1}, "supplies"),
        ({"units": ["u"] * 501}, "units"),
        ({"hold_id": "x" * 300}, "hold_id"),
    ],
)
def test_hostile_input_is_invalid_argument_naming_the_field(
    tmp_path: Path, kw: dict[str, object], field: str
) -> None:
    with (
        reference_gitm(tmp_path) as ref,
        land_channel(ref.addr) as ch,
        pytest.raises(grpc.RpcError) as err,
    ):
        land_pb2_grpc.LandBridgeStub(ch).BeginTransfer(_begin(**kw), timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field in (err.value.details() or "")


def test_an_id_reused_with_other_content_is_already_exists_and_supplies_move_once(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref, land_channel(ref.addr) as ch:
        ref.station("c", "Brest", [infantry("FR1IN", 1000)], supplies=5)
        stub = land_pb2_grpc.LandBridgeStub(ch)
        first = stub.BeginTransfer(_begin(supplies=3, state="FR"), timeout=5)
        assert first.accepted and first.state == land_pb2.TRANSFER_STATE_BEGUN
        with pytest.raises(grpc.RpcError) as err:
            stub.BeginTransfer(_begin(supplies=4, state="FR"), timeout=5)
        assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS
        other = stub.BeginTransfer(_begin(transfer_id="t2", units=[], supplies=3), timeout=5)
        assert not other.accepted and "2 free in Brest" in other.reason  # 3 of 5 are reserved
        for _ in range(2):
            stub.CompleteTransfer(land_pb2.CompleteTransferRequest(transfer_id="t1"), timeout=5)
        snap = ref.snapshot("c")
    assert sorted((s.city or s.transport_id, s.supplies) for s in snap.supplies) == [
        ("Brest", 2),
        ("FR1TR", 3),
    ]
    assert [(u.id, u.transport_id) for u in snap.units] == [("FR1IN", "FR1TR")]


def test_faults_from_the_environment_and_their_errors() -> None:
    assert Faults.parse("down_calls=2, delay_seconds=0.5,refuse_all") == Faults(
        down_calls=2, delay_seconds=0.5, refuse_all=True
    )
    with pytest.raises(FaultError, match="unknown fault 'explode'"):
        Faults.parse("explode=1")
    with pytest.raises(FaultError, match="delay_seconds"):
        Faults.parse("delay_seconds=999")


def test_health_is_serving_and_a_slow_gitm_meets_the_callers_deadline(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref, land_channel(ref.addr) as ch:
        health = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        ref.faults(delay_seconds=1.0)
        with pytest.raises(grpc.RpcError) as err:
            land_pb2_grpc.LandBridgeStub(ch).UnitsNear(
                land_pb2.UnitsNearRequest(campaign_id="c", turn=1, port="Brest"), timeout=0.2
            )
    assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def _moves(mid: str, *moves: land_pb2.CargoMove) -> land_pb2.ReportCargoMovesRequest:
    return land_pb2.ReportCargoMovesRequest(move_id=mid, campaign_id="c", turn=1, moves=list(moves))


def test_cargo_moves_apply_once_and_refuse_what_the_named_transport_does_not_hold(tmp_path: Path) -> None:
    """ReportCargoMoves (rule 2.5): units and supplies follow a divide or combine once;
    a unit not aboard the transport named, or supplies it lacks, stay where they are with a reason."""
    with reference_gitm(tmp_path) as ref, land_channel(ref.addr) as ch:
        stub = land_pb2_grpc.LandBridgeStub(ch)
        ref.aboard("c", "FR1TR", [infantry("FR1IN", 1000), infantry("FR2IN", 1000)], supplies=4)
        ref.station("c", "Brest", [infantry("FR3IN", 1000)])
        move = land_pb2.CargoMove(from_transport="FR1TR", to_transport="FR2TR", units=["FR2IN", "FR3IN"])
        short = land_pb2.CargoMove(from_transport="FR1TR", to_transport="FR2TR", supplies=9)
        first = stub.ReportCargoMoves(_moves("c:1:cargo-moves", move, short), timeout=5)
        again = stub.ReportCargoMoves(_moves("c:1:cargo-moves", move, short), timeout=5)
        assert not first.accepted and not first.duplicate
        assert [list(m.units) for m in first.applied] == [["FR2IN"]]
        assert [(r.item, r.reason) for r in first.refusals] == [
            ("FR3IN", "not aboard FR1TR"),
            ("supplies", "FR1TR holds 4 free supplies, not 9"),
        ]
        assert again.duplicate and list(again.applied) == list(first.applied)
        assert ref.places("c") == {"FR1IN": "aboard:FR1TR", "FR2IN": "aboard:FR2TR", "FR3IN": "city:Brest"}
        ok = land_pb2.CargoMove(from_transport="FR1TR", to_transport="FR2TR", units=["FR1IN"], supplies=4)
        assert stub.ReportCargoMoves(_moves("c:2:cargo-moves", ok), timeout=5).accepted
        stocks = {s.transport_id: s.supplies for s in ref.snapshot("c").supplies if s.transport_id}
        assert stocks == {"FR1TR": 0, "FR2TR": 4}  # conserved: moved, not made (the emptied one listed)
        same = land_pb2.CargoMove(from_transport="FR1TR", to_transport="FR1TR", units=["FR1IN"])
        with pytest.raises(grpc.RpcError) as err:
            stub.ReportCargoMoves(_moves("c:3:cargo-moves", same), timeout=5)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "moves[0].to_transport" in (err.value.details() or "")


def _stocks(ref: Reference, campaign: str) -> dict[str, int]:
    return {s.city or s.transport_id: s.supplies for s in ref.snapshot(campaign).supplies}


def test_the_snapshot_reports_empty_stocks_too(tmp_path: Path) -> None:
    """Zero is information: a city or transport with no supplies is listed with 0, whether it
    started empty, was emptied by a load, or was stationed empty; off-map ports have no land side."""
    world, wmap = load_scenario("training").world, load_world_map()
    on_map = {p for p in world.ports if p in wmap.ports and wmap.ports[p].on_gitm_map}
    with reference_gitm(tmp_path, scenario="training") as ref, land_channel(ref.addr) as ch:
        stub = land_pb2_grpc.LandBridgeStub(ch)
        stub.UnitsNear(land_pb2.UnitsNearRequest(campaign_id="c", turn=1, port="Portsmouth"), timeout=5)
        start = _stocks(ref, "c")
        assert set(start) == on_map | {"BR1TR", "FR1TR"}  # every on-map city, every transport group
        assert start["Portsmouth"] == 10 and start["Brest"] == 0 and start["BR1TR"] == 0
        assert "Halifax" not in start  # off the GITM map (rule 1.5)

        load = _begin(port="Portsmouth", transport_id="BR1TR", units=[], supplies=10, state="BR")
        assert stub.BeginTransfer(load, timeout=5).accepted
        stub.CompleteTransfer(land_pb2.CompleteTransferRequest(transfer_id="t1"), timeout=5)
        after = _stocks(ref, "c")
        assert (after["Portsmouth"], after["BR1TR"]) == (0, 10)  # emptied, and still reported
        assert sum(after.values()) == sum(start.values())

        ref.station("d", "Portsmouth", [], supplies=0)
        assert _stocks(ref, "d")["Portsmouth"] == 0


def test_the_administration_needs_the_administrator_token(tmp_path: Path) -> None:
    """The attack of before: anyone who reached the port listed every land unit (Snapshot), moved
    units (Station) and turned faults on for everybody (SetFaults). Now each is refused first."""
    from gitm.v1 import reference_admin_pb2, reference_admin_pb2_grpc

    calls = [
        ("Snapshot", reference_admin_pb2.SnapshotRequest(campaign_id="c")),
        ("Station", reference_admin_pb2.StationRequest()),
        ("SetFaults", reference_admin_pb2.Faults(down_calls=1000)),
        ("Reopen", reference_admin_pb2.ReopenRequest()),
    ]
    with reference_gitm(tmp_path) as ref, grpc.insecure_channel(ref.addr) as ch:
        stub = reference_admin_pb2_grpc.ReferenceAdminStub(ch)
        for name, request in calls:
            wrong = ([], [("x-pate-admin-token", "guess")], [("x-pate-gitm-token", LAND_TOKEN)])
            for md in wrong:
                with pytest.raises(grpc.RpcError) as err:
                    getattr(stub, name)(request, metadata=md, timeout=5)
                assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED, (name, md)
        # nothing was turned on: PATE's calls are answered
        with land_channel(ref.addr) as land:
            land_pb2_grpc.LandBridgeStub(land).GetCapabilities(land_pb2.GetCapabilitiesRequest(), timeout=5)


def test_an_administration_without_a_token_configured_refuses_everything(tmp_path: Path) -> None:
    from gitm.v1 import reference_admin_pb2, reference_admin_pb2_grpc
    from services.gitm_reference.main import start
    from services.gitm_reference.servicer import Access

    running = start("127.0.0.1:0", f"sqlite:///{tmp_path / 'g.db'}", scenario="none", access=Access("t", ""))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as ch, pytest.raises(grpc.RpcError) as err:
            reference_admin_pb2_grpc.ReferenceAdminStub(ch).Snapshot(
                reference_admin_pb2.SnapshotRequest(campaign_id="c"), metadata=[("x-pate-admin-token", "")]
            )
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        running.stop(grace=0)


def test_land_calls_without_pates_caller_token_are_unauthenticated(tmp_path: Path) -> None:
    with reference_gitm(tmp_path) as ref, grpc.insecure_channel(ref.addr) as ch:
        stub = land_pb2_grpc.LandBridgeStub(ch)
        for md in ([], [("x-pate-gitm-token", "wrong")]):
            with pytest.raises(grpc.RpcError) as err:
                stub.UnitsNear(
                    land_pb2.UnitsNearRequest(campaign_id="c", port="Brest"), metadata=md, timeout=5
                )
            assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_off_loopback_the_service_needs_tls_and_a_caller_token(tmp_path: Path) -> None:
    from services.gitm_reference.main import start
    from services.gitm_reference.servicer import Access
    from services.platform.config import ConfigError
    from services.platform.security.tls import TlsSettings

    db = f"sqlite:///{tmp_path / 'g.db'}"
    with pytest.raises(ConfigError, match="plaintext"):
        start("0.0.0.0:0", db, scenario="none", access=Access("t", "a"))
    with pytest.raises(ConfigError, match="PATE_GITM_TOKEN"):
        start("0.0.0.0:0", db, scenario="none", access=Access("", "a"), tls=TlsSettings(allow_plaintext=True))
