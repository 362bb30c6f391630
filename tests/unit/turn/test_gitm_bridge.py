"""The GITM land bridge against the reference land service (services/gitm_reference)
on a real local port, a real database, and (last test) real NATS JetStream with the
idempotent consumer (docs/gitm.md)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import sqlalchemy as sa

from gitm.v1 import land_pb2, land_pb2_grpc, reference_admin_pb2
from pate.core.events import Event, Phase
from pate.core.orders.model import AdminKind, Movement
from pate.core.rules.turn import resolve_turn
from pate.core.world.ships import Cargo
from pate.v1 import events_pb2
from services.platform import bus
from services.platform.bus.consumer import IdempotentConsumer, TransientError
from services.platform.store import repository as repo
from services.platform.store import tables
from services.platform.store.tables import audit
from services.resolver import bridge
from services.resolver.gitm import Begin, CargoLoss, CargoMoves, Complete, Sightings
from tests.cases.turn.turn_world import CTX, admin, harbor, infantry, load, ship, unload, world
from tests.support.aio import eventually, run, unique
from tests.support.gitm_reference import LAND_TOKEN, Reference, land_channel, reference_gitm

BR1IN, FR2IN = infantry("BR1IN", 1000), infantry("FR2IN", 1000)


def _turn_events(campaign: str) -> list[Event]:
    """A real turn: BR1TR unloads at Portsmouth (on-map), FR1TR loads at Martinique (off-map),
    FR2TR's load at Brest is lost when it sails out."""
    ships = [
        ship("BR1TR", harbor("Portsmouth"), cargo=Cargo(("BR1IN",), 2, 1040)),
        ship("FR1TR", harbor("Martinique")),
        ship("FR2TR", harbor("Brest")),
    ]
    units = [BR1IN, infantry("FR1IN", 1000), FR2IN]
    ports = {"Martinique": {"garrison": ("FR1IN",)}, "Brest": {"garrison": ("FR2IN",)}}
    w = world(ships, ports=ports, units=units, campaign=campaign)
    orders = {
        "BR1TR": unload("BR1TR", "BR1IN", supplies=2),
        "FR1TR": load("FR1TR", "FR1IN"),
        "FR2TR": load("FR2TR", "FR2IN", movement=Movement(("ECH",))),
    }
    return list(resolve_turn(CTX, w, orders).events)


def _store(engine: sa.Engine, campaign: str, events: list[Event], *, gitm: bool = True) -> None:
    with engine.begin() as conn:
        repo.insert_campaign(
            conn, repo.CampaignRow(campaign, campaign, "training", 1, 15, 2, "RESOLVED", None, 0, gitm=gitm)
        )
        repo.save_events(conn, campaign, 1, events)
        # turn 0 (the campaign's creation) went through the bridge: turn 1 does not wait for it
        conn.execute(
            tables.processed_messages.insert().values(
                consumer=bridge.DURABLE, msg_id=bus.msg_id(campaign, 0, bus.TURN_RESOLVED)
            )
        )


def _resolved(campaign: str) -> bytes:
    return events_pb2.TurnResolved(
        campaign_id=campaign, turn=1, state_sha256="x", events=1
    ).SerializeToString()


def _stocks(snap: reference_admin_pb2.SnapshotResponse) -> list[tuple[str, int]]:
    """(city or transport, supplies), in the snapshot's order: cities, then transports."""
    return [(s.city or s.transport_id, s.supplies) for s in snap.supplies]


def _land(ref: Reference, campaign: str, *, fr2in: bool = True) -> None:
    ref.aboard(campaign, "BR1TR", [BR1IN], supplies=2)
    if fr2in:
        ref.station(campaign, "Brest", [FR2IN])


@pytest.fixture
def gitm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Reference]:
    with reference_gitm(tmp_path) as ref:
        monkeypatch.setenv("PATE_GITM_ADDR", ref.addr)
        monkeypatch.setenv("PATE_GITM_TOKEN", LAND_TOKEN)
        yield ref


def _state(ref: Reference, tid: str) -> int:
    with land_channel(ref.addr) as ch:
        status = land_pb2_grpc.LandBridgeStub(ch).GetTransfer(land_pb2.GetTransferRequest(transfer_id=tid))
    return int(status.state)


def test_transfer_calls_are_the_on_map_transfers_begin_before_complete() -> None:
    calls = bridge.transfer_calls("c1", 1, _turn_events("c1"))
    assert calls == [
        Begin("c1:1:BR1TR:1", "c1", 1, "Portsmouth", "BR1TR", "unload", ("BR1IN",), 2, "BR"),
        Begin("c1:1:FR2TR:1", "c1", 1, "Brest", "FR2TR", "load", ("FR2IN",), 0, "FR"),
        Complete("c1:1:BR1TR:1", cancelled=False, campaign="c1"),
        Complete("c1:1:FR2TR:1", cancelled=True, campaign="c1"),
    ]


