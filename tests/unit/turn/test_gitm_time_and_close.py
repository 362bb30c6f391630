"""Edition 4 on time and the end of a campaign (docs/gitm.md A1, A24): the turn's
``ReportSightings`` says when PATE's next turn closes, and ``CloseCampaign`` names every
transport group with cargo aboard, whose cargo the land side places."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from gitm.v1 import land_pb2
from pate.core.world.ships import Cargo
from pate.gitmkit.land import Land
from services.gitm_reference.inprocess import InProcessStub, memory_store
from services.platform.store import repository as repo
from services.resolver import bridge, gitm_life
from services.resolver.gitm import CloseCampaign, GitmClient, Laden, Sightings
from tests.cases.turn.turn_world import CTX, harbor, infantry, ship, world
from tests.support.aio import unique
from tests.support.orders_world import sea

DEADLINE = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)


def test_the_next_close_is_told_only_while_it_is_the_next_turns() -> None:
    """Turn 4's calls sent while turn 5 is open carry turn 5's deadline; sent late (turn 7 open),
    or without a deadline, they say 0: unknown."""
    assert gitm_life.next_close(5, DEADLINE, 4) == int(DEADLINE.timestamp())
    assert gitm_life.next_close(7, DEADLINE, 4) == 0
    assert gitm_life.next_close(5, None, 4) == 0
    calls = gitm_life.with_next_close([Sightings("c:4:sightings", "c", 4)], 1_800_000_000)
    assert calls == [Sightings("c:4:sightings", "c", 4, (), 1_800_000_000)]


class Recording(InProcessStub):
    def __init__(self) -> None:
        super().__init__(memory_store())
        self.sent: list[Any] = []

    def ReportSightings(self, r: Any, **kw: Any) -> Any:  # noqa: N802
        self.sent.append(r)
        return super().ReportSightings(r, **kw)

    def CloseCampaign(self, r: Any, **kw: Any) -> Any:  # noqa: N802
        self.sent.append(r)
        return super().CloseCampaign(r, **kw)


def test_the_next_close_reaches_gitm_and_is_not_the_reports_content() -> None:
    """A repeat carrying another deadline (the game master moved it) is the same report."""
    stub = Recording()
    land = Land(stub, "a1", "Portsmouth")
    stub.OpenCampaign(land.open_request())
    client = GitmClient("in-process", stub=stub, token="")
    first, moved = (
        Sightings("a1:1:sightings", "a1", 1, (), 1_800_000_000),
        Sightings("a1:1:sightings", "a1", 1),
    )
    assert bridge.deliver(client, [first, moved]) == []
    assert [r.next_close_unix for r in stub.sent] == [1_800_000_000, 0]


def test_the_close_names_every_laden_transport_and_the_city_it_lies_in() -> None:
    w = world(
        [
            ship("BR1TR", harbor("Portsmouth"), cargo=Cargo(("BR1IN",), 2, 1040)),
            ship("BR2TR", sea("CHA"), cargo=Cargo(("BR2IN",), 0, 1040)),
            ship("FR1TR", harbor("Martinique"), cargo=Cargo((), 3, 0)),
            ship("FR2TR", harbor("Brest")),
        ],
        units=[infantry("BR1IN", 1000), infantry("BR2IN", 1000)],
    )
    assert gitm_life.laden(w, CTX.map) == (
        Laden("BR1TR", "Portsmouth", ("BR1IN",), 2),
        Laden("BR2TR", "", ("BR2IN",), 0),
        Laden("FR1TR", "", (), 3),  # Martinique is off GITM's map (rule 1.5)
    )


def test_the_reference_lands_the_cargo_of_a_transport_in_an_on_map_port_at_the_close() -> None:
    """A24: aboard in an on-map port, landed in its city (units and supplies); elsewhere, left
    aboard for GITM's own game; a repeated close lands nothing more."""
    stub = Recording()
    land = Land(stub, "a24", "Portsmouth")
    stub.OpenCampaign(land.open_request())
    lay = land.layout
    close = CloseCampaign(
        "a24", 2, (Laden(lay.carrier, "Portsmouth", (lay.aboard,), 3), Laden(lay.ship, "", (), 0))
    )
    client = GitmClient("in-process", stub=stub, token="")
    assert bridge.deliver(client, [close, close]) == []
    sent = stub.sent[0]
    assert [(x.transport_id, x.city, list(x.units), x.supplies) for x in sent.laden] == [
        (lay.carrier, "Portsmouth", [lay.aboard], 3),
        (lay.ship, "", [], 0),
    ]
    snap = stub.store.land_snapshot(land_pb2.GetLandSnapshotRequest(campaign_id="a24"))
    where = {u.unit.id: (u.city, u.transport_id, u.unit.tactical_square) for u in snap.units}
    assert where[lay.aboard] == ("Portsmouth", "", True)
    stocks = {k.city or k.transport_id: k.supplies for k in snap.stocks}
    assert (stocks["Portsmouth"], stocks[lay.carrier]) == (13, 0)


def test_the_bridge_builds_the_last_turns_calls_with_the_deadline_and_the_laden_transports(
    engine: sa.Engine,
) -> None:
    """``turn_calls`` from PATE's store: turn 1 of a one-turn campaign, committed while turn 2
    is open with a deadline: its report says when that closes, its close names BR1TR laden in
    Portsmouth."""
    campaign = unique()
    end = world(
        [ship("BR1TR", harbor("Portsmouth"), cargo=Cargo(("BR1IN",), 2, 1040))],
        units=[infantry("BR1IN", 1000)],
        campaign=campaign,
    )
    with engine.begin() as conn:
        row = repo.CampaignRow(campaign, campaign, "training", 1, 1, 2, "OPEN", DEADLINE, 0, gitm=True)
        repo.insert_campaign(conn, row)
        repo.save_events(conn, campaign, 1, [])
        repo.save_world(conn, campaign, 2, end)
        calls = bridge.turn_calls(conn, row, 1)
    sightings = next(c for c in calls if isinstance(c, Sightings))
    assert sightings.next_close == int(DEADLINE.timestamp())
    assert calls[-1] == CloseCampaign(campaign, 1, (Laden("BR1TR", "Portsmouth", ("BR1IN",), 2),))
