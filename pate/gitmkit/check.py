"""The conformance suite of gitm.v1 (``pate gitm check --addr HOST:PORT``).

Any GITM land service can run it: it plays, against one campaign and one port
city where at least one unit stands, the calls PATE makes (docs/gitm.md) and
checks what the contract promises: the same id gets the same answer (also
when the copies arrive together), a cancelled transfer moves nothing, an
unknown transfer is NOT_FOUND, a land game's refusals come with reasons,
sightings are kept once, a lost cargo is gone, and no unit is made or lost
on the way; then the same of the city's supplies (pate/gitmkit/supplies.py).
It changes that campaign's land (one unit and a few supplies end lost), so
give it a campaign of its own (the default is a new id each run).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import grpc

from gitm.v1 import land_pb2, land_pb2_grpc
from pate.gitmkit import supplies as gitm_supplies
from pate.gitmkit.rows import CheckFailedError, Row
from pate.gitmkit.rows import expect as _expect
from pate.gitmkit.rows import short as _short

COPIES = 8  # concurrent copies of one call
_REFUSING_CODES = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.NOT_FOUND,
}


@dataclass
class Suite:
    stub: Any  # LandBridgeStub or anything with its methods
    campaign: str
    port: str
    transport: str = "CHECK1TR"
    timeout: float = 5.0
    rows: list[Row] = field(default_factory=list)
    _n: int = 0

    # ---------------------------------------------------------------- calls
    def _id(self, what: str) -> str:
        self._n += 1
        return f"{self.campaign}:check:{what}:{self._n}"

    def begin(
        self,
        tid: str,
        direction: land_pb2.Direction.ValueType,
        units: list[str],
        state: str = "",
        port: str = "",
    ) -> Any:
        return self.stub.BeginTransfer(
            land_pb2.BeginTransferRequest(
                transfer_id=tid,
                campaign_id=self.campaign,
                turn=1,
                port=port or self.port,
                transport_id=self.transport,
                direction=direction,
                units=units,
                state=state,
            ),
            timeout=self.timeout,
        )

    def complete(self, tid: str, cancelled: bool = False) -> Any:
        return self.stub.CompleteTransfer(
            land_pb2.CompleteTransferRequest(transfer_id=tid, cancelled=cancelled), timeout=self.timeout
        )

    def lost_twice(self, what: str, **cargo: Any) -> tuple[Any, Any]:
        """The transport's ``cargo`` reported lost, then the very same report again
        (a retried message): the two answers, of which the second must be a duplicate."""
        request = land_pb2.ReportCargoLossRequest(
            loss_id=self._id(what),
            campaign_id=self.campaign,
            turn=1,
            transport_id=self.transport,
            fate=land_pb2.CARGO_FATE_LOST,
            **cargo,
        )
        return (
            self.stub.ReportCargoLoss(request, timeout=self.timeout),
            self.stub.ReportCargoLoss(request, timeout=self.timeout),
        )

    def get(self, tid: str) -> Any:
        return self.stub.GetTransfer(land_pb2.GetTransferRequest(transfer_id=tid), timeout=self.timeout)

    def city(self) -> dict[str, Any]:
        answer = self.stub.UnitsNear(
            land_pb2.UnitsNearRequest(campaign_id=self.campaign, turn=1, port=self.port), timeout=self.timeout
        )
        return {u.id: u for u in answer.units if u.tactical_square}

    # ---------------------------------------------------------------- running
    def check(self, name: str, fn: Callable[[], str]) -> bool:
        try:
            detail = fn()
            self.rows.append(Row(name, True, detail))
            return True
        except CheckFailedError as exc:
            self.rows.append(Row(name, False, str(exc)))
        except grpc.RpcError as exc:
            code = exc.code().name if isinstance(exc, grpc.Call) else "?"
            details = exc.details() if isinstance(exc, grpc.Call) else str(exc)
            self.rows.append(Row(name, False, f"{code}: {details}"))
        return False

    def run(self) -> list[Row]:
        found: dict[str, Any] = {}

        def setup() -> str:
            found.update(self.city())
            _expect(found, f"no unit in the city of {self.port} for campaign {self.campaign}")
            return f"{len(found)} units in {self.port}"

        if not self.check("setup: units in the city", setup):
            for name in NAMES[1:]:
                self.rows.append(Row(name, False, "not run: no unit to work with"))
            return self.rows
        uid = sorted(found)[0]
        state = found[uid].state
        cells = {"initial": set(found)}
        for name, fn in self._checks(uid, state, cells):
            self.check(name, fn)
        supplies = gitm_supplies.SupplyChecks(self, state).rows()
        (first, measure), rest = supplies[0], supplies[1:]
        if not self.check(first, measure):
            self.rows += [
                Row(name, False, "not run: the city's supplies could not be measured") for name, _ in rest
            ]
            return self.rows
        for name, fn in rest:
            self.check(name, fn)
        return self.rows

    def _checks(
        self, uid: str, state: str, cells: dict[str, set[str]]
    ) -> list[tuple[str, Callable[[], str]]]:
        load, unload = land_pb2.DIRECTION_LOAD, land_pb2.DIRECTION_UNLOAD
        loaded = self._id("load")

        def refused(what: str, tid: str, call: Callable[[], Any]) -> str:
            try:
                status = call()
            except grpc.RpcError as exc:
                if isinstance(exc, grpc.Call) and exc.code() in _REFUSING_CODES and exc.details():
                    return f"{what}: {exc.code().name}: {exc.details()}"
                raise
            if status.accepted:
                self.complete(tid, cancelled=True)  # undo what a broken service took
                raise CheckFailedError(f"{what}: accepted, a land game refuses it")
            named = [r for r in status.refusals if r.item == uid]
            _expect(status.reason and (named or uid in status.reason), f"{what}: refused without a reason")
            return f"{what}: {status.reason}"

        def not_owner() -> str:
            tid = self._id("owner")
            return refused("a unit of another state", tid, lambda: self.begin(tid, load, [uid], state="ZZ"))

        def not_here() -> str:
            tid = self._id("city")
            port = "No-Such-City-" + uuid.uuid4().hex[:6]
            return refused("not in that city", tid, lambda: self.begin(tid, load, [uid], state, port))

        def idempotent_begin() -> str:
            tid = self._id("begin")
            cells["begin"] = {tid}
            first, second = self.begin(tid, load, [uid], state), self.begin(tid, load, [uid], state)
            _expect(first.accepted, f"the first BeginTransfer was refused: {first.reason}")
            _expect(first == second, f"two answers differ: {_short(first)} / {_short(second)}")
            _expect(first.state == land_pb2.TRANSFER_STATE_BEGUN, f"state {first.state}, expected BEGUN")
            got = self.get(tid)
            _expect(got == first, f"GetTransfer differs from BeginTransfer: {_short(got)}")
            return "same answer twice; GetTransfer agrees"

        def cancellation() -> str:
            (tid,) = cells.get("begin") or {""}
            first, second = self.complete(tid, cancelled=True), self.complete(tid, cancelled=True)
            _expect(first == second, f"two answers differ: {_short(first)} / {_short(second)}")
            _expect(
                first.state == land_pb2.TRANSFER_STATE_CANCELLED, f"state {first.state}, expected CANCELLED"
            )
            here = set(self.city())
            _expect(here == cells["initial"], f"the city changed: {sorted(here ^ cells['initial'])}")
            return "cancelled once; nothing moved"

        def unknown() -> str:
            tid = self._id("unknown")
            calls: list[tuple[str, Callable[[], Any]]] = [
                ("CompleteTransfer", lambda: self.complete(tid)),
                ("GetTransfer", lambda: self.get(tid)),
            ]
            for name, call in calls:
                try:
                    call()
                except grpc.RpcError as exc:
                    if isinstance(exc, grpc.Call) and exc.code() == grpc.StatusCode.NOT_FOUND:
                        continue
                    raise
                raise CheckFailedError(f"{name} of an unknown transfer answered OK")
            return "NOT_FOUND"

        def concurrent() -> str:
            with ThreadPoolExecutor(COPIES) as pool:
                begins = list(pool.map(lambda _i: self.begin(loaded, load, [uid], state), range(COPIES)))
                _expect(
                    all(b == begins[0] for b in begins),
                    f"{COPIES} copies of BeginTransfer got different answers",
                )
                _expect(begins[0].accepted, f"BeginTransfer refused: {begins[0].reason}")
                ends = list(pool.map(lambda _i: self.complete(loaded), range(COPIES)))
            _expect(
                all(e == ends[0] for e in ends), f"{COPIES} copies of CompleteTransfer got different answers"
            )
            _expect(
                ends[0].state == land_pb2.TRANSFER_STATE_COMPLETED,
                f"state {ends[0].state}, expected COMPLETED",
            )
            _expect(list(ends[0].units) == [uid], f"completed with units {list(ends[0].units)}")
            here = set(self.city())
            _expect(here == cells["initial"] - {uid}, f"after loading {uid} the city holds {sorted(here)}")
            return f"{COPIES} copies, one transfer; {uid} aboard {self.transport}"

        def embarked() -> str:
            tid = self._id("again")
            return refused("already embarked", tid, lambda: self.begin(tid, load, [uid], state))

        def landing() -> str:
            tid = self._id("unload")
            begun = self.begin(tid, unload, [uid], state)
            _expect(begun.accepted, f"unloading refused: {begun.reason}")
            done = self.complete(tid)
            _expect(
                done.state == land_pb2.TRANSFER_STATE_COMPLETED, f"state {done.state}, expected COMPLETED"
            )
            here = set(self.city())
            _expect(here == cells["initial"], f"after landing the city holds {sorted(here)}")
            return f"{uid} landed again in {self.port}"

        def sightings() -> str:
            rid = self._id("sightings")
            sighting = land_pb2.ShoreSighting(
                port=self.port,
                for_state=state,
                ships=[land_pb2.SightedShip(id="ZZ1SL", state="ZZ", type="SL")],
            )
            request = land_pb2.ReportSightingsRequest(
                report_id=rid, campaign_id=self.campaign, turn=1, sightings=[sighting]
            )
            first = self.stub.ReportSightings(request, timeout=self.timeout)
            second = self.stub.ReportSightings(request, timeout=self.timeout)
            _expect(first.sightings == 1 and not first.duplicate, f"first report: {_short(first)}")
            _expect(second.sightings == 1 and second.duplicate, f"the repeated report: {_short(second)}")
            return "kept once; the repeat is marked duplicate"

        def cargo_moves() -> str:
            # rule 2.5: a divide moves uid to another group; GITM must follow
            other = f"{self.transport}X"
            tid = self._id("load")
            _expect(self.begin(tid, load, [uid], state).accepted, "loading for the move refused")
            self.complete(tid)

            def moves(mid: str, src: str, dst: str) -> Any:
                move = land_pb2.CargoMove(from_transport=src, to_transport=dst, units=[uid])
                request = land_pb2.ReportCargoMovesRequest(
                    move_id=mid, campaign_id=self.campaign, turn=1, moves=[move]
                )
                return self.stub.ReportCargoMoves(request, timeout=self.timeout)

            mid = self._id("moves")
            first, second = moves(mid, self.transport, other), moves(mid, self.transport, other)
            _expect(first.accepted and [list(m.units) for m in first.applied] == [[uid]], _short(first))
            _expect(second.duplicate and list(second.applied) == list(first.applied), _short(second))
            stale = moves(self._id("moves"), self.transport, other)
            _expect(
                not stale.accepted and [r.item for r in stale.refusals] == [uid] and not stale.applied,
                f"a move of {uid}, no longer aboard {self.transport}: {_short(stale)}",
            )
            _expect(moves(self._id("moves"), other, self.transport).accepted, "the move back refused")
            tid = self._id("unload")
            _expect(self.begin(tid, unload, [uid], state).accepted, f"{uid} cannot land after the moves")
            _expect(self.complete(tid).accepted, "landing after the moves not completed")
            return f"{uid} moved once; a move of a unit not aboard refused: {stale.refusals[0].reason}"

        def cargo_loss() -> str:
            tid = self._id("load")
            _expect(self.begin(tid, load, [uid], state).accepted, "loading for the loss refused")
            self.complete(tid)
            first, second = self.lost_twice("loss", units=[uid])
            _expect(first.accepted and list(first.units) == [uid], f"the loss: {_short(first)}")
            _expect(second.duplicate and list(second.units) == [uid], f"the repeated loss: {_short(second)}")
            tid2 = self._id("ghost")
            ghost = self.begin(tid2, unload, [uid], state)
            _expect(not ghost.accepted, f"{uid} was landed after it was lost")
            return f"{uid} lost once"

        def conservation() -> str:
            here = set(self.city())
            _expect(
                here == cells["initial"] - {uid}, f"the city holds {sorted(here)}, expected all but {uid}"
            )
            return f"{len(here)} units in {self.port}, {uid} lost: none made, none lost on the way"

        return [
            ("refusal: a unit of another state", not_owner),
            ("refusal: not in that city", not_here),
            ("idempotent begin", idempotent_begin),
            ("cancellation", cancellation),
            ("unknown transfer", unknown),
            ("concurrent duplicates", concurrent),
            ("refusal: already embarked", embarked),
            ("unload", landing),
            ("sightings delivery", sightings),
            ("cargo moves", cargo_moves),
            ("cargo loss", cargo_loss),
            ("conservation", conservation),
        ]


UNIT_NAMES = (
    "setup: units in the city",
    "refusal: a unit of another state",
    "refusal: not in that city",
    "idempotent begin",
    "cancellation",
    "unknown transfer",
    "concurrent duplicates",
    "refusal: already embarked",
    "unload",
    "sightings delivery",
    "cargo moves",
    "cargo loss",
    "conservation",
)
NAMES = UNIT_NAMES + gitm_supplies.NAMES


def run_suite(addr: str, campaign: str, port: str, *, timeout: float = 5.0) -> list[Row]:
    with grpc.insecure_channel(addr) as channel:
        suite = Suite(land_pb2_grpc.LandBridgeStub(channel), campaign, port, timeout=timeout)
        return suite.run()


def table(rows: list[Row]) -> str:
    width = max(len(r.name) for r in rows)
    lines = [f"{'check':<{width}}  result  detail", f"{'-' * width}  ------  ------"]
    lines += [f"{r.name:<{width}}  {'pass' if r.passed else 'FAIL':<6}  {r.detail}" for r in rows]
    passed = sum(r.passed for r in rows)
    lines.append(f"{passed} of {len(rows)} checks passed")
    return "\n".join(lines)
