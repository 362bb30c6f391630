"""The reference land service's checks of an open (docs/gitm.md "Opening and closing"): each unit
and each place named once, every city, holders' included, on the GITM map; a fault is
INVALID_ARGUMENT naming the entry, and nothing of the open is held."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from gitm.v1 import land_pb2
from services.gitm_reference.store import BadRequestError, LandStore

CITIES = frozenset({"Brest", "Le Havre"})


def _unit(uid: str, city: str = "Brest") -> land_pb2.InitialUnit:
    return land_pb2.InitialUnit(unit=land_pb2.Unit(id=uid, state="FR", tactical_square=True), city=city)


def _open(store: LandStore, **fields: object) -> land_pb2.OpenCampaignResponse:
    r = land_pb2.OpenCampaignRequest(campaign_id="c", scenario="training", turns=5, **fields)  # type: ignore[arg-type]
    return store.open_campaign(r)


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"units": [_unit("FR1IN"), _unit("FR2IN"), _unit("FR1IN", "Le Havre")]}, "units[2].unit.id"),
        (
            {
                "stocks": [
                    land_pb2.InitialStock(city="Brest"),
                    land_pb2.InitialStock(city="Brest", supplies=3),
                ]
            },
            "stocks[1]",
        ),
        ({"holders": [land_pb2.PortHolder(port="Atlantis", state="FR")]}, "holders[0].port"),
        (
            {"holders": [land_pb2.PortHolder(port="Brest", state="FR"), land_pb2.PortHolder(port="Brest")]},
            "holders[1]",
        ),
    ],
)
def test_an_open_naming_an_entry_twice_or_a_holder_off_the_map_is_refused_naming_it(
    tmp_path: Path, fields: dict[str, object], path: str
) -> None:
    store = LandStore(create_engine(f"sqlite:///{tmp_path / 'land.db'}", poolclass=NullPool), cities=CITIES)
    with pytest.raises(BadRequestError) as bad:
        _open(store, **fields)
    assert bad.value.field == path
    assert _open(store, units=[_unit("FR1IN")]).units == 1  # nothing of the refused open was held


def test_a_holders_empty_state_is_a_city_with_no_holder(tmp_path: Path) -> None:
    """The proto's rule lets `holders[i].state` be empty: the city has no holder, not a refusal."""
    store = LandStore(create_engine(f"sqlite:///{tmp_path / 'land.db'}", poolclass=NullPool), cities=CITIES)
    holders = [land_pb2.PortHolder(port="Brest", state="FR"), land_pb2.PortHolder(port="Le Havre")]
    assert _open(store, units=[_unit("FR1IN")], holders=holders).units == 1
    held = store.port_holders(land_pb2.PortHoldersRequest(campaign_id="c", turn=1))
    assert [(h.port, h.state) for h in held.holders] == [("Brest", "FR")]


def test_the_digest_is_checked_for_a_new_open_only(tmp_path: Path) -> None:
    """A repeat of an open answered before gets its stored answer whatever digest it carries
    (after an upgrade of either side); a new open with another digest is refused and holds
    nothing."""
    store = LandStore(create_engine(f"sqlite:///{tmp_path / 'land.db'}", poolclass=NullPool), cities=CITIES)
    mine = store.capabilities().data_digest
    assert not _open(store, units=[_unit("FR1IN")], data_digest=mine).duplicate
    assert _open(store, units=[_unit("FR1IN")], data_digest="0" * 64).duplicate
    other = land_pb2.OpenCampaignRequest(
        campaign_id="d", turns=5, units=[_unit("FR2IN")], data_digest="0" * 64
    )
    with pytest.raises(BadRequestError) as bad:
        store.open_campaign(other)
    assert bad.value.field == "data_digest"
    other.data_digest = mine
    assert not store.open_campaign(other).duplicate  # the refused open left nothing behind
