"""One player's turn: every order the bot admiral gives for him.

``decide(report, world_map, rules, level, seed, turn_kind)`` reads the player's report
(his knowledge, docs/formats/reports.md) and returns his ship orders, and
for a naval minister his store moves and officer assignments.  The same
report, seed and level give the same orders, byte for byte: every choice
is made in a fixed order (ships by id) and every die comes from
``pate.core.rng`` streams of (campaign seed, turn, player, ship).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pate.admiral.cruisers import frigate_orders, transport_orders
from pate.admiral.levels import Level
from pate.admiral.minister import assignments, stores_moves
from pate.admiral.navigation import Chart
from pate.admiral.obey import follow
from pate.admiral.operations import OPERATIONS, with_operations
from pate.admiral.plan import Plan
from pate.admiral.squadrons import LINE, form_squadrons, retreat, squadron_orders
from pate.admiral.standing import Instruction
from pate.admiral.view import OwnShip, Report, read_view
from pate.core.orders.model import Movement, ShipOrder, StoresMove
from pate.core.orders.textout import format_orders
from pate.core.ruledata import RuleData
from pate.core.rules.commerce import CommerceRules
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.movement.params import MovementRules
from pate.core.rules.validation.assign import Assignment
from pate.core.world.geography import WorldMap
from pate.core.world.state import TurnKind


@dataclass(frozen=True, slots=True)
class Decision:
    player: str
    orders: tuple[ShipOrder, ...]
    stores_moves: tuple[StoresMove, ...] = ()
    assignments: tuple[Assignment, ...] = ()

    def orders_text(self) -> str:
        """The orders as an order file (docs/formats/orders.md), as a human
        would send them."""
        return format_orders(self.orders)


def decide(
    report: Report,
    world_map: WorldMap,
    rules: RuleData,
    level: Level,
    seed: int,
    turn_kind: TurnKind = TurnKind.CAMPAIGN,
    combat_rules: str = "pate",
    naval_rules: str = "pate",
    standing: Sequence[Instruction] = (),
) -> Decision:
    """``turn_kind``: whether the coming turn is a campaign or a peace turn
    (6.12), from the campaign's published calendar (the scenario's
    ``turn_kinds``), which every player knows; ``combat_rules``: the
    campaign's combat rule set, as public as its scenario (the level may
    judge its battles otherwise, data/bots.toml); ``naval_rules``: the campaign's naval rule
    set, under which every fleet marker also takes an operation (pate/admiral/operations.py);
    ``standing``: the player's standing instructions (pate/admiral/standing.py), followed
    before the bot's own judgement for the ships they cover (pate/admiral/obey.py)."""
    if not report.get("state"):
        return Decision(str(report["player"]), ())  # the administrator: no ships of his own
    view = read_view(report, world_map)
    chart = Chart(world_map, MovementRules.of(rules), view.winds)
    plan = Plan(view, chart, level.under(combat_rules), seed)
    mine = [s for s in sorted(view.ships, key=lambda s: s.id) if view.mine(s) and s.active]
    orders: list[ShipOrder] = []
    line = [s for s in mine if s.type in LINE and s.lead is None]
    squadrons, alone = form_squadrons(plan, line)
    for sq in squadrons:
        orders += squadron_orders(plan, sq)
    orders += [retreat(plan, s) for s in alone]
    orders += [_attached(plan, s) for s in mine if s.lead is not None and _leaves(plan, s)]
    for s in mine:
        if s.lead is None and s.type == "FR":
            orders.append(frigate_orders(plan, s))
        elif s.lead is None and s.type == "TR":
            orders.append(transport_orders(plan, s))
    if standing and naval_rules != OPERATIONS:  # there fleets move by operations alone: not yet read
        orders = follow(standing, plan, mine, orders)
    if turn_kind is TurnKind.PEACE:
        orders = [_peaceful(o) for o in orders]
    if naval_rules == OPERATIONS:
        orders = with_operations(orders, plan, OpsRules.from_rules(rules), CommerceRules.of(rules))
    return Decision(
        view.player,
        tuple(sorted(orders, key=lambda o: o.ship_id)),
        tuple(stores_moves(plan)),
        tuple(assignments(plan)),
    )


def _leaves(plan: Plan, s: OwnShip) -> bool:
    """An attached ship that must go home (damaged) leaves its squadron (4.4)."""
    return s.damage >= plan.level.repair_damage and not (s.port in plan.friendly_ports and s.harbor)


def _attached(plan: Plan, s: OwnShip) -> ShipOrder:
    return replace(retreat(plan, s), detach=True)


def _peaceful(order: ShipOrder) -> ShipOrder:
    """Rule 6.12: on a peace turn a ship names one sea area or one port."""
    mv = order.movement
    if mv.port is not None:
        mv = Movement(port=mv.port, harbor=mv.harbor)
    elif mv.sea_areas:
        mv = Movement(sea_areas=mv.sea_areas[-1:])
    return replace(order, movement=mv)
