"""The data of the gitm.v1 contract shipped beside its proto (docs/gitm.md, "Answers to the land
team's review", A1 and A8): a land team reads the cities, the state codes and rule 3.1's calendar
from ``proto/gitm/v1/contract.toml``, which must say what PATE's data files say."""

from __future__ import annotations

import hashlib
import json
import tomllib

from pate.datafiles import load_nations, load_world_map
from pate.tools import gitmdata


def test_the_contract_data_file_is_not_stale() -> None:
    """A8: "the city list and the state codes shipped beside the proto as generated files checked
    against the data by a test"."""
    assert gitmdata.main(["--check"]) == 0, "run python -m pate.tools.gitmdata"


def test_the_file_lists_every_on_map_city_every_state_and_one_land_turn_per_turn() -> None:
    """Rule 1.5: "all European ports are on-GITM-map except for Malta and Corfu"; rule 3.1: "PATE
    turns run at the same time as the GITM turns of the campaign"."""
    data = tomllib.loads(gitmdata.TARGET.read_text())
    cities = data["cities"]["names"]
    ports = load_world_map().ports
    assert sorted(cities) == sorted(p.name for p in ports.values() if p.on_gitm_map)
    assert len(cities) == 145 and "Portsmouth" in cities and "Malta" not in cities and "Corfu" not in cities
    assert set(data["states"]) == set(load_nations().states)
    assert data["calendar"]["land_turns_per_pate_turn"] == 1
    codes = sorted(data["states"])
    expected = hashlib.sha256(json.dumps([cities, codes], separators=(",", ":")).encode()).hexdigest()
    assert data["data"]["digest"] == expected


def test_the_file_lists_each_editions_calls_and_the_land_event_kinds() -> None:
    """docs/gitm.md "Versioning": an edition is its calls, and the header names the one PATE
    speaks; "Land events": every kind of the proto but the unspecified one, as PATE reads it."""
    from gitm.v1 import land_pb2

    data = tomllib.loads(gitmdata.TARGET.read_text())
    served = {m.name for m in land_pb2.DESCRIPTOR.services_by_name["LandBridge"].methods}
    assert set(data["editions"]["edition_4"]) == served
    assert set(data["editions"]["edition_3"]) == served - {"GetLandSnapshot", "ListLandEvents", "ReleaseHold"}
    assert data["editions"]["pate_speaks"] == 4
    kinds = {v.name for v in land_pb2.LandEventKind.DESCRIPTOR.values if v.number}
    assert set(data["land_events"]) - {"largest_page"} == kinds
    # "Holds": ten minutes, and the codes a begin naming a hold that no longer holds is refused with
    assert data["holds"]["hold_seconds"] == 600
    assert data["holds"]["refusal_codes"] == ["hold_expired", "hold_released", "hold_unknown"]


def test_the_file_lists_the_error_reasons_and_refusal_codes_of_edition_4() -> None:
    """docs/gitm.md "Error details" and "Refusal codes": the table a land service of edition 4
    answers with, as data."""
    data = tomllib.loads(gitmdata.TARGET.read_text())["errors"]
    assert data["domain"] == "gitm.pate"
    assert data["INTERNAL_FAULT"] == "INTERNAL" and data["TRANSFER_NOT_FOUND"] == "NOT_FOUND"
    assert data["refusal_codes"] == [
        "unknown",
        "elsewhere",
        "foreign",
        "embarked",
        "reserved",
        "twice",
        "supplies",
        "refused",
    ]


def test_the_digest_both_sides_compare_is_the_files_and_the_limits_are_listed() -> None:
    """A9: PATE's OpenCampaignRequest.data_digest and the kit's L33 use the file's digest; A17:
    the sightings limits a land team sizes for are in the file."""
    from pate.gitmkit import limits
    from pate.gitmkit.contract_data import data_digest

    data = tomllib.loads(gitmdata.TARGET.read_text())
    assert data["data"]["digest"] == data_digest()
    assert (data["sightings"]["entries"], data["sightings"]["ships_per_entry"]) == (
        limits.SIGHTING_ENTRIES,
        limits.SHIPS_PER_ENTRY,
    )
