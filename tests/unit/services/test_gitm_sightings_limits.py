"""The limits of a ``ReportSightings`` (docs/gitm.md A17, pate/gitmkit/limits.py): a report at
every limit at once fits in gRPC's 4 MiB, the reference service takes it and refuses one beyond,
and PATE's sender splits a crowded port's ships into entries of at most 100."""

from __future__ import annotations

import grpc
import pytest

from gitm.v1 import land_pb2
from pate.gitmkit import limits
from pate.gitmkit.land import Land
from services.gitm_reference.inprocess import InProcessStub, memory_store
from services.resolver.gitm_calls import within_limits


def _at_the_limits(campaign: str) -> land_pb2.ReportSightingsRequest:
    ship = land_pb2.SightedShip(id="S" * limits.SHIP_ID_CHARS, state="FR", type="SL")
    entry = land_pb2.ShoreSighting(
        port="P" * limits.CITY_CHARS, for_state="BR", ships=[ship] * limits.SHIPS_PER_ENTRY
    )
    return land_pb2.ReportSightingsRequest(
        report_id="R" * 256,
        campaign_id=campaign,
        turn=limits.rules(land_pb2.ReportSightingsRequest, "turn").int32.lte,
        sightings=[entry] * limits.SIGHTING_ENTRIES,
        next_close_unix=limits.rules(land_pb2.ReportSightingsRequest, "next_close_unix").int64.lte,
    )


def test_a_report_at_every_limit_fits_in_4_mib() -> None:
    size = _at_the_limits("C" * 256).ByteSize()
    assert size < limits.MESSAGE_BYTES, size
    assert size > limits.MESSAGE_BYTES * 0.8  # the limits are the real bound, not far below it


def test_the_reference_takes_a_report_at_the_limits_and_refuses_one_beyond() -> None:
    stub = InProcessStub(memory_store())
    land = Land(stub, "a17", "Portsmouth")
    stub.OpenCampaign(land.open_request())
    report = _at_the_limits("a17")
    for entry in report.sightings:
        entry.port = "Portsmouth"
    assert stub.ReportSightings(report).sightings == limits.SIGHTING_ENTRIES
    beyond = [
        ("sightings", lambda r: r.sightings.append(r.sightings[0])),
        ("sightings[0].ships", lambda r: r.sightings[0].ships.append(r.sightings[0].ships[0])),
        ("sightings[0].ships[0].id", lambda r: setattr(r.sightings[0].ships[0], "id", "S" * 25)),
    ]
    for field, change in beyond:
        r = _at_the_limits("a17")
        r.report_id = f"a17:{len(field)}"
        change(r)
        with pytest.raises(grpc.RpcError) as caught:
            stub.ReportSightings(r)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert caught.value.details().startswith(field)


def test_pates_sender_splits_a_crowded_port_and_caps_the_entries() -> None:
    ships = tuple((f"FR{i}SL", "FR", "SL") for i in range(1, 251))
    split = within_limits("c", 1, [("Brest", "BR", ships), ("Cadiz", "SP", ())])
    assert [(p, s, len(x)) for p, s, x in split] == [
        ("Brest", "BR", 100), ("Brest", "BR", 100), ("Brest", "BR", 50), ("Cadiz", "SP", 0)
    ]  # fmt: skip
    assert sum((x for _, _, x in split), ()) == ships  # every ship once, in order
    many = [("Brest", "BR", ships)] * 500
    assert len(within_limits("c", 1, many)) == limits.SIGHTING_ENTRIES
