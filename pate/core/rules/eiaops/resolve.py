"""Revealing and resolving the declared operations, in the order declared.

"When a Naval Operation is revealed, all of its effects come into being
immediately": the Naval Superiority contests it joins, the interceptions of
it by operations revealed before, its own effect, and then its interceptions
of enemy operations revealed before it (of those already resolved, on their
Return to Base; never a Rebase that has resolved).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.operation import INTERCEPTORS, OpKind
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eiaops.battle import battle_told, fight
from pate.core.rules.eiaops.effects import resolve_effect
from pate.core.rules.eiaops.model import Declared
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.steps import nearest, shortest_path
from pate.core.world.state import WorldState


@dataclass
class Run:
    ctx: TurnContext
    rules: OpsRules
    eia: EiaRules
    rng: Rng
    world: WorldState
    events: list[Event] = field(default_factory=list)
    revealed: list[Declared] = field(default_factory=list)
    intercepted: set[int] = field(default_factory=set)  # seq of operations intercepted
    size: dict[int, int] = field(default_factory=dict)  # ships each detachment brings
    reach: dict[int, int] = field(default_factory=dict)  # steps each interceptor reaches

    def die(self, faces: int = 6) -> int:
        return self.rng.randint(1, faces)

    def roll(self, purpose: str, faces: int) -> int:
        """A die a rule case may fix by its purpose (pate.core.rng.Rng.roll)."""
        return self.rng.roll(purpose, faces)

    def dice(self, n: int, faces: int = 6) -> int:
        return sum(self.die(faces) for _ in range(n))

    def area(self, node: str) -> str:
        port = self.ctx.map.ports.get(node)
        return port.sea_area if port is not None else node

    def areas(self, node: str) -> set[str]:
        """Every sea area a node opens on (a strait port opens on two, rule 6.3)."""
        port = self.ctx.map.ports.get(node)
        return set(port.reachable_sea_areas) if port is not None else {node}

    def alive(self, d: Declared) -> tuple[str, ...]:
        return tuple(s for s in d.fleet.ships if s in self.world.ships)

    def hostile(self, a: Declared, b: Declared) -> bool:
        return any(self.world.diplomacy.hostile(x, y) for x in a.fleet.states for y in b.fleet.states)

    def emit(self, kind: str, d: Declared, witnesses: tuple[str, ...], **data: Any) -> None:
        self.events.append(Event(Phase.COMBAT, kind, self.alive(d), d.fleet.place, witnesses, data))


def dice_of(run: Run, d: Declared, key: str) -> int:
    """Ships an operation brings: its dice, at most the fleet's ships."""
    spec = run.rules.dice.get(key)
    if spec is None:
        return len(run.alive(d))
    n = (
        run.dice(spec.d6)
        + run.dice(spec.phase_d6 * d.phase_number)
        + run.dice(spec.phase_d3 * d.phase_number, 3)
    )
    return min(len(run.alive(d)), n + spec.ships)