def test_the_bridge_delivers_a_committed_turn_and_a_second_delivery_changes_nothing(
    engine: sa.Engine, gitm: Reference
) -> None:
    campaign = unique()
    _land(gitm, campaign)
    _store(engine, campaign, _turn_events(campaign))
    for _ in range(2):
        with engine.begin() as conn:
            bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    ids = [f"{campaign}:1:BR1TR:1", f"{campaign}:1:FR2TR:1"]
    assert [_state(gitm, i) for i in ids] == [
        land_pb2.TRANSFER_STATE_COMPLETED,
        land_pb2.TRANSFER_STATE_CANCELLED,
    ]
    assert gitm.places(campaign) == {"BR1IN": "city:Portsmouth", "FR2IN": "city:Brest"}
    snap = gitm.snapshot(campaign)
    # landed once, not twice; the emptied transport and the empty city are reported with 0
    assert _stocks(snap) == [("Brest", 0), ("Portsmouth", 2), ("BR1TR", 0)]
    assert snap.sighting_reports == 1  # one report a turn, even a repeated turn


def test_nothing_is_called_without_a_gitm_address(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))
    with reference_gitm(tmp_path) as ref:
        monkeypatch.setenv("PATE_GITM_ADDR", "")
        with engine.begin() as conn:
            bridge.handle_turn_resolved(conn, _resolved(campaign), {})
        with pytest.raises(grpc.RpcError) as err:
            _state(ref, f"{campaign}:1:BR1TR:1")
        assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_a_campaign_created_without_gitm_is_never_sent_to_it(engine: sa.Engine, gitm: Reference) -> None:
    """A campaign's GITM is fixed when it is created: one made where no GITM was configured is
    not sent to a GITM configured since (docs/gitm.md, "Campaigns with and without GITM")."""
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign), gitm=False)
    with engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    with pytest.raises(grpc.RpcError) as err:
        _state(gitm, f"{campaign}:1:BR1TR:1")
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_gitm_unavailable_is_a_transient_error_and_the_retry_completes(
    engine: sa.Engine, gitm: Reference
) -> None:
    campaign = unique()
    _land(gitm, campaign)
    _store(engine, campaign, _turn_events(campaign))
    gitm.faults(down_calls=1)
    with pytest.raises(TransientError), engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    with engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    assert gitm.places(campaign) == {"BR1IN": "city:Portsmouth", "FR2IN": "city:Brest"}


def test_an_answer_lost_after_gitm_did_the_work_is_harmless_on_retry(
    engine: sa.Engine, gitm: Reference
) -> None:
    """GITM lands the units, then its answer is lost: the retry gets the first answer and
    nothing lands twice."""
    campaign = unique()
    _land(gitm, campaign)
    _store(engine, campaign, _turn_events(campaign))
    gitm.faults(drop_answers=3)  # begin, begin, complete: done, answers lost
    with pytest.raises(TransientError), engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    assert gitm.places(campaign)["BR1IN"] == "aboard:BR1TR"
    for _ in range(3):
        try:
            with engine.begin() as conn:
                bridge.handle_turn_resolved(conn, _resolved(campaign), {})
            break
        except TransientError:
            continue
    assert gitm.places(campaign) == {"BR1IN": "city:Portsmouth", "FR2IN": "city:Brest"}
    assert _stocks(gitm.snapshot(campaign)) == [("Brest", 0), ("Portsmouth", 2), ("BR1TR", 0)]


def test_gitm_down_altogether_is_transient(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))
    with reference_gitm(tmp_path) as ref:
        addr = ref.addr  # started and stopped: nothing listens at addr any more
    monkeypatch.setenv("PATE_GITM_ADDR", addr)
    with pytest.raises(TransientError), engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})


def test_a_refused_transfer_is_audited_with_gitms_reason_and_the_others_go_on(
    engine: sa.Engine, gitm: Reference
) -> None:
    campaign = unique()
    _land(gitm, campaign, fr2in=False)  # GITM has no FR2IN: it refuses FR2TR's load
    _store(engine, campaign, _turn_events(campaign))
    with engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(audit.c.action, audit.c.detail_json).where(audit.c.campaign == campaign)
        ).all()
    assert [r.action for r in rows] == [
        "gitm_transfer_refused",
        "gitm_transfer_refused",
    ]  # begin and complete
    assert "FR2IN: no such unit" in rows[0].detail_json
    # edition 4: the refused items grouped by their refusal codes, beside the reason players read
    assert json.loads(rows[0].detail_json)["refusal_codes"] == {"unknown": ["FR2IN"]}
    assert gitm.places(campaign) == {"BR1IN": "city:Portsmouth"}


