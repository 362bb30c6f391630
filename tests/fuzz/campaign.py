"""Whole campaigns of random orders, through the functions the services run.

Each turn every player sends orders drawn from the world (``tests.fuzz.orders``)
to the order desk's own checks (``services.orders.desk.check_orders``: the
request refused whole on any refusal, as ``SubmitOrders`` does; store moves and
officer assignments as the desk checks them); a request may go as order text
(``format_orders`` then ``parse_orders``).  The accepted orders are resolved as
the resolver does (``resolve_submitted``, which checks the world's invariants,
then ``apply_assignments``), then every player's knowledge is worked out and
some players' reports rendered, as the intel and reports workers do; after
each turn the play-test checks of ``pate.tools.playcheck`` run on the world.

A refusal is an answer; an exception anywhere is a crash, recorded with what
reproduces it (scenario, rule set, seed, turn) and the campaign stops there.
"""

from __future__ import annotations

import random
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from pate.core.campaign import resolve_submitted, start_campaign
from pate.core.codec import from_plain, parse_json, to_plain
from pate.core.events import Event
from pate.core.intel.model import PlayerKnowledge
from pate.core.orders.effective import SubmittedOrder, together
from pate.core.orders.model import ShipOrder, StoresMove
from pate.core.orders.plain import order_to_dict
from pate.core.orders.text import OrderSyntaxError, parse_orders
from pate.core.orders.textout import format_orders
from pate.core.preview.picture import Setting
from pate.core.preview.run import preview
from pate.core.rules.context import TurnContext
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.stores import check_stores_move
from pate.core.rules.validation.assign import Assignment, apply_assignments, check_assignment
from pate.core.world.invariants import world_problems
from pate.core.world.state import COMBAT_RULESETS, Role, WorldState
from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.engine.pipeline import all_knowledge, reports_for
from pate.tools.playcheck import turn_problems
from services.orders.desk import authors, check_orders
from tests.fuzz.operations import OperationMaker
from tests.fuzz.orders import OrderMaker, Submission

SCENARIOS = ("training", "trafalgar", "grand1805")
RULESETS = COMBAT_RULESETS

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Crash:
    scenario: str
    rules: str
    seed: int
    turn: int
    stage: str  # desk, resolve, knowledge, reports
    error: str  # the traceback's last lines
    orders: tuple[dict[str, object], ...] = ()  # the turn's accepted orders (order_to_dict)
    naval: str = "pate"

    def __str__(self) -> str:
        head = (
            f"{self.scenario} / {self.rules} / {self.naval} seed {self.seed} turn {self.turn}, {self.stage}"
        )
        return f"{head}:\n{self.error}"


@dataclass
class Tally:
    turns: int = 0
    sent: Counter[str] = field(default_factory=Counter)  # order kind -> orders sent
    accepted: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    crashes: list[Crash] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # world checks failed after a turn

    def add(self, other: Tally) -> None:
        self.turns += other.turns
        self.sent.update(other.sent)
        self.accepted.update(other.accepted)
        self.refused += other.refused
        self.crashes += other.crashes
        self.problems += other.problems


def kinds(order: ShipOrder) -> Iterator[str]:
    """The parts of the order form an order uses (for the tally)."""
    yield "order"
    if order.movement.moves:
        yield "move"
    if order.attach_to is not None:
        yield "attach"
    if order.detach:
        yield "detach"
    c, k = order.contact, order.combat
    yield f"contact {c.mode}"
    yield f"gauge {c.gauge}"
    if c.minimum is not None or c.maximum is not None:
        yield "contact numbers"
    if not c.join_allies:
        yield "separate"
    if not c.pursue_into_ports:
        yield "not into ports"
    yield f"combat {k.stance}"
    yield from (f"range {k.range}", f"line {k.line}", f"aim {k.aim}", f"flee {k.flee_to}")
    if order.movement.harbor:
        yield "harbor"
    if order.movement.any_enemy_port:
        yield "any enemy port"
    yield f"commerce {order.commerce}"
    if order.stores is not None:
        yield "stores"
    if order.amphibious.load_units or order.amphibious.load_supplies:
        yield "load"
    if order.amphibious.unload_units or order.amphibious.unload_supplies:
        yield "unload"
    for adm in order.admin:
        yield f"admin {adm.kind}"
    if order.operation is not None:
        yield f"operation {order.operation.kind}"
        if order.operation.columns:
            yield "operation columns"


