"""Land events (gitm.v1 edition 4, docs/gitm.md "Land events"; docs/rules/turn.md "Land events
at the close"), end to end through the reference land service in this process: GITM's own rules
destroy, take or empty what PATE relies on, the service lists it by sequence, and PATE applies
it at the next close, once, and tells the player."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import grpc
import pytest

from gitm.v1 import land_pb2
from pate.core.intel.knowledge import knowledge_for
from pate.core.orders.model import Amphibious, ShipOrder
from pate.core.world.state import Player, Role
from pate.reports.events import event_sentence
from services.gitm_reference.holds import HOLD_SECONDS
from services.gitm_reference.store import LandStore, StoreError
from services.resolver import bridge, land_questions
from services.resolver.editions import Capabilities
from services.resolver.gitm import Begin, GitmClient
from services.resolver.land_events import land_events
from tests.cases.turn.turn_world import CTX
from tests.unit.turn.gitm_fault_campaign import start_world
from tests.unit.turn.gitm_restored import CAMPAIGN, restorable

PORT = "Portsmouth"
UNLOAD = {"BR1TR": ShipOrder("BR1TR", amphibious=Amphibious(unload_units=("BR1IN",)))}
LOAD = {"BR2TR": ShipOrder("BR2TR", amphibious=Amphibious(load_units=("BR5IN",), load_supplies=2))}


def _inject(store: LandStore, kind: land_pb2.LandEventKind.ValueType, **fields: Any) -> land_pb2.LandEvent:
    """GITM's own rules act, the bridge stuck past the close's holds (edition 4: while a hold
    lasts they wait, docs/gitm.md "Holds"), so its clock stands past their ten minutes."""
    store.ledger.clock = lambda: time.time() + HOLD_SECONDS + 1
    return store.inject_land_event(CAMPAIGN, land_pb2.LandEvent(kind=kind, **fields))


def _between_begin_and_completion(c, orders) -> None:  # type: ignore[no-untyped-def]
    """The turn resolved; the bridge's begins reach GITM, then GITM's own turn runs (the bridge
    stuck, A4), then the rest of the turn's calls."""
    c.close_turn(orders, None, "", deliver=False)
    turn = c.world.turn - 1
    calls = bridge.calls_of(CAMPAIGN, turn, c.events[turn], c.starts[turn], c.world)
    bridge.deliver(c.client, [x for x in calls if isinstance(x, Begin)])


def _told(c, turn: int, state: str = "BR") -> list[str]:  # type: ignore[no-untyped-def]
    """What the player of ``state`` reads of the turn's land events."""
    players = {"minister": Player("minister", "The Minister", state, frozenset({Role.NAVAL_MINISTER}))}
    before, after = replace(c.starts[turn], players=players), replace(c.world, players=players)
    k = knowledge_for("minister", before, after, c.events[turn], CTX.map, CTX.rules)
    return [event_sentence(k, ev, CTX.map) for ev in k.events if ev.kind == "land_event"]


def test_a_landed_unit_destroyed_while_reserved_fails_its_landing_and_the_player_reads_why(
    tmp_path: Path,
) -> None:
    c = restorable(tmp_path).campaign
    _between_begin_and_completion(c, UNLOAD)
    transfer = f"{CAMPAIGN}:1:BR1TR:1"
    hit = _inject(c.store, land_pb2.LAND_EVENT_UNIT_DESTROYED, unit_id="BR1IN", reason="stormed by FR_3IN")
    assert hit.sequence == 1 and hit.transfer_id == transfer  # the service names the reservation
    c.deliver(1)  # the completion: COMPLETED, moving only what is left
    assert "BR1IN" in c.world.ports[PORT].garrison  # PATE landed it when it resolved turn 1

    c.close_turn({}, None, "")  # turn 2's close reads the feed
    (event,) = [e for e in c.events[2] if e.kind == "land_event"]
    assert event.data["event"] == "unit_destroyed" and event.data["transfer"] == transfer
    assert event.ships == ("BR1TR",) and not event.data["aboard"]
    assert "BR1IN" not in c.world.ports[PORT].garrison and "BR1IN" not in c.world.land_units
    (text,) = _told(c, 2)
    assert "landing of BR1IN at Portsmouth failed" in text and "stormed by FR_3IN" in text

    c.close_turn({}, None, "")  # turn 3: the event is not applied again
    assert not [e for e in c.events[3] if e.kind == "land_event"]