def _cargo_event(kind: str, transport: str, units: list[str], supplies: int, captor: str = "") -> Event:
    data = {"transport": transport, "units": units, "supplies": supplies, "captor": captor}
    return Event(Phase.COMBAT, kind, (transport,), "CHA", (), data)


def test_cargo_lost_and_cargo_captured_events_tell_gitm_once(engine: sa.Engine, gitm: Reference) -> None:
    """The core's cargo_lost (sunk, foundered) and cargo_captured (taken) events become
    ReportCargoLoss calls; a second delivery of the turn changes nothing."""
    campaign = unique()
    gitm.aboard(campaign, "BR1TR", [BR1IN], supplies=3)
    gitm.aboard(campaign, "FR2TR", [FR2IN], supplies=0)
    events = [
        _cargo_event("cargo_lost", "BR1TR", ["BR1IN"], 3),
        _cargo_event("cargo_captured", "FR2TR", ["FR2IN"], 0, captor="BR"),
    ]
    assert bridge.cargo_calls(campaign, 1, events) == [
        CargoLoss(f"{campaign}:1:BR1TR:cargo", campaign, 1, "BR1TR", False, ("BR1IN",), 3, ""),
        CargoLoss(f"{campaign}:1:FR2TR:cargo", campaign, 1, "FR2TR", True, ("FR2IN",), 0, "BR"),
    ]
    _store(engine, campaign, events)
    for _ in range(2):
        with engine.begin() as conn:
            bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    assert gitm.places(campaign) == {"BR1IN": "lost", "FR2IN": "captured:BR"}
    snap = gitm.snapshot(campaign)
    assert snap.supplies_lost == 3 and _stocks(snap) == [("BR1TR", 0), ("FR2TR", 0)]


def test_rule_5_3_shore_reports_reach_gitm_as_one_sightings_report_per_turn(
    engine: sa.Engine, gitm: Reference
) -> None:
    """Rule 5.3: "Units in the strategic square (whether in the city tactical square or not)
    will receive reports of the ships in the port." """
    campaign = unique()
    shore = Event(
        Phase.INTELLIGENCE,
        "shore_report",
        (),
        "Brest",
        (),
        {"port": "Brest", "for_state": "FR", "ships": ["BR2SL", "BR1TR"]},
    )
    call = bridge.sightings_call(campaign, 1, [shore], None)
    assert call == Sightings(
        f"{campaign}:1:sightings", campaign, 1, (("Brest", "FR", (("BR1TR", "BR", ""), ("BR2SL", "BR", ""))),)
    )
    _store(engine, campaign, [shore])
    for _ in range(2):
        with engine.begin() as conn:
            bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    snap = gitm.snapshot(campaign)
    assert (snap.sighting_reports, snap.sightings) == (1, 1)


def test_the_bridge_as_a_stage_on_the_bus(engine: sa.Engine, nats_url: str, gitm: Reference) -> None:
    """The one line for services/resolver/main.py, run as the runner would: a durable consumer of
    turn_resolved whose handler is the bridge; a re-published event is skipped."""
    campaign = unique()
    _land(gitm, campaign)
    _store(engine, campaign, _turn_events(campaign))

    async def scenario() -> IdempotentConsumer:
        nc, js = await bus.connect(nats_url, "test")
        await bus.ensure_stream(js)
        consumer = IdempotentConsumer(
            engine, js, unique("d"), bus.subject(bus.TURN_RESOLVED, campaign), bridge.handle_turn_resolved
        )
        headers = {
            bus.MSG_ID_HEADER: bus.msg_id(campaign, 1, bus.TURN_RESOLVED),
            **bus.event_headers(campaign, 1),
        }
        stop = asyncio.Event()
        task = asyncio.create_task(consumer.run(stop))
        for _ in range(2):
            await js.publish(bus.subject(bus.TURN_RESOLVED, campaign), _resolved(campaign), headers=headers)
        await eventually(lambda: consumer.processed == 1)
        stop.set()
        await task
        await nc.drain()
        return consumer

    consumer = run(scenario())
    assert consumer.processed == 1
    assert gitm.places(campaign) == {"BR1IN": "city:Portsmouth", "FR2IN": "city:Brest"}


