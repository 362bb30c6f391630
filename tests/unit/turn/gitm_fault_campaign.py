"""The campaign under faults that the GITM fault tests play: a small campaign at
Portsmouth, the reference land store behind a gitm.v1 client that meets a scheduled fault
on every call, and the conservation check (docs/gitm.md "Conservation")."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import grpc

from pate.core.campaign import resolve_effective
from pate.core.events import Event, Phase
from pate.core.orders.effective import EffectiveOrder, Source
from pate.core.orders.model import AdminKind, AdminOrder, Amphibious, ShipOrder
from pate.core.rules import turn as turn_module
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.landsaga import LandTransfer
from pate.core.rules.transport import SpaceRules, unit_space
from pate.core.world.ships import Cargo
from pate.core.world.state import WorldState
from services.gitm_reference import tables as gt
from services.gitm_reference.inprocess import LocalRpcError, memory_store
from services.gitm_reference.store import LandStore, StoreError
from services.platform.bus.consumer import TransientError
from services.resolver import bridge, land_questions
from services.resolver.gitm import GitmClient
from tests.cases.turn.turn_world import CTX, harbor, infantry, ship, world

PORT = "Portsmouth"
UNITS = {u.id: u for u in (infantry("BR1IN", 900), infantry("BR5IN", 800), infantry("BR6IN", 600))}
TRANSPORTS = ("BR1TR", "BR2TR")
# "restart": the land service restarts just before the call (all it holds in memory gone)
FAULTS = ("ok",) * 4 + ("down", "slow", "lost", "dup", "refuse", "restart")
# one engine for every example: SQLAlchemy caches compiled statements per engine
ENGINE = memory_store().engine
SUPPLIES = 6  # in Portsmouth and aboard, at the start
MIN_GROUP = 2000  # data/rules/orders.toml transport_capacity_min (rule 2.5)


def start_world(campaign: str) -> WorldState:
    space = SpaceRules.of(CTX.rules)
    aboard = Cargo(("BR1IN",), 2, unit_space(UNITS["BR1IN"], space) + 2 * space.per_supply)
    ships = [ship("BR1TR", harbor(PORT), cargo=aboard), ship("BR2TR", harbor(PORT))]
    ports = {PORT: {"garrison": ("BR5IN", "BR6IN"), "supplies": SUPPLIES - 2}}
    return world(ships, ports=ports, units=UNITS.values(), campaign=campaign)


class FaultyStub:
    """LandBridgeStub over the store; each call meets the next fault of the schedule."""

    def __init__(self, store: LandStore, schedule: Sequence[str]) -> None:
        self.store = store
        self.schedule: Iterator[str] = iter(schedule)
        self.calls = 0

    def _do(self, method: str, work: Any) -> Any:
        self.calls += 1
        fault = next(self.schedule, "ok")
        if fault == "restart":
            self.store.reopen()
        if fault == "down":
            raise LocalRpcError(grpc.StatusCode.UNAVAILABLE, "GITM is down")
        try:
            if fault == "refuse" and method == "BeginTransfer":
                self.store.behaviour.refuse_all = True
            answer = work()
            if fault == "dup":  # the same call delivered twice: the second answer is the one heard
                answer = work()
        except StoreError as exc:
            raise LocalRpcError(exc.code, str(exc)) from None
        finally:
            self.store.behaviour.refuse_all = False
        if fault == "lost":
            raise LocalRpcError(grpc.StatusCode.UNAVAILABLE, "the answer was lost")
        if fault == "slow":  # GITM did the work after PATE's deadline passed
            raise LocalRpcError(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline exceeded")
        return answer

    def BeginTransfer(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("BeginTransfer", lambda: self.store.begin(r))

    def CompleteTransfer(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("CompleteTransfer", lambda: self.store.complete(r))

    def GetTransfer(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("GetTransfer", lambda: self.store.get(r))

    def UnitsNear(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("UnitsNear", lambda: self.store.units_near(r))

    def ReportSightings(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("ReportSightings", lambda: self.store.report_sightings(r))

    def ReportCargoLoss(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("ReportCargoLoss", lambda: self.store.report_cargo_loss(r))

    def ReportCargoMoves(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("ReportCargoMoves", lambda: self.store.report_cargo_moves(r))

    def GetCapabilities(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("GetCapabilities", self.store.capabilities)

    def OpenCampaign(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("OpenCampaign", lambda: self.store.open_campaign(r))

    def CloseCampaign(self, r: Any, **_: Any) -> Any:  # noqa: N802
        return self._do("CloseCampaign", lambda: self.store.close_campaign(r))

    def PortHolders(self, r: Any, **_: Any) -> Any:  # noqa: N802
        # a question that changes nothing, outside the drawn schedule so that the schedules (and
        # the seeds the regression tests name) keep meaning what they meant before edition 3
        try:
            return self.store.port_holders(r)
        except StoreError as exc:
            raise LocalRpcError(exc.code, str(exc)) from None

    def ListLandEvents(self, r: Any, **_: Any) -> Any:  # noqa: N802
        # edition 4's question, outside the schedule as PortHolders is, for the same reason
        try:
            return self.store.list_land_events(r)
        except StoreError as exc:
            raise LocalRpcError(exc.code, str(exc)) from None

    def GetLandSnapshot(self, r: Any, **_: Any) -> Any:  # noqa: N802
        try:
            return self.store.land_snapshot(r)
        except StoreError as exc:
            raise LocalRpcError(exc.code, str(exc)) from None

    def ReleaseHold(self, r: Any, **_: Any) -> Any:  # noqa: N802
        # edition 4's release, outside the schedule as PortHolders is, for the same reason
        try:
            return self.store.release_hold(r)
        except StoreError as exc:
            raise LocalRpcError(exc.code, str(exc)) from None


@contextmanager
def transport_lost(transport: str | None, fate: str) -> Iterator[None]:
    """Stand-in for the combat phase sinking or taking ``transport`` with its cargo (the core's
    cargo_lost / cargo_captured events, BRIEF): after the initial amphibious phase began its
    transfer, before the final one completes it."""
    if transport is None:
        yield
        return

    def sink(ctx: TurnContext, ts: TurnState, rng: Any) -> TurnState:
        lost = ts.world.ships.get(transport)
        if lost is None or not (lost.cargo.units or lost.cargo.supplies):
            return ts  # the core tells of a cargo lost only when there was one
        kind = "cargo_captured" if fate == "captured" else "cargo_lost"
        data = {
            "transport": transport,
            "units": list(lost.cargo.units),
            "supplies": lost.cargo.supplies,
            "captor": "FR" if fate == "captured" else "",
        }
        ships = {k: v for k, v in ts.world.ships.items() if k != transport}
        event = Event(Phase.COMBAT, kind, (transport,), PORT, (), data)
        return replace(ts, world=replace(ts.world, ships=ships)).emit(event)

    original = turn_module.PHASES
    at = [p for p, _ in original].index(Phase.COMBAT) + 1
    turn_module.PHASES = (*original[:at], (Phase.COMBAT, sink), *original[at:])
    try:
        yield
    finally:
        turn_module.PHASES = original


@dataclass
class Campaign:
    store: LandStore
    stub: Any  # FaultyStub, or a LandBridgeStub to the reference service as a process
    world: WorldState
    timeout: float = 5.0
    events: dict[int, tuple[Event, ...]] = field(default_factory=dict)
    starts: dict[int, WorldState] = field(default_factory=dict)
    pending: dict[int, tuple[LandTransfer, ...]] = field(default_factory=dict)
    holds: dict[int, dict[str, tuple[str, int]]] = field(default_factory=dict)  # edition 4, by turn
    delivered: set[int] = field(default_factory=set)
    closed: bool = False
    _client: GitmClient | None = None

    @property
    def client(self) -> GitmClient:
        # one client, as the resolver keeps one per address: it learns the capabilities once
        if self._client is None:
            self._client = GitmClient("in-process", stub=self.stub, timeout=self.timeout)
            self._client.pause = lambda _s: None  # a question of the close asked again: no real wait
        return self._client

    def open(self) -> None:
        """Turn 0: the campaign's creation opens it in GITM with its initial positions."""
        self.events[0] = ()
        self.deliver(0)

    def close_turn(
        self, orders: dict[str, ShipOrder], lost: str | None, fate: str, deliver: bool = True
    ) -> None:
        """The resolver: ask GITM, resolve, commit; then the bridge's first try."""
        turn = self.world.turn
        prev = turn - 1
        earlier = [*self.pending.get(prev, ()), *land_questions.begun_on_map(self.events.get(prev, ()))]
        reports, word = land_questions.land_inputs(self.client, self.world, CTX.map, earlier)
        effective = {sid: EffectiveOrder(o, Source.COMMANDER) for sid, o in orders.items()}
        with transport_lost(lost, fate):
            result = resolve_effective(CTX, self.world, effective, (), reports, word)
        if not word.answered:  # the player is told: every on-map transfer refused as deferred
            for e in result.events:
                assert e.kind != "transfer_begun" or not e.data["gitm"]
        self.starts[turn], self.events[turn], self.pending[turn] = self.world, result.events, word.pending
        self.holds[turn] = {r.port: (r.hold, r.hold_expires_at) for r in reports if r.hold}
        self.world = result.state
        assert_nowhere_twice(self.world)  # at every turn's end, not only once settled
        if deliver:
            self.deliver(turn)

    def deliver(self, turn: int) -> bool:
        """One delivery of a committed turn by the bridge's consumer (it waits for the turn before)."""
        if turn in self.delivered or bridge.must_wait(turn, turn - 1 in self.delivered):
            return turn in self.delivered
        if turn == 0:
            calls: list[Any] = [
                bridge.open_call(self.starts.setdefault(0, self.world), CTX.map, "test", 99),
                bridge.sightings_call(self.world.campaign, 0, (), None),
            ]
        else:
            calls = bridge.calls_of(
                self.world.campaign, turn, self.events[turn], self.starts[turn], None, self.holds.get(turn)
            )
        if turn > 0 and self.closed:
            calls.append(bridge.CloseCampaign(self.world.campaign, turn))
        try:
            bridge.deliver(self.client, calls)
        except TransientError:
            return False
        self.delivered.add(turn)
        return True

    def retry_all(self) -> None:
        for turn in sorted(self.events):
            self.deliver(turn)


