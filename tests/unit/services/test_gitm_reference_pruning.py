"""The reference service deletes test campaigns (``conformance-``, ``simulated-``) 30 days after
the last call that named them, and keeps every other campaign whatever its age (docs/gitm.md
A19); the clock is injected, as the holds' is."""

from __future__ import annotations

import grpc
import pytest

from gitm.v1 import land_pb2
from pate.gitmkit.land import Land
from services.gitm_reference.inprocess import InProcessStub, memory_store
from services.gitm_reference.pruning import KEEP_SECONDS

DAY = 24 * 3600


def test_test_campaigns_go_30_days_after_their_last_call_and_others_stay() -> None:
    store = memory_store()
    now = [1_800_000_000.0]
    store.ledger.clock = lambda: now[0]
    stub = InProcessStub(store)
    lands = {
        name: Land(stub, name, "Portsmouth")
        for name in ("conformance-0a1b2c3d", "simulated-0a1b2c3d", "grand")
    }
    for land in lands.values():
        stub.OpenCampaign(land.open_request())
    now[0] += 29 * DAY
    assert store.prune() == []
    lands["conformance-0a1b2c3d"].near()  # a call on day 29 keeps it another 30 days
    now[0] += 2 * DAY
    assert store.prune() == ["simulated-0a1b2c3d"]
    assert not store.snapshot("simulated-0a1b2c3d").units  # its land is gone
    now[0] += KEEP_SECONDS
    assert store.prune() == ["conformance-0a1b2c3d"]
    now[0] += 365 * DAY
    assert store.prune() == []
    assert {u.id for u in lands["grand"].near().units} >= {"BR91IN"}  # PATE's campaign kept
    with pytest.raises(grpc.RpcError) as gone:
        lands["simulated-0a1b2c3d"].near()
    assert gone.value.code() == grpc.StatusCode.NOT_FOUND
    # nothing of a pruned campaign is left: the same id opens anew, not as a repeat
    again = stub.OpenCampaign(lands["simulated-0a1b2c3d"].open_request())
    assert isinstance(again, land_pb2.OpenCampaignResponse) and not again.duplicate
