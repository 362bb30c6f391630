"""What PATE does with a gitm.v1 error's details and codes (docs/gitm.md "What PATE does when
something fails", edition 4): RetryInfo's delay honoured within bounds, RESOURCE_EXHAUSTED and
ABORTED retried with full-jitter back-off and set aside after 20 deliveries, the close's questions
asked once more before a turn's transfers are deferred, a listed call answered UNIMPLEMENTED made
again later rather than lost, and the details' reason, fields and refusal codes in the audit,
never a message in a player's text."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import grpc
import pytest

from gitm.v1 import land_pb2
from pate.core.rules.landsaga import LandTransfer
from pate.gitmkit.status_details import rich_status, trailer
from services.gitm_reference.faults import Faults
from services.gitm_reference.inprocess import InProcessStub, LocalRpcError, memory_store
from services.platform.bus.consumer import BusyError, IdempotentConsumer, TransientError
from services.resolver import bridge, editions, land_questions
from services.resolver.gitm import Begin, CargoMoves, GitmClient
from services.resolver.gitm_errors import GIVE_UP_AFTER, asked_twice
from tests.cases.turn.turn_world import CTX, harbor, ship, world

C = grpc.StatusCode
EDITION_4 = sorted(editions.EDITION_4)


def _error(
    code: grpc.StatusCode, *, retry: float | None = None, reason: str = "", fields: Any = ()
) -> LocalRpcError:
    status = rich_status(code, "as the land side said", reason=reason, retry_after=retry, fields=fields)
    return LocalRpcError(code, status.message, trailer(status))


# the close's other questions, answered with nothing to report
QUIET = {"PortHolders": land_pb2.PortHoldersResponse(), "ListLandEvents": land_pb2.ListLandEventsResponse()}


@dataclass
class Scripted:
    """A land service whose calls answer, in turn, what its script says (an error is raised)."""

    script: dict[str, list[Any]]
    calls: list[str] = field(default_factory=list)
    listed: list[str] = field(default_factory=lambda: list(EDITION_4))

    def __getattr__(self, method: str) -> Callable[..., Any]:
        def call(request: Any, **kw: Any) -> Any:
            self.calls.append(method)
            if method == "GetCapabilities":
                return land_pb2.Capabilities(edition=4, calls=self.listed)
            answers = self.script.get(method) or [QUIET[method]]
            answer = answers.pop(0) if len(answers) > 1 else answers[0]
            if isinstance(answer, Exception):
                raise answer
            return answer

        return call


def _client(stub: Any) -> GitmClient:
    client = GitmClient("in-process", stub=stub, token="")
    client.pause = lambda _s: None
    return client


BEGIN = Begin("c:1:BR1TR:1", "c", 1, "Portsmouth", "BR1TR", "load", ("BR1IN",), 0, "BR")


@pytest.mark.parametrize("code", [C.RESOURCE_EXHAUSTED, C.ABORTED])
def test_a_busy_land_service_is_retried_and_set_aside_after_20_deliveries(code: grpc.StatusCode) -> None:
    client = _client(Scripted({"BeginTransfer": [_error(code, retry=7.5, reason="LAND_BUSY")]}))
    with pytest.raises(BusyError) as busy:
        bridge.deliver(client, [BEGIN])
    assert busy.value.give_up_after == GIVE_UP_AFTER == 20
    assert busy.value.retry_after == 7.5 and "LAND_BUSY" in str(busy.value)


def test_an_outage_carries_its_retry_delay_to_the_consumer() -> None:
    client = _client(Scripted({"BeginTransfer": [_error(C.UNAVAILABLE, retry=3.0)]}))
    with pytest.raises(TransientError) as down:
        bridge.deliver(client, [BEGIN])
    assert down.value.retry_after == 3.0


def _consumer(**kw: Any) -> IdempotentConsumer:
    return IdempotentConsumer(None, None, "d", "s", lambda *_: None, **kw)  # type: ignore[arg-type]


def test_the_back_off_is_full_jitter_floored_by_the_retry_delay_and_bounded() -> None:
    jittered = _consumer(jitter=True)
    jittered.rand = lambda: 0.5
    assert [jittered.retry_delay(n, TransientError()) for n in (1, 2, 3, 6, 9)] == [0.5, 1.0, 2.0, 15.0, 15.0]
    assert jittered.retry_delay(1, TransientError(retry_after=4.0)) == 4.0  # the service's word
    assert jittered.retry_delay(1, BusyError(retry_after=3600.0)) == 30.0  # bounded by the cap
    assert _consumer().retry_delay(3, TransientError()) == 4.0  # without jitter: 1 s doubling


class _Msg:
    def __init__(self, deliveries: int) -> None:
        self.metadata = SimpleNamespace(num_delivered=deliveries)
        self.subject = "pate.turn_resolved.c"
        self.said: list[str] = []

    async def nak(self, delay: float = 0.0) -> None:
        self.said.append("nak")

    async def term(self) -> None:
        self.said.append("term")


@pytest.mark.parametrize(("deliveries", "said"), [(5, "nak"), (19, "nak"), (20, "term")])
def test_busy_is_set_aside_at_the_20th_delivery_not_the_5th(
    deliveries: int, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    consumer = _consumer(jitter=True)
    monkeypatch.setattr(consumer, "_audit_poison", lambda *_: None)
    msg = _Msg(deliveries)
    asyncio.run(consumer._failed(msg, "m", BusyError("busy")))  # type: ignore[arg-type]
    assert msg.said == [said]


def test_an_error_refusing_a_call_is_audited_by_its_reason_and_fields() -> None:
    bad = _error(
        C.INVALID_ARGUMENT, reason="MALFORMED_REQUEST", fields=[("units[0]", "units[0] is required")]
    )
    client = _client(Scripted({"BeginTransfer": [bad]}))
    errors: dict[int, dict[str, object]] = {}
    ((call, reason),) = bridge.deliver(client, [BEGIN], errors)
    assert call == BEGIN and reason == "INVALID_ARGUMENT: as the land side said"
    assert errors == {
        0: {"code": "INVALID_ARGUMENT", "error_reason": "MALFORMED_REQUEST", "error_fields": ["units[0]"]}
    }


def test_refused_items_are_audited_grouped_by_their_codes() -> None:
    refusals = [
        land_pb2.Refusal(item="FR9IN", reason="a unit of FR, not of BR", code="foreign"),
        land_pb2.Refusal(item="BR7IN", reason="no such unit", code="unknown"),
        land_pb2.Refusal(item="supplies", reason="3 asked, 1 free", code="supplies"),
    ]
    status = land_pb2.TransferStatus(
        reason="; ".join(f"{r.item}: {r.reason}" for r in refusals), refusals=refusals
    )
    errors: dict[int, dict[str, object]] = {}
    ((_, reason),) = bridge.deliver(_client(Scripted({"BeginTransfer": [status]})), [BEGIN], errors)
    assert reason.startswith("FR9IN: a unit of FR, not of BR")  # the words the player reads
    assert errors[0] == {
        "refusal_codes": {"foreign": ["FR9IN"], "unknown": ["BR7IN"], "supplies": ["supplies"]}
    }


MOVES = CargoMoves("c:1:cargo-moves", "c", 1, (("BR1TR", "BR2TR", ("BR1IN",), 0),))


def test_a_listed_report_answered_unimplemented_is_made_again_later_not_lost() -> None:
    """P4: capabilities are asked again; while the service still lists the call the turn's calls
    wait (BusyError, so set aside after 20 deliveries at worst); once it serves it, it is sent."""
    moved = land_pb2.ReportCargoMovesResponse(move_id=MOVES.move_id, accepted=True)
    stub = Scripted({"ReportCargoMoves": [LocalRpcError(C.UNIMPLEMENTED, "Method not found!"), moved]})
    client = _client(stub)
    with pytest.raises(BusyError):
        bridge.deliver(client, [MOVES])
    assert stub.calls == ["GetCapabilities", "ReportCargoMoves", "GetCapabilities"]
    assert bridge.deliver(client, [MOVES]) == []  # the next delivery sends it
    assert stub.calls.count("ReportCargoMoves") == 2


def test_a_report_no_longer_listed_once_asked_again_is_skipped_and_audited() -> None:
    stub = Scripted({"ReportCargoMoves": [LocalRpcError(C.UNIMPLEMENTED, "Method not found!")]})
    client = _client(stub)
    bridge.capabilities(client)
    stub.listed = [c for c in EDITION_4 if c != "ReportCargoMoves"]  # the land team withdrew it
    ((_, reason),) = bridge.deliver(client, [MOVES])
    assert reason.startswith(editions.SKIPPED)


def test_a_question_of_the_close_is_asked_once_more_after_an_outage() -> None:
    near = land_pb2.UnitsNearResponse()
    stub = Scripted({"UnitsNear": [_error(C.UNAVAILABLE, retry=0.2), near]})
    client, paused = _client(stub), list[float]()
    client.pause = paused.append
    reports, word = land_questions.land_inputs(
        client, world([ship("BR1SL", harbor("Portsmouth"))]), CTX.map, []
    )
    assert word.answered and [r.port for r in reports] == ["Portsmouth"]
    assert stub.calls.count("UnitsNear") == 2 and paused == [0.2]


@pytest.mark.parametrize(
    "first",
    [
        _error(C.UNAVAILABLE, retry=5.0),  # the service asks more than the close can wait
        _error(C.INTERNAL, reason="INTERNAL_FAULT"),  # not a blip: not asked again
    ],
)
def test_a_question_is_not_asked_again_when_the_wait_does_not_fit_or_the_code_is_no_blip(
    first: Exception,
) -> None:
    stub = Scripted({"GetTransfer": [first, land_pb2.TransferStatus(accepted=True)]})
    client = _client(stub)
    transfer = LandTransfer("c1:3:BR1TR:1", "BR1TR", "load", "Portsmouth", ("BR1IN",))
    _, word = land_questions.land_inputs(client, world([]), CTX.map, [transfer], frozenset({3}))
    assert not word.answered and stub.calls.count("GetTransfer") == 1


def test_the_second_try_gets_what_is_left_of_the_deadline() -> None:
    """Two blips in a row: deferred; the retry's deadline is the first one's remainder."""
    now = [100.0]
    client = _client(Scripted({}))
    client.clock = lambda: now[0]
    deadlines: list[float] = []

    def ask() -> str:
        deadlines.append(client.timeout)
        now[0] += 1.0
        raise _error(C.RESOURCE_EXHAUSTED, retry=0.5)

    with pytest.raises(grpc.RpcError):
        asked_twice(client, ask)
    assert deadlines == [5.0, 3.5] and client.timeout == 5.0


def test_one_outage_of_the_reference_service_no_longer_defers_the_turn() -> None:
    """In process, the reference store down for one call: the close's UnitsNear is asked again."""
    store = memory_store()
    stub = InProcessStub(store, Faults(down_calls=0))
    client = _client(stub)
    bridge.capabilities(client)
    w = world([ship("BR1SL", harbor("Portsmouth"))], campaign="c-down")
    bridge.deliver(client, [bridge.open_call(w, CTX.map, "test", 2)])
    stub.gate.faults.down_calls = 1
    reports, word = land_questions.land_inputs(client, w, CTX.map, [])
    assert word.answered and [r.port for r in reports] == ["Portsmouth"]