def assert_nowhere_twice(w: WorldState) -> None:
    places = [u for p in w.ports.values() for u in p.garrison] + [
        u for s in w.ships.values() for u in s.cargo.units
    ]
    assert len(places) == len(set(places)), f"a unit in two places: {sorted(places)}"


def _orders(w: WorldState, wanted: dict[str, tuple[str, int, int]]) -> dict[str, ShipOrder]:
    out = {}
    garrison = sorted(w.ports[PORT].garrison)
    for sid, (what, mask, supplies) in wanted.items():
        s = w.ships.get(sid)
        if s is None or what == "none":
            continue
        loading = what in ("load", "load+divide")
        pool = garrison if loading else sorted(s.cargo.units)
        units = tuple(u for i, u in enumerate(pool) if mask >> i & 1)
        amph = (
            Amphibious(load_units=units, load_supplies=supplies)
            if loading
            else Amphibious(unload_units=units, unload_supplies=supplies)
        )
        # rule 2.5: the group keeps only the least capacity, so what it loaded goes across
        divide = (
            (AdminOrder(AdminKind.DIVIDE, None, s.capacity - MIN_GROUP),) if what == "load+divide" else ()
        )
        out[sid] = ShipOrder(sid, amphibious=amph, admin=divide)
    return out


def seed_store(store: LandStore) -> WorldState:
    """An empty land side: the campaign's land reaches it by OpenCampaign (turn 0)."""
    with store.engine.begin() as conn:
        for table in reversed(gt.metadata.sorted_tables):
            conn.execute(table.delete())
    return start_world("saga")


