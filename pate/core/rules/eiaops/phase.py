"""The operations phase: the campaign's combat phase under ``naval_rules =
"eia-operations"`` (docs/rules/eia-operations.md).

Fleet markers declare, in the declaration sequence; each operation is
revealed and resolved in that order; then the trade ships sail and the
accounts are settled.  Dice: one stream forked from the combat phase's,
drawn in the order of revealing.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.orders.model import Movement, ShipOrder
from pate.core.orders.operation import Operation, OpKind
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eiaops.declare import combine, fleet_of, problem, sequence
from pate.core.rules.eiaops.model import Fleet
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.resolve import Run, reveal
from pate.core.rules.eiaops.tradestep import open_accounts, trade_step
from pate.core.world.state import EIA_OPERATIONS, WorldState


def prepare_orders(world: WorldState, orders: dict[str, ShipOrder]) -> dict[str, ShipOrder]:
    """Under the operations rules a fleet moves only by its operation ("Each
    fleet marker may take one action each turn"): PATE's movement orders are
    set aside, the rest of the order form stands."""
    if world.naval_rules != EIA_OPERATIONS:
        return orders
    return {sid: replace(o, movement=Movement()) if o.movement.moves else o for sid, o in orders.items()}


def operations_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    rules, eia = OpsRules.from_rules(ctx.rules), EiaRules.from_rules(ctx.rules)
    run = Run(ctx, rules, eia, rng.fork("operations"), ts.world)
    open_accounts(run)
    fleets = _declarations(run, ts)
    for d in sequence(combine(run.world, fleets), rules):
        if d.op.kind is OpKind.NAVAL_SUPERIORITY and run.world.treasury.get(d.fleet.state, 0) < rules.ns_cost:
            run.events.append(
                _refused(d.fleet, d.op, f"Naval Superiority costs {rules.ns_cost}$ and the account is spent")
            )
            continue
        reveal(run, d)
    trade_step(run)
    return replace(ts, world=run.world).emit(*run.events)


def _declarations(run: Run, ts: TurnState) -> list[tuple[Fleet, Operation]]:
    out: list[tuple[Fleet, Operation]] = []
    for sid in sorted(ts.world.ships):
        ship = ts.world.ships[sid]
        op = ts.order(sid).operation
        if op is None or ship.attached_to is not None:
            continue  # an attached ship carries its lead's order (rule 4.2): the fleet's, declared once
        fleet = fleet_of(ts.world, ship)
        why = None
        if not ship.active or fleet is None:
            why = "only an active fleet on the map declares an operation"
        elif fleet is not None:
            found = problem(run.ctx.map, ts.world, fleet, op, run.rules)
            why = str(found) if found is not None else None
        if why is not None or fleet is None:
            run.events.append(_refused(fleet or Fleet(sid, ship.state, (sid,), "", True), op, why or ""))
            continue
        out.append((fleet, op))
    return out


def _refused(fleet: Fleet, op: Operation, why: str) -> Event:
    data = {"fleet": fleet.lead, "operation": op.kind.value, "reason": why}
    return Event(Phase.COMBAT, "operation_refused", fleet.ships, fleet.place, (), data)