def test_a_unit_taken_while_loading_leaves_the_transport_and_frees_its_space(tmp_path: Path) -> None:
    c = restorable(tmp_path).campaign
    _between_begin_and_completion(c, LOAD)
    ship = c.world.ships["BR2TR"]
    assert "BR5IN" in ship.cargo.units
    _inject(c.store, land_pb2.LAND_EVENT_UNIT_CAPTURED, unit_id="BR5IN", captor="FR")
    c.deliver(1)
    c.close_turn({}, None, "")
    after = c.world.ships["BR2TR"].cargo
    assert "BR5IN" not in after.units and after.supplies == ship.cargo.supplies
    assert after.space < ship.cargo.space  # the unit's room aboard is free again
    (text,) = _told(c, 2)
    assert "BR5IN was taken on land by FR before it embarked" in text
    units = {u.id: u for u in c.store.snapshot(CAMPAIGN).units}
    assert units["BR5IN"].fate == "captured" and units["BR5IN"].transport_id == ""


def test_a_city_taken_on_land_leaves_no_stock_to_load(tmp_path: Path) -> None:
    c = restorable(tmp_path).campaign
    c.close_turn({}, None, "")
    assert c.world.ports[PORT].supplies > 0
    taken = _inject(c.store, land_pb2.LAND_EVENT_CITY_TAKEN, city=PORT, captor="FR")
    assert taken.supplies == c.world.ports[PORT].supplies  # the stock taken with the city
    _, word = land_questions.land_inputs(c.client, c.world, CTX.map, [], after=0)
    assert [e.kind for e in word.land_events] == ["city_taken"] and word.events_after == 1
    c.close_turn({"BR2TR": ShipOrder("BR2TR", amphibious=Amphibious(load_supplies=2))}, None, "")
    (event,) = [e for e in c.events[2] if e.kind == "land_event"]
    assert event.data["event"] == "city_taken" and event.data["supplies"] > 0
    assert c.world.ships["BR2TR"].cargo.supplies == 0  # nothing loaded from a city now FR's
    assert any("can no longer be loaded" in t for t in _told(c, 2))


def test_the_feed_is_read_after_the_last_sequence_and_a_stock_lost_counts_once(tmp_path: Path) -> None:
    c = restorable(tmp_path).campaign
    c.close_turn({}, None, "")
    before = c.world.ports[PORT].supplies
    _inject(c.store, land_pb2.LAND_EVENT_STOCK_LOST, city=PORT, supplies=1, reason="spoiled")
    _, first = land_questions.land_inputs(c.client, c.world, CTX.map, [], after=0)
    _, again = land_questions.land_inputs(c.client, c.world, CTX.map, [], after=first.events_after)
    assert [e.supplies for e in first.land_events] == [1] and again.land_events == ()
    assert again.events_after == first.events_after == 1
    answer = c.client.land_events(CAMPAIGN, 2, 0)
    assert [e.sequence for e in answer.events] == [1] and answer.last_sequence == 1 and not answer.more
    c.close_turn({}, None, "")
    (event,) = [e for e in c.events[2] if e.kind == "land_event"]
    assert event.data["supplies"] == 1 and "spoiled" in _told(c, 2)[0]
    assert c.store.snapshot(CAMPAIGN).units  # the campaign's land is still there
    assert before >= 1


def _code(call) -> tuple[grpc.StatusCode | None, str]:  # type: ignore[no-untyped-def]
    try:
        call()
    except grpc.RpcError as exc:
        assert isinstance(exc, grpc.Call)
        return exc.code(), exc.details() or ""
    return None, ""


