"""Edition 3 (docs/gitm.md "Port holders"): PATE opens a campaign with its ports' holders, asks
GITM at each turn close who holds each city, and carries every city GITM holds for another state
into the turn's land word as a capture on land; a land service without the call costs nothing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import grpc

from gitm.v1 import land_pb2, reference_admin_pb2
from pate.core.rules.captures import LandCapture
from services.gitm_reference.inprocess import InProcessStub, LocalRpcError, memory_store
from services.resolver import bridge, land_questions
from services.resolver.gitm import GitmClient
from tests.cases.turn.turn_world import CTX, world


def _opened() -> tuple[Any, GitmClient, Any]:
    store = memory_store()
    client = GitmClient("in-process", stub=InProcessStub(store), token="")
    w = replace(world([]), campaign="holders")
    assert bridge.deliver(client, [bridge.open_call(w, CTX.map, "test", 3)]) == []
    return store, client, w


def test_the_open_tells_gitm_every_on_map_city_holder() -> None:
    store, client, w = _opened()
    answer = store.port_holders(land_pb2.PortHoldersRequest(campaign_id="holders", turn=1))
    held = {h.port: h.state for h in answer.holders}
    on_map = {p for p in w.ports if CTX.map.ports[p].on_gitm_map}
    assert set(held) == on_map and held["Brest"] == w.ports["Brest"].controller
    _reports, word = land_questions.land_inputs(client, w, CTX.map, [])
    assert word.captures == ()  # GITM agrees with PATE: nothing changed hands


def test_a_city_taken_on_land_is_a_capture_in_the_land_word() -> None:
    store, client, w = _opened()
    taken = reference_admin_pb2.CityHolder(campaign_id="holders", city="Brest", state="BR")
    store.station(reference_admin_pb2.StationRequest(holders=[taken]))
    _reports, word = land_questions.land_inputs(client, w, CTX.map, [])
    assert word.answered and word.captures == (LandCapture("Brest", "BR", occupied=False),)


class WithoutHolders:
    """An edition-2 land service: it lists no PortHolders."""

    def __init__(self, inner: InProcessStub) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        if name == "GetCapabilities":
            caps = self.inner.GetCapabilities(land_pb2.GetCapabilitiesRequest())
            calls = [c for c in caps.calls if c != "PortHolders"]
            return lambda *a, **k: land_pb2.Capabilities(edition=2, calls=calls)
        return getattr(self.inner, name)


def test_an_edition_2_land_service_is_not_asked_and_nothing_is_captured() -> None:
    store = memory_store()
    client = GitmClient("in-process", stub=WithoutHolders(InProcessStub(store)), token="")
    w = replace(world([]), campaign="holders")
    bridge.deliver(client, [bridge.open_call(w, CTX.map, "test", 3)])
    _reports, word = land_questions.land_inputs(client, w, CTX.map, [])
    assert word.answered and word.captures == ()


class HoldersDown(WithoutHolders):
    """Edition 3, but PortHolders is unreachable at the turn close."""

    def __getattr__(self, name: str) -> Any:
        if name == "PortHolders":

            def down(*a: Any, **k: Any) -> Any:
                raise LocalRpcError(grpc.StatusCode.UNAVAILABLE, "GITM is down")

            return down
        return getattr(self.inner, name)


def test_port_holders_unreachable_counts_as_gitm_not_answering_the_turn() -> None:
    store = memory_store()
    client = GitmClient("in-process", stub=HoldersDown(InProcessStub(store)), token="")
    w = replace(world([]), campaign="holders")
    bridge.deliver(client, [bridge.open_call(w, CTX.map, "test", 3)])
    reports, word = land_questions.land_inputs(client, w, CTX.map, [])
    assert not word.answered and reports == [] and word.captures == ()
