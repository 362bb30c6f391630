"""The supply rows of the gitm.v1 conformance suite (``pate gitm check``).

The contract has no call that reads a city's supplies, so the suite measures
them the way PATE meets them: a load of ``n`` supplies is accepted when ``n``
are free in the city and refused, item ``supplies``, when they are not
(docs/gitm.md, "Answers").  Every probe that is accepted is cancelled at
once, so measuring moves nothing; that is itself checked, since the next
measurement must find the same stock.  With that measure the rows check what
the contract promises of supplies: a load beyond the free stock is refused
with a reason, a begun load reserves its supplies and a cancelled one gives
them back, loaded supplies follow a cargo move once and land again, supplies
lost with a transport are gone, and none are made or lost on the way
(invariant 3: in cities + aboard + lost is constant).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import grpc

from gitm.v1 import land_pb2
from pate.gitmkit.rows import CheckFailedError, expect, short

if TYPE_CHECKING:
    from pate.gitmkit.check import Suite

MOVED = 2  # supplies the rows move (fewer when the city holds fewer)
PROBE_LIMIT = 1 << 16  # a city holding more free supplies cannot be measured by the suite

NAMES = (
    "supplies: the city's free stock",
    "supplies: refusal beyond the free stock",
    "supplies: reserved while begun, back when cancelled",
    "supplies: loaded, moved and landed",
    "supplies: lost with a transport",
    "supplies conservation",
)
LOAD, UNLOAD = land_pb2.DIRECTION_LOAD, land_pb2.DIRECTION_UNLOAD


@dataclass
class SupplyChecks:
    suite: Suite
    state: str  # the state the suite's transport belongs to
    start: int = 0  # free supplies in the city before the supply rows
    moved: int = 0  # supplies the rows move

    # ---------------------------------------------------------------- measuring
    def _supplies(
        self, tid: str, direction: land_pb2.Direction.ValueType, n: int, transport: str = ""
    ) -> Any:
        s = self.suite
        return s.stub.BeginTransfer(
            land_pb2.BeginTransferRequest(
                transfer_id=tid,
                campaign_id=s.campaign,
                turn=1,
                port=s.port,
                transport_id=transport or s.transport,
                direction=direction,
                supplies=n,
                state=self.state,
            ),
            timeout=s.timeout,
        )

    def fits(self, n: int) -> bool:
        """Whether ``n`` supplies are free in the city: a load of them begun, then cancelled."""
        tid = self.suite._id("probe")
        try:
            status = self._supplies(tid, LOAD, n)
        except grpc.RpcError as exc:
            # more than the service lets one transfer ask for: not free either
            if isinstance(exc, grpc.Call) and exc.code() == grpc.StatusCode.INVALID_ARGUMENT and n > 1:
                return False
            raise
        if status.accepted:
            undone = self.suite.complete(tid, cancelled=True)
            expect(
                undone.state == land_pb2.TRANSFER_STATE_CANCELLED,
                f"a probing load of {n} supplies, cancelled: state {undone.state}, expected CANCELLED",
            )
            return True
        expect(
            any(r.item == "supplies" for r in status.refusals),
            f"a load of {n} supplies refused, but not for its supplies: {status.reason}",
        )
        return False

    def free(self) -> int:
        """The city's free supplies: the largest load accepted (doubling, then halving)."""
        n = 1
        while self.fits(n):
            if n >= PROBE_LIMIT:
                raise CheckFailedError(
                    f"a load of {n} supplies from {self.suite.port} was accepted: the service does not "
                    "refuse supplies beyond its stock, or the city holds too many to measure"
                )
            n *= 2
        low, high = n // 2, n  # low fits (or is 0), high does not
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (mid, high) if self.fits(mid) else (low, mid)
        return low

    def free_is(self, expected: int, when: str) -> None:
        if (expected == 0 or self.fits(expected)) and not self.fits(expected + 1):
            return
        raise CheckFailedError(
            f"{when}: {self.free()} free supplies in {self.suite.port}, expected {expected}"
        )

    def none_aboard(self, transport: str, when: str) -> str:
        """An unload of one supply from ``transport`` is refused, item ``supplies``."""
        tid = self.suite._id("empty")
        status = self._supplies(tid, UNLOAD, 1, transport)
        if status.accepted:
            self.suite.complete(tid, cancelled=True)
            raise CheckFailedError(f"{when}: a supply was landed from {transport}, which should hold none")
        items = [r for r in status.refusals if r.item == "supplies"]
        expect(items and status.reason, f"{when}: unloading from {transport} refused without a reason")
        return str(items[0].reason)

    def _load(self, n: int) -> None:
        tid = self.suite._id("supply-load")
        begun = self._supplies(tid, LOAD, n)
        expect(begun.accepted, f"a load of {n} supplies refused: {begun.reason}")
        done = self.suite.complete(tid)
        expect(
            done.state == land_pb2.TRANSFER_STATE_COMPLETED and done.supplies == n,
            f"the load of {n} supplies completed as {short(done)}",
        )

    # ---------------------------------------------------------------- the rows
    def rows(self) -> list[tuple[str, Callable[[], str]]]:
        return list(
            zip(
                NAMES, (self.stock, self.beyond, self.reserved, self.moves, self.loss, self.kept), strict=True
            )
        )

    def stock(self) -> str:
        self.start = self.free()
        expect(self.start >= 1, f"no free supplies in {self.suite.port}: the supply rows need at least one")
        self.moved = min(MOVED, self.start)
        self.free_is(self.start, "measured again")
        return f"{self.start} free supplies in {self.suite.port} (loads begun and cancelled: none moved)"

    def beyond(self) -> str:
        tid = self.suite._id("too-many")
        status = self._supplies(tid, LOAD, self.start + 1)
        if status.accepted:
            self.suite.complete(tid, cancelled=True)
            raise CheckFailedError(f"a load of {self.start + 1} supplies, {self.start} free: accepted")
        items = [r for r in status.refusals if r.item == "supplies"]
        expect(items and status.reason, f"a load beyond the stock refused without a reason: {short(status)}")
        empty = self.none_aboard(self.suite.transport, "before any load")
        return f"a load of {self.start + 1}: {items[0].reason}; a landing from an empty transport: {empty}"

    def reserved(self) -> str:
        s, k = self.suite, self.moved
        tid = s._id("supply-begin")
        begun = self._supplies(tid, LOAD, k)
        expect(
            begun.accepted and begun.state == land_pb2.TRANSFER_STATE_BEGUN and begun.supplies == k,
            f"a load of {k} supplies begun: {short(begun)}",
        )
        expect(s.get(tid) == begun, f"GetTransfer differs from BeginTransfer: {short(s.get(tid))}")
        self.free_is(self.start - k, f"while a load of {k} is begun")
        ended = s.complete(tid, cancelled=True)
        expect(ended.state == land_pb2.TRANSFER_STATE_CANCELLED, f"state {ended.state}, expected CANCELLED")
        self.free_is(self.start, "after the load was cancelled")
        return f"{k} reserved while begun, all {self.start} free again once cancelled"

    def moves(self) -> str:
        s, k = self.suite, self.moved
        other = f"{s.transport}S"
        self._load(k)
        self.free_is(self.start - k, f"after loading {k}")

        def move(mid: str, src: str, dst: str) -> Any:
            request = land_pb2.ReportCargoMovesRequest(
                move_id=mid,
                campaign_id=s.campaign,
                turn=1,
                moves=[land_pb2.CargoMove(from_transport=src, to_transport=dst, supplies=k)],
            )
            return s.stub.ReportCargoMoves(request, timeout=s.timeout)

        mid = s._id("supply-moves")
        first, second = move(mid, s.transport, other), move(mid, s.transport, other)
        expect(first.accepted and [m.supplies for m in first.applied] == [k], f"the move: {short(first)}")
        expect(
            second.duplicate and list(second.applied) == list(first.applied), f"its repeat: {short(second)}"
        )
        stale = move(s._id("supply-moves"), s.transport, other)
        expect(
            not stale.accepted and [r.item for r in stale.refusals] == ["supplies"] and not stale.applied,
            f"a move of {k} supplies {s.transport} no longer holds: {short(stale)}",
        )
        self.none_aboard(s.transport, "after the move")
        expect(move(s._id("supply-moves"), other, s.transport).accepted, "the move back refused")
        tid = s._id("supply-unload")
        landed = self._supplies(tid, UNLOAD, k)
        expect(landed.accepted, f"landing {k} supplies refused: {landed.reason}")
        done = s.complete(tid)
        expect(done.state == land_pb2.TRANSFER_STATE_COMPLETED and done.supplies == k, short(done))
        self.free_is(self.start, f"after landing the {k} again")
        return f"{k} loaded, moved once (the repeat duplicate, a stale move refused), moved back and landed"

    def loss(self) -> str:
        s, k = self.suite, self.moved
        self._load(k)
        first, second = s.lost_twice("supply-loss", supplies=k)
        expect(first.accepted and first.supplies == k and not first.duplicate, f"the loss: {short(first)}")
        expect(second.duplicate and second.supplies == k, f"the repeated loss: {short(second)}")
        self.none_aboard(s.transport, "after the loss")
        return f"{k} supplies lost once with {s.transport}; none left aboard"

    def kept(self) -> str:
        k = self.moved
        self.free_is(self.start - k, "at the end")
        for transport in (self.suite.transport, f"{self.suite.transport}S"):
            self.none_aboard(transport, "at the end")
        return (
            f"{self.start} at the start = {self.start - k} in {self.suite.port} + {k} lost: none made or lost"
        )
