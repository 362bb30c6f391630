"""Holds of the reference land service (gitm.v1 edition 4, docs/gitm.md "Holds"): UnitsNear asked
with a hold keeps what it reported from GITM's own rules; a BeginTransfer naming the hold
confirms it, ReleaseHold releases it, and ten minutes end it; each end has its reason code."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from gitm.v1 import land_pb2, reference_admin_pb2
from services.gitm_reference.holds import HOLD_SECONDS, HeldError
from services.gitm_reference.store import BadRequestError, LandStore, StoreError

CAMPAIGN, PORT = "c", "Brest"
T0 = 1_900_000_000.0


@pytest.fixture
def store(tmp_path: Path) -> LandStore:
    s = LandStore(create_engine(f"sqlite:///{tmp_path / 'land.db'}", poolclass=NullPool))
    s.ledger.clock = lambda: T0
    units = [
        reference_admin_pb2.StationedUnit(
            campaign_id=CAMPAIGN,
            unit=land_pb2.Unit(id=uid, state="FR", tactical_square=True, infantry=1000),
            city=PORT,
        )
        for uid in ("FR1IN", "FR2IN")
    ]
    stock = reference_admin_pb2.SupplyStock(campaign_id=CAMPAIGN, city=PORT, supplies=4)
    s.station(reference_admin_pb2.StationRequest(units=units, supplies=[stock]))
    return s


def _near(store: LandStore, request: str = "c:1:Brest:hold", hold: bool = True) -> land_pb2.UnitsNearResponse:
    r = land_pb2.UnitsNearRequest(campaign_id=CAMPAIGN, turn=1, port=PORT, hold=hold, hold_request_id=request)
    return store.units_near(r)


def _begin(store: LandStore, hold: str, tid: str = "t1", unit: str = "FR1IN") -> land_pb2.TransferStatus:
    return store.begin(
        land_pb2.BeginTransferRequest(
            transfer_id=tid,
            campaign_id=CAMPAIGN,
            turn=1,
            port=PORT,
            transport_id="FR1TR",
            direction=land_pb2.DIRECTION_LOAD,
            units=[unit],
            state="FR",
            hold_id=hold,
        )
    )


def _destroy(store: LandStore, unit: str) -> land_pb2.LandEvent:
    event = land_pb2.LandEvent(kind=land_pb2.LAND_EVENT_UNIT_DESTROYED, unit_id=unit, reason="stormed")
    return store.inject_land_event(CAMPAIGN, event)


def test_a_hold_is_given_once_per_request_and_keeps_the_reported_units_from_the_land_game(
    store: LandStore,
) -> None:
    first = _near(store)
    assert first.hold_id and first.hold_expires_at == int(T0) + HOLD_SECONDS
    store.ledger.clock = lambda: T0 + 30
    again = _near(store)  # the same (campaign, turn, request id): the same hold, the same expiry
    assert (again.hold_id, again.hold_expires_at) == (first.hold_id, first.hold_expires_at)
    other = _near(store, "c:1:Brest:hold:after-1")
    assert other.hold_id != first.hold_id
    with pytest.raises(HeldError) as held:
        _destroy(store, "FR2IN")
    assert held.value.code.name == "FAILED_PRECONDITION"
    city = land_pb2.LandEvent(kind=land_pb2.LAND_EVENT_CITY_TAKEN, city=PORT, captor="BR")
    with pytest.raises(HeldError):
        store.inject_land_event(CAMPAIGN, city)
    assert not _near(store, hold=False).hold_id  # a question without a hold gets none
    assert {u.id for u in _near(store, hold=False).units} == {"FR1IN", "FR2IN"}


def test_a_begin_naming_the_hold_confirms_it_and_the_release_frees_the_rest(store: LandStore) -> None:
    hold = _near(store).hold_id
    begun = _begin(store, hold)
    assert begun.accepted and begun.state == land_pb2.TRANSFER_STATE_BEGUN
    second = _begin(store, hold, "t2", "FR2IN")  # the other begins of the turn at the port name it too
    assert second.accepted
    store.complete(land_pb2.CompleteTransferRequest(transfer_id="t2", cancelled=True))
    with pytest.raises(HeldError):  # confirmed, the hold lasts until released: FR2IN stays held
        _destroy(store, "FR2IN")
    released = store.release_hold(land_pb2.ReleaseHoldRequest(campaign_id=CAMPAIGN, hold_id=hold))
    assert (released.state, released.duplicate) == ("released", False)
    repeat = store.release_hold(land_pb2.ReleaseHoldRequest(campaign_id=CAMPAIGN, hold_id=hold))
    assert repeat.duplicate
    assert _destroy(store, "FR2IN").sequence == 1  # GITM's own rules act again
    late = _begin(store, hold, "t3", "FR1IN")
    assert not late.accepted and late.refusals[0].item == "hold"
    assert late.refusals[0].reason.startswith("hold_released")
    assert _begin(store, hold).accepted  # t1 repeated: its stored answer, whatever the hold now is


def test_an_expired_hold_frees_the_land_and_a_begin_naming_it_is_refused_hold_expired(
    store: LandStore,
) -> None:
    hold = _near(store)
    store.ledger.clock = lambda: T0 + HOLD_SECONDS
    assert _destroy(store, "FR2IN").unit_id == "FR2IN"
    refused = _begin(store, hold.hold_id)
    assert not refused.accepted and refused.state == land_pb2.TRANSFER_STATE_REFUSED
    assert [r.item for r in refused.refusals] == ["hold"]
    assert refused.refusals[0].reason.startswith("hold_expired")
    assert not store.snapshot(CAMPAIGN).units[0].reserved_by  # nothing of a refused begin is reserved
    gone = store.release_hold(land_pb2.ReleaseHoldRequest(campaign_id=CAMPAIGN, hold_id=hold.hold_id))
    assert (gone.state, gone.duplicate) == ("expired", False)
    again = store.release_hold(land_pb2.ReleaseHoldRequest(campaign_id=CAMPAIGN, hold_id=hold.hold_id))
    assert (again.state, again.duplicate) == ("expired", True)  # a repeat: the first answer's state


def test_the_hold_request_id_is_an_opaque_id_and_names_one_port(store: LandStore) -> None:
    """docs/gitm.md "Ids": PATE's request id is <campaign>:<turn>:<port>:hold with the port's spaces
    written as underscores; a space, an empty one, or one given before for another port is refused."""
    kept = _near(store, "c:1:Le_Havre:hold")
    assert kept.hold_id.startswith("hold-") and kept.hold_id == _near(store, "c:1:Le_Havre:hold").hold_id
    for bad in ("", "c:1:Le Havre:hold"):
        with pytest.raises(BadRequestError, match="hold_request_id"):
            _near(store, bad)
    other = land_pb2.UnitsNearRequest(campaign_id=CAMPAIGN, turn=1, port="Cadiz", hold=True)
    other.hold_request_id = "c:1:Le_Havre:hold"
    with pytest.raises(BadRequestError, match="hold_request_id"):
        store.units_near(other)


def test_a_begin_naming_a_hold_it_was_not_given_is_refused_hold_unknown(store: LandStore) -> None:
    refused = _begin(store, "hold-of-another-service")
    assert not refused.accepted and refused.refusals[0].reason.startswith("hold_unknown")
    with pytest.raises(StoreError) as unknown:
        store.release_hold(land_pb2.ReleaseHoldRequest(campaign_id=CAMPAIGN, hold_id="nope"))
    assert unknown.value.code.name == "NOT_FOUND"
    with pytest.raises(BadRequestError, match="hold_request_id"):
        _near(store, "x" * 300)
    with pytest.raises(BadRequestError, match="hold_id"):
        store.release_hold(land_pb2.ReleaseHoldRequest(campaign_id=CAMPAIGN, hold_id=""))


def test_the_reference_keeps_the_contracts_hold_numbers() -> None:
    from services.gitm_reference import holds
    from services.resolver import land_holds

    assert holds.HOLD_SECONDS == land_holds.HOLD_SECONDS == 600
    assert (holds.EXPIRED, holds.RELEASED, holds.UNKNOWN) == land_holds.CODES


def test_a_faulty_unit_named_twice_is_refused_once_under_its_id_and_once_as_units(store: LandStore) -> None:
    """docs/gitm.md "Answers": one refusal of item ``units`` for the duplicates, and each unit
    checked once under its own id, however often it is named."""
    r = land_pb2.BeginTransferRequest(
        transfer_id="twice",
        campaign_id=CAMPAIGN,
        turn=1,
        port=PORT,
        transport_id="FR1TR",
        direction=land_pb2.DIRECTION_LOAD,
        units=["NO1IN", "NO1IN", "FR1IN", "FR1IN"],
        state="FR",
    )
    refused = store.begin(r)
    assert [(x.item, x.code) for x in refused.refusals] == [("NO1IN", "unknown"), ("units", "twice")]


@pytest.mark.parametrize("transport", ["FR 1TR", "FR1TR.b", "T" * 65])
def test_a_load_onto_a_transport_id_that_breaks_its_form_is_invalid_and_reserves_nothing(
    store: LandStore, transport: str
) -> None:
    """docs/gitm.md "Limits": a transport id's form is its rule in land.proto, so such a begin is
    INVALID_ARGUMENT naming ``transport_id``, and nothing is reserved."""
    r = land_pb2.BeginTransferRequest(
        transfer_id=f"bad-{len(transport)}-{transport[-1]}",
        campaign_id=CAMPAIGN,
        turn=1,
        port=PORT,
        transport_id=transport,
        direction=land_pb2.DIRECTION_LOAD,
        units=["FR1IN"],
        state="FR",
    )
    with pytest.raises(BadRequestError, match="transport_id"):
        store.begin(r)
    assert not store.snapshot(CAMPAIGN).units[0].reserved_by
