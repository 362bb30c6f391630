"""Named fault cases of the GITM transfers, each with conservation proved after it
(docs/gitm.md "Conservation"): GITM down or refusing, a transport lost mid-transfer,
a report held back until earlier transfers settle, a divided group followed."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from pate.core.rules.landsaga import DEFERRED
from pate.core.world.ships import Cargo
from services.gitm_reference import tables as gt
from services.gitm_reference.inprocess import LocalRpcError
from services.gitm_reference.seed import seed_world
from services.gitm_reference.store import LandStore
from services.resolver import bridge, land_questions
from tests.cases.turn.turn_world import CTX
from tests.unit.turn.gitm_fault_campaign import (
    ENGINE,
    PORT,
    Campaign,
    FaultyStub,
    _orders,
    play,
    seed_store,
)
from tests.unit.turn.gitm_fault_checks import assert_conserved


def test_gitm_down_at_the_turn_close_defers_the_transfer_and_tells_the_player() -> None:
    """The turn resolves on time; the load is refused as deferred (not carried over)."""
    c = play(["down"] * 3, [{"BR2TR": ("load", 1, 0), "BR1TR": ("none", 0, 0)}], [0], [0])
    refused = [e for e in c.events[1] if e.kind == "transfer_refused"]
    assert [r["reason"] for e in refused for r in e.data["refused"]] == [DEFERRED]
    assert c.world.ships["BR2TR"].cargo.units == ()
    assert_conserved(c)


def test_a_transfer_gitm_refused_is_undone_at_the_next_turn_and_the_player_told() -> None:
    """UnitsNear then the BeginTransfer refused: PATE had BR5IN aboard; the next turn puts it back ashore."""
    c = play(["ok", "refuse"], [{"BR2TR": ("load", 1, 2), "BR1TR": ("none", 0, 0)}], [0], [0])
    (undone,) = [e for e in c.events[2] if e.kind == "transfer_undone"]
    assert undone.data["units"] == ["BR5IN"] and undone.data["supplies"] == 2
    assert "refused on demand" in undone.data["reason"]
    assert "BR5IN" in c.world.ports[PORT].garrison and c.world.ships["BR2TR"].cargo == Cargo()
    assert_conserved(c)


@pytest.mark.parametrize("fate", ["sunk", "captured"])
def test_a_transport_lost_between_begin_and_complete_loses_its_cargo_and_gitm_is_told(fate: str) -> None:
    """Turn 1 BR2TR loads BR5IN; turn 2 it begins to land it and is sunk (or taken) in the combat
    phase: the landing is abandoned, BR5IN is lost (or captured) in PATE and in GITM."""
    turns = [
        {"BR2TR": ("load", 1, 1), "BR1TR": ("none", 0, 0)},
        {"BR2TR": ("unload", 1, 1), "BR1TR": ("none", 0, 0)},
    ]
    c = play([], turns, [0, 3 if fate == "sunk" else 5], [0])
    kind = "cargo_lost" if fate == "sunk" else "cargo_captured"
    (event,) = [e for e in c.events[2] if e.kind == kind]
    assert event.data["units"] == ["BR5IN"] and event.data["supplies"] == 1
    (done,) = [e for e in c.events[2] if e.kind == "transfer_completed"]
    assert done.data["cancelled"] and done.data["reason"] == "the transport group is gone"
    assert c.store.snapshot("saga").units[1].fate == ("lost" if fate == "sunk" else "captured")
    assert_conserved(c)


def test_gitms_city_report_waits_until_the_earlier_transfers_are_settled() -> None:
    """Turn 1 loads BR5IN; GITM takes the begin but the completion does not get through. At the
    close of turn 2 GITM still holds BR5IN in Portsmouth (reserved): its report is not applied,
    or BR5IN would be both ashore and aboard; the turn's transfers are deferred."""
    schedule = ["ok", "ok", "down"]  # turn 1: UnitsNear, BeginTransfer, CompleteTransfer (down)
    turns = [
        {"BR2TR": ("load", 1, 0), "BR1TR": ("none", 0, 0)},
        {"BR2TR": ("none", 0, 0), "BR1TR": ("unload", 1, 0)},
    ]
    c = play(schedule, turns, [0], [0])  # every turn's end is checked: BR5IN never ashore and aboard
    assert c.starts[3].ships["BR2TR"].cargo.units == ("BR5IN",)
    assert [r["reason"] for e in c.events[2] if e.kind == "transfer_refused" for r in e.data["refused"]] == [
        DEFERRED
    ]
    assert_conserved(c)


def test_a_refused_load_whose_transport_was_then_taken_recovers_the_units() -> None:
    """GITM refused BR2TR's load of BR5IN; before PATE heard it BR2TR was taken with BR5IN aboard (as
    PATE thought). BR5IN never left Portsmouth: its capture is void (transfer_undone, recovered)."""
    schedule = [
        "ok",
        "refuse",
        "ok",
        "ok",
        "down",
        "down",
    ]  # turn 2's close: GetTransfer down, asked again, down
    turns = [
        {"BR2TR": ("load", 1, 1), "BR1TR": ("none", 0, 0)},
        {"BR2TR": ("none", 0, 0), "BR1TR": ("none", 0, 0)},
    ]
    c = play(schedule, turns, [0, 5], [0])
    (captured,) = [e for e in c.events[2] if e.kind == "cargo_captured"]
    assert captured.data["units"] == ["BR5IN"]
    (undone,) = [e for t in c.events for e in c.events[t] if e.kind == "transfer_undone"]
    assert undone.data["recovered"] and undone.data["units"] == ["BR5IN"]
    assert "BR5IN" in c.world.ports[PORT].garrison
    assert_conserved(c)