def play(
    schedule: Sequence[str],
    turns: Sequence[dict[str, tuple[str, int, int]]],
    losses: Sequence[int],
    retries: Sequence[int],
    *,
    faults_from_turn_0: bool = False,
) -> Campaign:
    """``faults_from_turn_0``: the schedule starts with the campaign's opening (GetCapabilities,
    OpenCampaign, the turn-0 sightings); else it starts with turn 1's calls."""
    store = LandStore(ENGINE)
    w = seed_store(store)
    c = Campaign(store, FaultyStub(store, schedule if faults_from_turn_0 else ()), w)
    c.open()
    if not faults_from_turn_0:
        c.stub.schedule = iter(schedule)
    for i, wanted in enumerate(turns):
        for _ in range(retries[i % len(retries)]):
            c.retry_all()
        lost = losses[i % len(losses)]
        transport = TRANSPORTS[lost % 2] if lost >= 2 else None
        c.close_turn(_orders(c.world, wanted), transport, "captured" if lost >= 4 else "sunk")
    # GITM is back for good: the consumer's retries get through, then a quiet turn settles the saga
    c.stub.schedule = iter(())
    for _ in range(len(turns) + 1):
        c.retry_all()
    assert c.delivered == set(c.events)
    c.closed = True  # the last turn: its calls end with CloseCampaign
    c.close_turn({}, None, "")
    c.retry_all()
    assert c.delivered == set(c.events)
    assert c.store.snapshot("saga").units, "the campaign was opened with its land"
    return c


def random_campaign(seed: int, density: float, n_turns: int) -> Campaign:
    """A fault schedule, orders, losses and retries drawn uniformly from ``seed``
    (hypothesis favours its first choices: "ok", no order, no unit)."""
    rng = random.Random(seed)
    schedule = [rng.choice(FAULTS[4:]) if rng.random() < density else "ok" for _ in range(80)]
    turns = [
        # "load+divide": a refused load whose units a divide carried on to a new group
        # (undone from that group, landsaga.undo_refused; seed 932 once showed it was not)
        {
            t: (rng.choice(["none", "load", "unload", "load+divide"]), rng.randrange(8), rng.randrange(4))
            for t in TRANSPORTS
        }
        for _ in range(n_turns)
    ]
    losses = [rng.choice([0, 0, 0, 0, 2, 3, 4, 5]) for _ in range(n_turns)]
    retries = [rng.choice([0, 0, 1]) for _ in range(n_turns)]
    return play(schedule, turns, losses, retries, faults_from_turn_0=True)