def detachment(run: Run, d: Declared, n: int) -> tuple[str, ...]:
    """``n`` ships of the fleet; of a joint operation, each nation's share in
    proportion to its ships ("chosen from the whole stack using above rules
    and proportional rules"), largest remainder, then by id."""
    ships = run.alive(d)
    by_state: dict[str, list[str]] = {}
    for s in ships:
        by_state.setdefault(run.world.ships[s].state, []).append(s)
    if len(by_state) <= 1:
        return ships[:n]
    total = len(ships)
    shares = {st: n * len(v) // total for st, v in by_state.items()}
    rest = sorted(by_state, key=lambda st: (-(n * len(by_state[st]) % total), st))
    for st in rest[: n - sum(shares.values())]:
        shares[st] += 1
    return tuple(s for st in sorted(by_state) for s in by_state[st][: shares[st]])


def areas_of(run: Run, d: Declared) -> set[str]:
    """The sea areas an operation touches: its base's, its destination's, its
    chain, and every sea area it sails through on the way ("control major
    operations in the sea area": a fleet passing through is in the area)."""
    out = run.areas(d.fleet.place) | set(d.op.chain)
    if d.op.to:
        out |= run.areas(d.op.to) | {n for n in route(run, d) if n in run.ctx.map.sea_areas}
    return out


def route(run: Run, d: Declared) -> tuple[str, ...]:
    """The nodes a Rebase, Transport or Invasion passes from its base to its
    destination: one shortest path in steps, neighbours in sorted order (as
    a trade route's), so the same on every worker.  Kept on the operation."""
    if not d.places and d.op.to:
        path = shortest_path(run.ctx.map, d.fleet.place, {d.op.to}, run.rules.rebase_steps)
        d.places = path or (d.fleet.place, d.op.to)
    return d.places


def reveal(run: Run, d: Declared) -> None:
    run.revealed.append(d)
    run.emit("operation_revealed", d, (), **_declared(d))
    if d.op.kind is OpKind.NAVAL_SUPERIORITY:
        run.world = _charge(run.world, d.fleet.state, run.rules.ns_cost)
        run.size[d.seq] = dice_of(run, d, "naval_superiority")
        run.reach[d.seq] = run.rules.intercept_steps
        _contests(run, d)
    elif d.op.kind in INTERCEPTORS:
        run.size[d.seq] = dice_of(run, d, d.op.kind.value)
        run.reach[d.seq] = _reach(run, d)
    elif d.op.kind is OpKind.PROTECT_TRADE:
        # "Send a detachment to protect your and your allies trade": its
        # (Phase Number)d6 ships, rolled once, are the ships an interceptor
        # meets and the ships that defend raided trade
        run.size[d.seq] = dice_of(run, d, "protect_trade")
    for other in list(run.revealed[:-1]):
        if d.seq not in run.intercepted and _can_intercept(run, other, d):
            attempt(run, other, d)
    if not d.disrupted:
        run.world, events = resolve_effect(run.ctx, run.world, d, run.rules)
        run.events.extend(events)
    d.resolved = True
    for target in list(run.revealed[:-1]):
        if target.seq not in run.intercepted and _can_intercept(run, d, target):
            attempt(run, d, target)


def _declared(d: Declared) -> dict[str, Any]:
    return {
        "seq": d.seq,
        "fleet": d.fleet.lead,
        "states": list(d.fleet.states),
        "operation": d.op.kind.value,
        "phase_number": d.phase_number,
        "to": d.op.to,
        "blockade": d.op.blockade,
        "corps": d.op.corps,
        "chain": list(d.op.chain),
        "returns": d.op.return_to_base,
        "declare_at": d.op.declare_at,
    }


def _charge(world: WorldState, state: str, cost: int) -> WorldState:
    from dataclasses import replace

    treasury = dict(world.treasury)
    treasury[state] = treasury.get(state, 0) - cost
    return replace(world, treasury=treasury)


def _reach(run: Run, d: Declared) -> int:
    if d.op.kind is OpKind.RAID:
        return run.dice(run.rules.raid_dice)
    if d.op.kind is OpKind.PRIVATEER:
        return run.dice(run.rules.privateer_dice)
    return run.rules.intercept_steps


def _can_intercept(run: Run, by: Declared, target: Declared) -> bool:
    """ "Naval superiority, Pirate hunt and Patrol operations can attack enemy
    operations regardless of if they have been performed or not (exception,
    rebase can not attacked after it has resolved)"; a Privateer takes only
    trade; a spent or beaten fleet no longer intercepts."""
    if by.op.kind not in INTERCEPTORS or by.op.kind is OpKind.PRIVATEER:
        return False
    if by.spent or by.beaten or by.disrupted or not run.hostile(by, target):
        return False
    if target.resolved and target.op.kind is OpKind.REBASE:
        return False
    if not run.alive(by) or not run.alive(target):
        return False
    reach = run.reach.get(by.seq, 0)
    return nearest(run.ctx.map, run.areas(by.fleet.place), areas_of(run, target), reach) is not None


def attempt(run: Run, by: Declared, target: Declared) -> None:
    """ "Interception succeeds if intercepting side wins the manouver roll or
    on a tie if intercepting a preferred kind of operation."  Then battle."""
    mine, theirs = (
        run.roll("interception", run.rules.manoeuvre_die),
        run.roll("interception", run.rules.manoeuvre_die),
    )
    preferred = run.rules.prefers(by.op.kind, target.op.kind.value)
    ok = mine > theirs or (mine == theirs and preferred)
    data = {
        "by": by.fleet.lead,
        "by_operation": by.op.kind.value,
        "target": target.fleet.lead,
        "target_operation": target.op.kind.value,
        "rolls": [mine, theirs],
        "preferred": preferred,
        "succeeded": ok,
        # what the players are told of the dice, which never reach them (docs/rules/intel.md 14)
        "on_tie": mine == theirs,
        "return_to_base": target.resolved,
    }
    run.emit("interception", by, run.alive(target), **data)
    if not ok:
        return
    by.spent = True
    run.intercepted.add(target.seq)
    ours = detachment(run, by, run.size.get(by.seq, len(run.alive(by))))
    n = run.size.get(target.seq, len(run.alive(target)))
    sides = (ours, detachment(run, target, n))
    orders = (by.op.columns, target.op.columns)
    run.world, result = fight(run.world, sides, run.rules, run.eia, run.rng, orders=orders)
    where = run.area(target.op.to or target.fleet.place) if target.resolved else run.area(target.fleet.place)
    extra = {"interceptor": by.fleet.lead, "target": target.fleet.lead, "return_to_base": target.resolved}
    run.events.append(battle_told(where, result, "interception", extra))
    if result.winner == 0 and not target.resolved:
        target.disrupted = True


def _contests(run: Run, d: Declared) -> None:
    """ "If the fleets are within 2d6 steps of each other, a combat is joined
    with both sides bringing their 2d6 ships to the combat."  The loser "may
    no longer intercept or take part in Naval Superiority contests"."""
    for other in list(run.revealed[:-1]):
        if d.beaten:
            return
        if other.op.kind is not OpKind.NAVAL_SUPERIORITY or other.beaten or not run.hostile(d, other):
            continue
        if not run.alive(other) or not run.alive(d):
            continue
        reach = run.dice(run.rules.contest_dice)
        apart = nearest(run.ctx.map, run.areas(d.fleet.place), run.areas(other.fleet.place), reach)
        run.emit(
            "contest",
            d,
            run.alive(other) if apart is not None else (),
            against=other.fleet.lead,
            reach=reach,
            joined=apart is not None,
            steps=apart,
        )
        if apart is None:
            continue
        mine, theirs = dice_of(run, d, "contest"), dice_of(run, other, "contest")
        sides = (detachment(run, d, mine), detachment(run, other, theirs))
        orders = (d.op.columns, other.op.columns)
        run.world, result = fight(run.world, sides, run.rules, run.eia, run.rng, orders=orders)
        extra = {"contest": [d.fleet.lead, other.fleet.lead]}
        run.events.append(battle_told(run.area(d.fleet.place), result, "naval_superiority", extra))
        if result.winner == 0:
            other.beaten = True
        elif result.winner == 1:
            d.beaten = True