def test_a_refused_landing_whose_transport_then_sank_loses_the_units_with_her() -> None:
    """GITM refused BR1TR's landing of BR1IN (PATE had it ashore); BR1TR then sank. BR1IN was
    still aboard: it is lost with her, in PATE (transfer_undone, lost) and in GITM (told)."""
    schedule = ["ok", "refuse", "ok", "ok", "down", "down"]  # turn 2's GetTransfer down, asked again, down
    turns = [
        {"BR1TR": ("unload", 1, 0), "BR2TR": ("none", 0, 0)},
        {"BR1TR": ("none", 0, 0), "BR2TR": ("none", 0, 0)},
    ]
    c = play(schedule, turns, [0, 2], [0])
    (undone,) = [e for t in c.events for e in c.events[t] if e.kind == "transfer_undone"]
    assert undone.data["lost"] and undone.data["units"] == ["BR1IN"]
    assert "BR1IN" not in c.world.ports[PORT].garrison
    assert_conserved(c)


@pytest.mark.parametrize("schedule", [[], ["ok", "ok", "ok", "down", "lost"], ["ok", "ok", "ok", "dup"]])
def test_a_divided_group_with_cargo_aboard_is_followed_by_gitm(schedule: list[str]) -> None:
    """BR1TR (BR1IN and 2 supplies aboard) loads BR5IN, BR6IN and 3 supplies and divides
    down to 2,000 capacity (rule 2.5); what no longer fits goes across to the new group, and GITM, told by
    ReportCargoMoves (down, its answer lost, or twice), holds it aboard the same group as PATE."""
    c = play(schedule, [{"BR1TR": ("load+divide", 3, 3), "BR2TR": ("none", 0, 0)}], [0], [0])
    (divided,) = [e for e in c.events[1] if e.kind == "group_divided"]
    moved = divided.data["cargo_moves"]
    assert moved["to"] == "BR3TR" and (moved["units"] or moved["supplies"])
    assert c.world.ships["BR3TR"].cargo.units == tuple(moved["units"])
    assert_conserved(c)


class FirstEdition:
    """A land service of the first edition: no GetCapabilities, OpenCampaign, CloseCampaign nor
    ReportCargoMoves (UNIMPLEMENTED, as a gRPC server without them answers), and no city stock
    in UnitsNear."""

    MISSING = ("GetCapabilities", "OpenCampaign", "CloseCampaign", "ReportCargoMoves")

    def __init__(self, inner: FaultyStub) -> None:
        self.inner = inner
        self.asked: list[str] = []

    def __getattr__(self, name: str) -> Any:
        def call(request: Any, **kw: Any) -> Any:
            self.asked.append(name)
            if name in self.MISSING:
                raise LocalRpcError(grpc.StatusCode.UNIMPLEMENTED, "Method not found!")
            answer = getattr(self.inner, name)(request, **kw)
            if name == "UnitsNear":
                answer.ClearField("supplies")
                answer.ClearField("reserved_supplies")
            return answer

        return call


def test_a_first_edition_land_service_keeps_working_through_the_capabilities_exchange() -> None:
    """A turn whose group divides with cargo aboard (rule 2.5) against a service that predates
    ReportCargoMoves: the turn is delivered, not set aside; the calls the service lacks are
    skipped (audited as gitm_call_skipped by the bridge) and asked for once; PATE keeps its own
    quay figure, since the first edition's UnitsNear carries none."""
    store = LandStore(ENGINE)
    w = seed_store(store)
    with store.engine.begin() as conn:  # a first-edition land side starts its campaigns its own way
        conn.execute(gt.campaigns.insert().values(campaign="saga", seeded_from="test"))
        seed_world(conn, "saga", w, lambda p: CTX.map.ports[p].on_gitm_map)
    stub = FirstEdition(FaultyStub(store, ()))
    c = Campaign(store, stub, w)
    client = c.client
    opening = [bridge.open_call(w, CTX.map, "test", 2), bridge.sightings_call("saga", 0, (), w)]
    skipped = bridge.deliver(client, opening)
    assert [reason.startswith(bridge.editions.SKIPPED) for _, reason in skipped] == [True]
    c.events[0] = ()
    c.delivered.add(0)
    reports, _word = land_questions.land_inputs(client, w, CTX.map, [])
    assert [r.supplies for r in reports] == [None]  # no stock reported: PATE's stands
    c.close_turn(_orders(c.world, {"BR1TR": ("load+divide", 3, 3), "BR2TR": ("none", 0, 0)}), None, "")
    assert c.delivered == {0, 1}  # delivered, not set aside
    calls = bridge.calls_of("saga", 1, c.events[1], c.starts[1], None)
    again = bridge.deliver(client, calls)
    assert [type(call).__name__ for call, reason in again if reason.startswith(bridge.editions.SKIPPED)] == [
        "CargoMoves"
    ]
    assert stub.asked.count("GetCapabilities") == 1 and stub.asked.count("ReportCargoMoves") == 1
