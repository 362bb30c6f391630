"""The resolver's questions to GITM at a turn close (docs/gitm.md, "What PATE does when
something fails"): any error code is GITM not answering the turn, which still resolves on time;
a transfer GITM does not hold after the bridge made its calls was refused, and is undone."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
import sqlalchemy as sa

from gitm.v1 import land_pb2
from pate.core.rules.landsaga import LandTransfer
from services.platform import bus
from services.platform.store import tables
from services.resolver import bridge, land_questions
from services.resolver.gitm import GitmClient
from tests.cases.turn.turn_world import CTX, harbor, ship, world
from tests.support.aio import unique

TRANSFER = LandTransfer("c1:3:BR1TR:1", "BR1TR", "load", "Portsmouth", ("BR1IN",))


class Refusal(grpc.RpcError, grpc.Call):  # type: ignore[misc]
    """An error answer as grpcio raises it: an RpcError that is also a Call."""

    def __init__(self, code: grpc.StatusCode) -> None:
        self._code = code

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return "as the land side said"


class Land:
    """A land service that answers the questions of a turn close with one error code (and, with
    ``ports``, UnitsNear with an empty city)."""

    def __init__(self, code: grpc.StatusCode, *, ports: bool = False) -> None:
        self.code, self.ports = code, ports

    def GetCapabilities(self, request: Any, **kw: Any) -> land_pb2.Capabilities:  # noqa: N802
        return land_pb2.Capabilities(edition=2, calls=["UnitsNear", "GetTransfer"])

    def UnitsNear(self, request: Any, **kw: Any) -> land_pb2.UnitsNearResponse:  # noqa: N802
        if self.ports:
            return land_pb2.UnitsNearResponse()
        raise Refusal(self.code)

    def GetTransfer(self, request: Any, **kw: Any) -> land_pb2.TransferStatus:  # noqa: N802
        raise Refusal(self.code)


@pytest.mark.parametrize(
    "code",
    [
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.UNIMPLEMENTED,
    ],
)
def test_an_error_code_at_the_close_is_gitm_not_answering_and_the_turn_resolves(
    code: grpc.StatusCode,
) -> None:
    """A ship in an on-map port makes the resolver ask UnitsNear; an error answer, whatever its
    code, must not fail the turn: the land inputs are "not answered" (the deferral rule)."""
    w = world([ship("BR1SL", harbor("Portsmouth"))])
    reports, word = land_questions.land_inputs(
        GitmClient("in-process", stub=Land(code), token=""), w, CTX.map, []
    )
    assert reports == [] and not word.answered


@pytest.mark.parametrize(("told", "refused"), [(False, False), (True, True)])
def test_a_transfer_gitm_does_not_hold_after_the_bridge_made_its_calls_was_refused(
    told: bool, refused: bool
) -> None:
    """GetTransfer answered NOT_FOUND: before the bridge made the turn's calls, GITM has not yet
    heard of the transfer (it stays pending); after, its begin was answered with an error, so
    GITM refused it and PATE undoes it, instead of waiting for it for ever."""
    client = GitmClient("in-process", stub=Land(grpc.StatusCode.NOT_FOUND, ports=True), token="")
    w = world([ship("BR1SL", harbor("Portsmouth"))])
    _, word = land_questions.land_inputs(
        client, w, CTX.map, [TRANSFER], frozenset({3}) if told else frozenset()
    )
    assert [r.transfer.transfer for r in word.refused] == (["c1:3:BR1TR:1"] if refused else [])
    assert [t.transfer for t in word.pending] == ([] if refused else ["c1:3:BR1TR:1"])


def test_a_turn_sent_again_by_an_administrator_counts_as_delivered(engine: sa.Engine) -> None:
    """`pate campaign retry` sends a failed bridge turn again under a fresh id: once the bridge
    has claimed that copy, the next turn's calls no longer wait for the turn (docs/gitm.md)."""
    campaign = unique()
    copies = {
        2: bus.msg_id(campaign, 2, bus.TURN_RESOLVED, "retry-1"),
        3: bus.msg_id(campaign, 3, bridge.DURABLE, "retry", "0123456789abcdef"),
    }
    with engine.begin() as conn:
        for mid in copies.values():
            conn.execute(tables.processed_messages.insert().values(consumer=bridge.DURABLE, msg_id=mid))
        assert bridge.delivered_turns(conn, campaign, [1, 2, 3]) == frozenset({2, 3})
        assert not bridge.must_wait(4, 3 in bridge.delivered_turns(conn, campaign, [3]))


class Holding(Land):
    """A land service that holds, under the transfer's id, a COMPLETED transfer of ``units``."""

    def __init__(self, units: tuple[str, ...], supplies: int = 0) -> None:
        super().__init__(grpc.StatusCode.OK, ports=True)
        self.units, self.supplies = units, supplies

    def GetTransfer(self, request: Any, **kw: Any) -> land_pb2.TransferStatus:  # noqa: N802
        return land_pb2.TransferStatus(
            transfer_id=request.transfer_id,
            accepted=True,
            state=land_pb2.TRANSFER_STATE_COMPLETED,
            units=list(self.units),
            supplies=self.supplies,
        )


@pytest.mark.parametrize(
    ("units", "supplies", "refused"),
    [(("BR1IN",), 0, False), (("BR7IN",), 0, True), (("BR1IN",), 4, True), ((), 0, False)],
)
def test_a_transfer_gitm_holds_with_other_content_is_refused_not_adopted(
    units: tuple[str, ...], supplies: int, refused: bool
) -> None:
    """docs/gitm.md, B19: "a transfer GITM holds under PATE's id with other units or supplies
    than PATE began is not PATE's: PATE takes it as refused and undoes it". The same content
    settles it; an answer carrying no units and no supplies (a service older than the fields)
    tells nothing to compare and settles it too."""
    client = GitmClient("in-process", stub=Holding(units, supplies), token="")
    w = world([ship("BR1SL", harbor("Portsmouth"))])
    _, word = land_questions.land_inputs(client, w, CTX.map, [TRANSFER], frozenset({3}))
    assert word.pending == ()
    assert [r.reason for r in word.refused] == ([land_questions.MISMATCH] if refused else [])


class Lapsed(Land):
    """A land service whose begin was refused: the close's hold had run out."""

    def GetTransfer(self, request: Any, **kw: Any) -> land_pb2.TransferStatus:  # noqa: N802
        reason = "hold_expired: the hold on Portsmouth ended at 1796315169; ask UnitsNear again"
        return land_pb2.TransferStatus(
            transfer_id=request.transfer_id,
            accepted=False,
            state=land_pb2.TRANSFER_STATE_REFUSED,
            reason=reason,
            refusals=[land_pb2.Refusal(item="hold", reason=reason, code="refused")],
        )


def test_a_begin_refused_for_a_lapsed_hold_is_told_in_the_players_words() -> None:
    """docs/gitm.md "Holds": the player reads what happened on land, not the land service's clock
    or the call PATE should make."""
    client = GitmClient("in-process", stub=Lapsed(grpc.StatusCode.OK, ports=True), token="")
    w = world([ship("BR1SL", harbor("Portsmouth"))])
    _, word = land_questions.land_inputs(client, w, CTX.map, [TRANSFER], frozenset({3}))
    (refused,) = word.refused
    assert refused.reason == land_questions.HOLD_LAPSED.format(port="Portsmouth")
    assert "1796315169" not in refused.reason and "UnitsNear" not in refused.reason