def test_bad_questions_and_bad_events_are_refused_naming_the_field_and_change_nothing(
    tmp_path: Path,
) -> None:
    """Hostile input to the new calls of the reference service: a clear error naming the field,
    before any work, and the feed unchanged."""
    c = restorable(tmp_path).campaign
    stub = c.stub
    bad = [
        (
            lambda: stub.ListLandEvents(
                land_pb2.ListLandEventsRequest(campaign_id=CAMPAIGN, after_sequence=-1)
            ),
            "after_sequence",
        ),
        (
            lambda: stub.ListLandEvents(land_pb2.ListLandEventsRequest(campaign_id=CAMPAIGN, limit=-1)),
            "limit",
        ),
        (lambda: stub.ListLandEvents(land_pb2.ListLandEventsRequest(campaign_id="a b")), "campaign_id"),
        (lambda: stub.GetLandSnapshot(land_pb2.GetLandSnapshotRequest(campaign_id="x" * 300)), "campaign_id"),
    ]
    for call, field in bad:
        code, details = _code(call)
        assert code == grpc.StatusCode.INVALID_ARGUMENT and field in details, (code, details)
    # a limit above the page of 500 is refused by its rule in land.proto (docs/gitm.md "Land events")
    above = _code(
        lambda: stub.ListLandEvents(land_pb2.ListLandEventsRequest(campaign_id=CAMPAIGN, limit=501))
    )
    assert above[0] == grpc.StatusCode.INVALID_ARGUMENT and "limit" in above[1]
    never = land_pb2.ListLandEventsRequest(campaign_id=f"{CAMPAIGN}.never-opened")
    assert _code(lambda: stub.ListLandEvents(never))[0] == grpc.StatusCode.NOT_FOUND
    events = [
        (land_pb2.LandEvent(unit_id="BR1IN"), "event.kind"),
        (land_pb2.LandEvent(kind=land_pb2.LAND_EVENT_UNIT_CAPTURED, unit_id="BR1IN"), "event.captor"),
        (land_pb2.LandEvent(kind=land_pb2.LAND_EVENT_UNIT_DESTROYED, unit_id="NO1IN"), "event.unit_id"),
        (land_pb2.LandEvent(kind=land_pb2.LAND_EVENT_STOCK_LOST, city=PORT, reason="a\nb"), "event.reason"),
        (land_pb2.LandEvent(kind=land_pb2.LAND_EVENT_STOCK_LOST, city=PORT, supplies=-1), "event.supplies"),
    ]
    for event, field in events:
        with pytest.raises(StoreError, match=field.replace(".", r"\.")):
            c.store.inject_land_event(CAMPAIGN, event)
    assert c.client.land_events(CAMPAIGN, 1, 0).last_sequence == 0  # nothing was stored


class _Loud:
    """A land service whose feed carries oversized strings and an unknown kind."""

    def ListLandEvents(  # noqa: N802
        self, request: land_pb2.ListLandEventsRequest, **_: object
    ) -> land_pb2.ListLandEventsResponse:
        return land_pb2.ListLandEventsResponse(
            events=[
                land_pb2.LandEvent(sequence=3, kind=land_pb2.LandEventKind.ValueType(99)),
                land_pb2.LandEvent(
                    sequence=4, kind=land_pb2.LAND_EVENT_STOCK_LOST, city=PORT, supplies=10**9,
                    reason="x" * 10_000 + "\nSELECT 1",
                ),
                land_pb2.LandEvent(sequence=2, kind=land_pb2.LAND_EVENT_STOCK_LOST, city=PORT, supplies=1),
            ],
            last_sequence=4,
        )  # fmt: skip


def test_gitms_strings_are_bounded_and_a_kind_pate_does_not_know_is_passed_over() -> None:
    client = GitmClient("loud", stub=_Loud())
    client.capabilities = Capabilities(4, frozenset({"ListLandEvents"}))
    client.capabilities_at = client.clock()
    world = start_world(CAMPAIGN)
    events, cursor = land_events(client, world, client.capabilities, after=2)
    assert cursor == 4 and [e.sequence for e in events] == [4]  # 2 is a repeat, 3 of no kind PATE knows
    (e,) = events
    assert len(e.reason) == 300 and "\n" not in e.reason and e.supplies == 1_000_000
