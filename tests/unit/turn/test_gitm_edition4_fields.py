"""Edition 4's appended fields on PATE's side and the reference service's (docs/gitm.md "Answers
to the land team's review"): every request names its campaign (P7), and the contract data of
both sides is compared before a campaign opens (A9)."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from gitm.v1 import land_pb2
from pate.core.events import Event, Phase
from pate.gitmkit.contract_data import data_digest
from pate.gitmkit.land import LOAD, Land
from services.gitm_reference.inprocess import InProcessStub, memory_store
from services.platform.bus.consumer import PermanentError
from services.platform.store.failures import REASON_CHARS, failure_reason
from services.resolver import bridge, data_check
from services.resolver.gitm import GitmClient, OpenCampaign
from services.resolver.gitm_calls import transfer_calls


class Recording(InProcessStub):
    """The reference service in process, keeping every request it was sent."""

    def __init__(self, digest: str | None = None) -> None:
        super().__init__(memory_store())
        self.requests: list[Any] = []
        self.digest = digest

    def CompleteTransfer(self, r: Any, **kw: Any) -> Any:  # noqa: N802
        self.requests.append(r)
        return super().CompleteTransfer(r, **kw)

    def GetTransfer(self, r: Any, **kw: Any) -> Any:  # noqa: N802
        self.requests.append(r)
        return super().GetTransfer(r, **kw)

    def OpenCampaign(self, r: Any, **kw: Any) -> Any:  # noqa: N802
        self.requests.append(r)
        return super().OpenCampaign(r, **kw)

    def GetCapabilities(self, r: Any, **kw: Any) -> Any:  # noqa: N802
        caps = super().GetCapabilities(r, **kw)
        if self.digest is not None:
            caps.data_digest = self.digest
        return caps


def _opened(stub: InProcessStub, campaign: str = "p7") -> Land:
    land = Land(stub, campaign, "Portsmouth")
    stub.OpenCampaign(land.open_request())
    return land


def test_pate_names_the_campaign_in_every_completion_and_question() -> None:
    """P7: CompleteTransfer and GetTransfer, the two requests that had no campaign, carry it."""
    stub = Recording()
    land = _opened(stub)
    data = {"gitm": True, "transfer": "p7:1:CHECK1TR:1", "units": ["BR91IN"], "transport": "CHECK1TR",
            "port": "Portsmouth", "direction": "load", "supplies": 0}  # fmt: skip
    begun = Event(Phase.INITIAL_AMPHIBIOUS, "transfer_begun", ("CHECK1TR",), "Portsmouth", data=data)
    done = Event(
        Phase.FINAL_AMPHIBIOUS, "transfer_completed", ("CHECK1TR",), "Portsmouth",
        data={"gitm": True, "transfer": "p7:1:CHECK1TR:1", "cancelled": False},
    )  # fmt: skip
    client = GitmClient("in-process", stub=stub, token="")
    assert bridge.deliver(client, transfer_calls("p7", 1, [begun, done], {"CHECK1TR": "BR"})) == []
    assert client.get("p7:1:CHECK1TR:1", "p7").state == land_pb2.TRANSFER_STATE_COMPLETED
    named = [(type(r).__name__, r.campaign_id) for r in stub.requests[1:]]
    assert named == [("CompleteTransferRequest", "p7"), ("GetTransferRequest", "p7")]
    assert land.city().keys() == {"BR92IN", "FR91IN"}  # BR91IN went aboard


def test_the_reference_refuses_a_transfer_named_under_another_campaign() -> None:
    """P7: another campaign is INVALID_ARGUMENT naming campaign_id and changes nothing; no
    campaign at all (a PATE older than the field) is answered."""
    stub = Recording()
    land = _opened(stub)
    tid = land.new_id("p7")
    assert land.begin(tid, LOAD, ["BR91IN"]).accepted
    for call in (lambda: land.get(tid, "another"), lambda: land.complete(tid, False, "another")):
        with pytest.raises(grpc.RpcError) as caught:
            call()
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "campaign_id" in caught.value.details()
    assert land.get(tid, "").state == land_pb2.TRANSFER_STATE_BEGUN
    assert land.complete(tid, False, "").state == land_pb2.TRANSFER_STATE_COMPLETED


def _open_call(digest: str = "") -> OpenCampaign:
    return OpenCampaign("a9", "conformance", 2, (), (("Portsmouth", "", 4),), (), digest or data_digest())


def test_pate_sends_its_contract_data_digest_with_the_open() -> None:
    stub = Recording()
    assert bridge.deliver(GitmClient("in-process", stub=stub, token=""), [_open_call()]) == []
    (opened,) = stub.requests
    assert opened.data_digest == data_digest() and len(opened.data_digest) == 64


def test_other_contract_data_on_the_land_side_holds_the_open_loudly() -> None:
    """A9: the open is not sent; the message is set aside at once with what the operators do."""
    stub = Recording(digest="0" * 64)
    with pytest.raises(data_check.DataMismatchError) as caught:
        bridge.deliver(GitmClient("in-process", stub=stub, token=""), [_open_call()])
    assert stub.requests == []
    said = str(caught.value)
    assert said.startswith("gitm_data_mismatch: not opened in GITM") and said.endswith("retry --turn 0")
    assert len(failure_reason(caught.value)) < REASON_CHARS  # the game master reads it whole
    assert isinstance(caught.value, PermanentError)


def test_a_land_service_that_says_no_digest_is_not_compared() -> None:
    stub = Recording(digest="")
    assert bridge.deliver(GitmClient("in-process", stub=stub, token=""), [_open_call()]) == []
    assert [type(r).__name__ for r in stub.requests] == ["OpenCampaignRequest"]


def test_the_reference_refuses_an_open_of_other_data_and_repeats_one_of_none() -> None:
    """A land service SHOULD refuse an open whose digest is not its own; the digest is not the
    open's content, so the same open without it is a repeat, not ALREADY_EXISTS."""
    stub = Recording()
    land = Land(stub, "a9r", "Portsmouth")
    request = land.open_request()
    request.data_digest = "f" * 64
    with pytest.raises(grpc.RpcError) as caught:
        stub.OpenCampaign(request)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "data_digest" in caught.value.details()
    request.data_digest = data_digest()
    assert not stub.OpenCampaign(request).duplicate
    request.data_digest = ""
    assert stub.OpenCampaign(request).duplicate