def test_earlier_transfers_are_those_of_a_turn_gitm_was_told_of(engine: sa.Engine) -> None:
    """The resolver asks GITM about last turn's on-map transfers only when GITM was configured
    then (its resolution holds GITM's word); a campaign that gains a GITM does not wait for ever."""
    from pate.core.codec import canonical_json, to_plain
    from pate.core.rules.landsaga import LandTransfer, LandWord
    from services.resolver.stage import earlier_transfers

    campaign = unique()
    _store(engine, campaign, _turn_events(campaign))
    with engine.begin() as conn:
        repo.save_resolution(conn, campaign, 1, canonical_json({"orders": {}}), "x")
        assert earlier_transfers(conn, campaign, 2) == []
    old = LandTransfer("c:0:BR9TR:1", "BR9TR", "load", "Brest", ("BR9IN",))
    other = unique()
    _store(engine, other, _turn_events(other))
    with engine.begin() as conn:
        word = LandWord(answered=False, pending=(old,))
        repo.save_resolution(conn, other, 1, canonical_json({"orders": {}, "land_word": to_plain(word)}), "x")
        got = earlier_transfers(conn, other, 2)
    assert [(t.transfer, t.cancelled) for t in got] == [
        ("c:0:BR9TR:1", False),
        (f"{other}:1:BR1TR:1", False),
        (f"{other}:1:FR2TR:1", True),  # abandoned by PATE: a refusal of it undoes nothing
    ]


def _divide_events(campaign: str) -> list[Event]:
    """A real turn: Decrès divides FR1TR at Brest (rule 2.5); FR2IN no longer fits in the old
    group and goes across to the new one, FR2TR."""
    cargo = Cargo(("FR1IN", "FR2IN"), 0, 5000)
    units = [infantry("FR1IN", 2500), infantry("FR2IN", 2500)]
    w = world(
        [ship("FR1TR", harbor("Brest"), capacity=6000, crew=600, cargo=cargo)], units=units, campaign=campaign
    )
    return list(resolve_turn(CTX, w, {"FR1TR": admin("FR1TR", AdminKind.DIVIDE, amount=3000)}).events)


def test_a_divided_transport_tells_gitm_which_group_now_holds_its_units(
    engine: sa.Engine, gitm: Reference
) -> None:
    """Conservation (docs/gitm.md invariant 1): after rule 2.5 divides FR1TR with FR2IN
    moved across, GITM holds FR2IN aboard FR2TR, once, after the transfers and losses."""
    campaign = unique()
    gitm.aboard(campaign, "FR1TR", [infantry("FR1IN", 2500), infantry("FR2IN", 2500)])
    events = _divide_events(campaign)
    calls = bridge.calls_of(campaign, 1, events, None, None)
    moves = CargoMoves(f"{campaign}:1:cargo-moves", campaign, 1, (("FR1TR", "FR2TR", ("FR2IN",), 0),))
    assert calls[-2:] == [moves, Sightings(f"{campaign}:1:sightings", campaign, 1, ())]
    _store(engine, campaign, events)
    for _ in range(2):
        with engine.begin() as conn:
            bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    assert gitm.places(campaign) == {"FR1IN": "aboard:FR1TR", "FR2IN": "aboard:FR2TR"}
    with engine.begin() as conn:
        assert conn.execute(sa.select(audit)).all() == []


def test_a_combine_moves_units_and_supplies_and_a_unit_not_aboard_is_refused_and_audited(
    engine: sa.Engine, gitm: Reference
) -> None:
    """Two groups combined (rule 2.5): the removed group's cargo is aboard the one that goes on.
    GITM refuses, with a reason, to move a unit it does not hold aboard the named transport."""
    campaign = unique()
    gitm.aboard(campaign, "FR4TR", [FR2IN], supplies=5)
    moves = {"from": "FR4TR", "to": "FR1TR", "units": ["FR2IN", "FR9IN"], "supplies": 5}
    event = Event(
        Phase.FINAL_AMPHIBIOUS, "groups_combined", ("FR1TR", "FR4TR"), "Brest", (), {"cargo_moves": moves}
    )
    _store(engine, campaign, [event])
    with engine.begin() as conn:
        bridge.handle_turn_resolved(conn, _resolved(campaign), {})
    assert gitm.places(campaign) == {"FR2IN": "aboard:FR1TR"}
    assert [(s.transport_id, s.supplies) for s in gitm.snapshot(campaign).supplies if s.supplies] == [
        ("FR1TR", 5)
    ]
    with engine.begin() as conn:
        rows = conn.execute(sa.select(audit)).all()
    assert [r.action for r in rows] == ["gitm_call_refused"]
    assert "FR9IN: no such unit" in rows[0].detail_json
    assert json.loads(rows[0].detail_json)["refusal_codes"] == {"unknown": ["FR9IN"]}
