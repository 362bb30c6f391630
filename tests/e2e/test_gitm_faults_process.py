"""The fault campaign of tests/unit/turn/gitm_fault_campaign.py against the reference GITM land service
as its own process (`pate serve gitm-reference`), its faults set through its admin call: GITM
down at the close, slow past the deadline, answers lost after the work. Conservation is checked
in the process's own store."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from gitm.v1 import land_pb2_grpc
from services.gitm_reference.store import LandStore
from services.platform.store.db import make_engine
from tests.support.gitm_reference import Reference, land_channel, reference_process
from tests.unit.turn.gitm_fault_campaign import Campaign, _orders, seed_store
from tests.unit.turn.gitm_fault_checks import assert_conserved

pytestmark = pytest.mark.e2e

LOAD_AND_LAND = {"BR2TR": ("load", 1, 2), "BR1TR": ("unload", 1, 1)}


def _campaign(tmp_path: Path, ref: Reference, channel: grpc.Channel, timeout: float = 5.0) -> Campaign:
    store = LandStore(make_engine(f"sqlite:///{tmp_path / 'gitm-reference.db'}"))
    world = seed_store(store)
    c = Campaign(store, land_pb2_grpc.LandBridgeStub(channel), world, timeout=timeout)
    c.open()  # turn 0: OpenCampaign with the campaign's land, before any fault
    for _ in range(20):  # a short deadline may pass while a fresh process answers its first call
        if c.deliver(0):
            break
    assert c.delivered == {0}
    return c


def _settle(c: Campaign, ref: Reference) -> None:
    ref.faults()  # GITM is back for good
    for _ in range(3):
        c.retry_all()
    assert c.delivered == set(c.events)
    c.close_turn({}, None, "")
    c.retry_all()


@pytest.mark.parametrize("fault", ["down", "slow"])
def test_gitm_down_or_slow_at_the_close_defers_and_conserves(tmp_path: Path, fault: str) -> None:
    with reference_process(tmp_path, scenario="none") as ref, land_channel(ref.addr) as ch:
        c = _campaign(tmp_path, ref, ch, timeout=0.5)
        ref.faults(**({"down_calls": 1000} if fault == "down" else {"delay_seconds": 1.0}))
        c.close_turn(_orders(c.world, LOAD_AND_LAND), None, "")
        assert not [e for e in c.events[1] if e.kind == "transfer_begun"]
        assert [e.kind for e in c.events[1] if e.kind == "transfer_refused"] == ["transfer_refused"] * 2
        _settle(c, ref)
        assert_conserved(c)


def test_answers_lost_after_the_work_and_a_transport_sunk_in_between_conserve(tmp_path: Path) -> None:
    with reference_process(tmp_path, scenario="none") as ref, land_channel(ref.addr) as ch:
        c = _campaign(tmp_path, ref, ch)
        c.close_turn(_orders(c.world, LOAD_AND_LAND), None, "", deliver=False)
        ref.faults(drop_answers=3)  # begin, begin, complete: done in GITM, answers lost
        assert not c.deliver(1)
        c.close_turn(_orders(c.world, {"BR2TR": ("unload", 1, 1), "BR1TR": ("none", 0, 0)}), "BR2TR", "sunk")
        _settle(c, ref)
        assert_conserved(c)
        assert ref.places("saga") == {"BR1IN": "city:Portsmouth", "BR5IN": "lost", "BR6IN": "city:Portsmouth"}
