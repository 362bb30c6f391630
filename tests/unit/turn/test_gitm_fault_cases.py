"""Named fault cases of the GITM transfers, each with conservation proved after it
(docs/gitm.md "Conservation"): GITM down or refusing, a transport lost mid-transfer,
a report held back until earlier transfers settle, a divided group followed."""

from __future__ import annotations

import pytest

from pate.core.rules.landsaga import DEFERRED
from pate.core.world.ships import Cargo
from tests.unit.turn.gitm_fault_campaign import PORT, assert_conserved, play


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
    schedule = ["ok", "refuse", "ok", "ok", "down"]  # turn 2's close: GetTransfer down
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
    schedule = ["ok", "refuse", "ok", "ok", "down"]
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