@dataclass
class Turn:
    """What the desk accepted in one turn."""

    orders: list[SubmittedOrder] = field(default_factory=list)
    stores_moves: list[StoresMove] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)


class Campaign:
    def __init__(
        self,
        scenario: str,
        rules: str,
        seed: int,
        *,
        reports: int = 1,
        check_every: int = 1,
        odd: float = 0.15,
        naval: str = "pate",
        previews: int = 0,
    ) -> None:
        """``reports``: players whose reports are rendered each turn (-1: all);
        ``previews``: players who preview their orders each turn (from the
        second turn, against their knowledge of the turn before);
        ``check_every``: the play-test checks every so many turns (0: never;
        the world's own invariants are checked every turn regardless);
        ``naval``: the naval rules (``eia-operations``: lead ships declare operations)."""
        self.scenario, self.rules, self.seed, self.odd, self.naval = scenario, rules, seed, odd, naval
        self.reports, self.check_every = reports, check_every
        self.ctx: TurnContext = turn_context()
        self.rng = random.Random(f"{scenario}/{rules}/{seed}" + ("" if naval == "pate" else f"/{naval}"))
        self.ops_rules = OpsRules.from_rules(self.ctx.rules)
        self.tally = Tally()
        self.previews = previews
        # its own stream, so that previewing never changes the orders the campaign draws
        self.preview_rng = random.Random(f"preview/{scenario}/{rules}/{seed}/{naval}")
        self.knowledge: dict[str, str] = {}

    def play(self, turns: int) -> Tally:
        loaded = load_scenario(self.scenario)
        world = replace(loaded.world, combat_rules=self.rules, naval_rules=self.naval)
        world = start_campaign(self.ctx, world, "fuzz", self.seed, turns, place=loaded.placement == "random")
        for _ in range(turns):
            nxt = self.turn(world)
            if nxt is None:
                break
            world = nxt
        return self.tally

    def turn(self, world: WorldState) -> WorldState | None:
        """One turn; None when it crashed beyond going on."""
        ops = OperationMaker(self.rng, world, self.ctx.map, self.ops_rules)
        maker = OrderMaker(self.rng, world, self.ctx.map, self.odd, ops)
        taken = Turn()
        subs: list[Submission] = []
        for sub in maker.turn():
            subs.append(sub)
            self.desk(world, sub, taken)
        self._previews(world, subs, taken)
        resolved = self._guard(world, "resolve", taken, self._resolve, world, taken)
        if resolved is None:
            return None
        after, events = resolved
        knowledge = self._guard(world, "knowledge", taken, all_knowledge, self.ctx, world, after, events)
        self.knowledge = dict(knowledge or {})
        players = sorted(knowledge or {})
        shown = players if self.reports < 0 else self.rng.sample(players, min(self.reports, len(players)))
        for player in shown:
            assert knowledge is not None
            self._guard(world, "reports", taken, reports_for, self.ctx, knowledge[player])
        self.tally.problems += [f"turn {world.turn}: {p}" for p in world_problems(after, together)]
        if self.check_every and world.turn % self.check_every == 0:
            plain_events = [to_plain(e) for e in events]
            self.tally.problems += turn_problems(world.turn, to_plain(world), to_plain(after), plain_events)
        self.tally.turns += 1
        return after if after.turn <= after.turns else None

    def _resolve(self, world: WorldState, taken: Turn) -> tuple[WorldState, tuple[Event, ...]]:
        result = resolve_submitted(self.ctx, world, taken.orders, taken.stores_moves).result
        return apply_assignments(result.state, taken.assignments), result.events

    def _guard(
        self, world: WorldState, stage: str, taken: Turn, work: Callable[..., T], *args: object
    ) -> T | None:
        try:
            return work(*args)
        except Exception:
            lines = traceback.format_exc().strip().splitlines()[-12:]
            orders = tuple(order_to_dict(s.order) for s in taken.orders)
            crash = Crash(
                self.scenario, self.rules, self.seed, world.turn, stage, "\n".join(lines), orders, self.naval
            )
            self.tally.crashes.append(crash)
            return None

    # -- previews ------------------------------------------------------------

    def _previews(self, world: WorldState, subs: Sequence[Submission], taken: Turn) -> None:
        """Some players preview their drafts of the turn against their last
        knowledge (docs/rules/intel.md, "Previews"): refused or played, never a crash."""
        asking = [s for s in subs if s.actor.player in self.knowledge and s.orders]
        setting = Setting(turns=world.turns, combat_rules=self.rules, naval_rules=self.naval)
        accepted = [s.order for s in taken.orders]
        for sub in self.preview_rng.sample(asking, min(self.previews, len(asking))):
            known: PlayerKnowledge = from_plain(PlayerKnowledge, parse_json(self.knowledge[sub.actor.player]))
            # his drafts as drawn (odd ones among them), then those the desk took
            for drafts in (sub.orders, [o for o in sub.orders if o in accepted]):
                runs = self.preview_rng.randint(1, 3)
                got = self._guard(world, "preview", taken, preview, self.ctx, known, drafts, setting, runs)
                if got is not None:
                    self.tally.sent["preview"] += 1
                    self.tally.accepted["preview refused" if got.refusals else "preview played"] += 1

    # -- the order desk ----------------------------------------------------

    def desk(self, world: WorldState, sub: Submission, taken: Turn) -> None:
        """The player's orders in requests of one to four orders, each
        accepted whole or refused whole; then his store moves and officers."""
        orders = list(sub.orders)
        while orders:
            size = 1 if self.rng.random() < 0.7 else self.rng.randint(2, 4)
            request, orders = orders[:size], orders[size:]
            for order in request:
                self.tally.sent.update(kinds(order))
            sent = self._as_sent(request)
            if sent is None:
                self.tally.refused += len(request)
                continue
            request = sent
            refusals = self._guard(world, "desk", taken, check_orders, world, sub.actor, request)
            if refusals is None or refusals:
                self.tally.refused += len(request)
                continue
            seq = len(taken.orders)
            roles = authors(world, sub.actor, request)
            taken.orders += [
                SubmittedOrder(o, a, seq + i) for i, (o, a) in enumerate(zip(request, roles, strict=True))
            ]
            for order in request:
                self.tally.accepted.update(kinds(order))
        self._minister(world, sub, taken)

    def _as_sent(self, request: Sequence[ShipOrder]) -> list[ShipOrder] | None:
        """A third of the requests go as order text, parsed as the desk
        parses ``orders_text``; what the text cannot carry goes as data."""
        if self.rng.random() > 0.33:
            return list(request)
        try:
            text = format_orders(request)
        except ValueError:
            return list(request)
        try:
            parsed = parse_orders(text)
        except OrderSyntaxError:
            return None  # two orders for one ship in a file: refused whole, as the desk does
        if parsed != list(request):
            self.tally.problems.append(f"order text does not carry the orders back: {text!r}")
        return parsed

    def _minister(self, world: WorldState, sub: Submission, taken: Turn) -> None:
        minister = Role.NAVAL_MINISTER in sub.actor.roles
        for move in sub.stores_moves:
            self.tally.sent["stores move"] += 1
            refused = self._guard(
                world, "desk", taken, check_stores_move, move, world, self.ctx.map, self.ctx.rules
            )
            if minister and refused == []:
                taken.stores_moves.append(move)
                self.tally.accepted["stores move"] += 1
        for a in sub.assignments:
            self.tally.sent["assignment"] += 1
            refused = self._guard(world, "desk", taken, check_assignment, a, sub.actor, world)
            if refused == []:
                taken.assignments.append(a)
                self.tally.accepted["assignment"] += 1


def campaigns(
    turns: int,
    seed: int,
    scenarios: Sequence[str] = SCENARIOS,
    rulesets: Sequence[str] = RULESETS,
    length: int = 15,
) -> Iterator[tuple[str, str, int, int]]:
    """(scenario, rule set, seed, turns) of campaigns of up to ``length``
    turns, the scenarios and rule sets taken in turn, until ``turns`` are
    played; each pair's seeds count up from ``seed``, so that
    ``Campaign(scenario, rules, seed).play(turns)`` repeats any of them."""
    pairs = [(s, r) for r in rulesets for s in scenarios]
    left, i = turns, 0
    while left > 0:
        scenario, rules = pairs[i % len(pairs)]
        n = min(length, left)
        yield scenario, rules, seed + i // len(pairs), n
        left -= n
        i += 1
