"""PATE re-asks a land service what it serves once its last answer is older than
``editions.CAPABILITIES_TTL_SECONDS`` (docs/gitm.md "Versioning"): a land service upgraded while
the resolver runs is used without restarting PATE, and one downgraded is no longer sent the
calls it dropped."""

from __future__ import annotations

from typing import Any

from gitm.v1 import land_pb2
from services.resolver import bridge, editions
from services.resolver.gitm import CloseCampaign, GitmClient

BASE = ["BeginTransfer", "CompleteTransfer", "UnitsNear", "GetTransfer", "GetCapabilities"]


class Upgradable:
    """A land service whose list of calls its operators change between two answers."""

    def __init__(self) -> None:
        self.calls = list(BASE)
        self.asked: list[str] = []

    def GetCapabilities(self, request: Any, **kw: Any) -> land_pb2.Capabilities:  # noqa: N802
        self.asked.append("GetCapabilities")
        return land_pb2.Capabilities(edition=2, calls=self.calls)

    def CloseCampaign(self, request: Any, **kw: Any) -> land_pb2.CloseCampaignResponse:  # noqa: N802
        self.asked.append("CloseCampaign")
        return land_pb2.CloseCampaignResponse(campaign_id=request.campaign_id)


def _client(stub: Upgradable, now: list[float]) -> GitmClient:
    client = GitmClient("in-process", stub=stub, token="")
    client.clock = lambda: now[0]
    return client


def test_an_upgraded_land_service_is_noticed_once_the_answer_is_stale() -> None:
    stub, now = Upgradable(), [1000.0]
    client = _client(stub, now)
    close = CloseCampaign("c", 3)
    (skipped,) = bridge.deliver(client, [close])
    assert skipped[1].startswith(editions.SKIPPED)
    stub.calls.append("CloseCampaign")  # the land team upgrades its service
    now[0] += editions.CAPABILITIES_TTL_SECONDS / 2
    assert bridge.deliver(client, [close]) != []  # still the old answer: not asked again yet
    now[0] += editions.CAPABILITIES_TTL_SECONDS
    assert bridge.deliver(client, [close]) == []
    assert stub.asked == ["GetCapabilities", "GetCapabilities", "CloseCampaign"]


def test_a_downgraded_land_service_is_no_longer_sent_what_it_dropped() -> None:
    stub, now = Upgradable(), [0.0]
    stub.calls.append("CloseCampaign")
    client = _client(stub, now)
    assert bridge.deliver(client, [CloseCampaign("c", 3)]) == []
    stub.calls.remove("CloseCampaign")
    now[0] += editions.CAPABILITIES_TTL_SECONDS + 1
    (skipped,) = bridge.deliver(client, [CloseCampaign("c", 3)])
    assert skipped[1].startswith(editions.SKIPPED)
    assert stub.asked.count("CloseCampaign") == 1
