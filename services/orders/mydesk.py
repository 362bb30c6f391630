"""PlayerDesk: what the web Ship Order Desk shows a player (rule 4.1).

The ships the caller may order (rule 2.3, 4.1: commander, deputy, the naval
minister of their state), each with its state, the orders it will carry out
and why (4.1, 4.2, 4.11), and the warnings a commander needs before the
deadline; a naval minister also sees his state's ports (3.5).  Everything is
read from the open turn's world state with the core's own functions.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection

from pate.core.orders.effective import effective_orders
from pate.core.orders.explain import Explanation, explain
from pate.core.orders.operation import Operation
from pate.core.orders.refusal import Refusal
from pate.core.rules.eiaops.choices import legal_operations
from pate.core.rules.eiaops.declare import fleet_of
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.ports import in_friendly_harbor
from pate.core.rules.validation.assign import Assignment, check_assignment
from pate.core.rules.validation.orders import Actor, authority
from pate.core.world.ships import AtSea, InAtlantic, InPort, Ship, describe
from pate.core.world.state import EIA_OPERATIONS, Role, WorldState
from pate.engine.context import turn_context
from pate.v1 import bots_pb2, common_pb2, desk_pb2, orders_pb2
from services.orders import account_seats, confirm, earlyclose, letters, options, pause
from services.orders.mapping import operation_to_pb, order_to_pb
from services.platform.errors import Code, DeskError
from services.platform.store import assignments, bots
from services.platform.store import repository as repo

MAX_ASSIGNMENTS = 200  # ships in one request
ATLANTIC = "Atlantic Ocean"  # the place the movement phase names for arrivals from the crossing (6.11)


def my_campaign(conn: Connection, row: repo.CampaignRow, caller: Actor) -> desk_pb2.MyCampaign:
    world = repo.load_world_cached(conn, row.id, row.turn)
    submitted = repo.submitted_orders(conn, row.id, row.turn)
    mine = {sid: s for sid, s in world.ships.items() if authority(caller, s) is not None}
    effective = effective_orders(world.ships, submitted)
    # explained: the caller's ships, and the leads they copy from (rule 4.2), not the whole map
    wanted = {sid: effective[sid] for sid in mine if sid in effective}
    heads = {e.copied_from: effective[e.copied_from] for e in wanted.values() if e.copied_from in effective}
    explanations = explain(world.ships, {**heads, **wanted})
    ordered = {s.order.ship_id for s in submitted}
    arrived = _arrived_from_atlantic(conn, row.id, row.turn)
    player = world.players.get(caller.player)
    out = desk_pb2.MyCampaign(
        player_id=caller.player,
        player_name=player.name if player else caller.player,
        state=caller.state or "",
        roles=sorted(r.value for r in caller.roles),
    )
    for sid in sorted(mine):
        out.ships.append(
            _ship(world, mine[sid], caller, explanations.get(sid), sid in ordered, sid in arrived)
        )
    if Role.NAVAL_MINISTER in caller.roles and caller.state:
        out.ports.extend(_ports(world, caller.state))
    out.paused = pause.paused(conn, row.id, row.turn)
    _bot_seats(conn, row, caller, out)
    out.confirmed = caller.player in earlyclose.confirmed_players(conn, row.id, row.turn)
    out.early_close.CopyFrom(earlyclose.setting(conn, row.id))
    out.options.CopyFrom(options.options(conn, row.id))
    if out.options.show_ready:
        out.ready.extend(options.ready(conn, row.id, row.turn, world))
    out.unread_messages = letters.unread(conn, row.id, caller.player, caller.state)
    if Role.ADMIN in caller.roles:
        out.players.extend(sorted(world.players))
        out.seats.extend(sorted(pid for pid, p in world.players.items() if p.state))
        out.confirmations.extend(confirm.confirmations(conn, row.id, row.turn, world))
        held = account_seats.seat_holders(conn, row.id)
        out.holders.extend(desk_pb2.SeatHolder(player_id=p, holder=h) for p, h in held.items())
    if Role.NAVAL_MINISTER in caller.roles and caller.state:
        _minister(conn, row, world, caller.state, out)
    return out


def _minister(
    conn: Connection, row: repo.CampaignRow, world: WorldState, state: str, out: desk_pb2.MyCampaign
) -> None:
    """A naval minister's: his state's players, and what he sent this turn (officers, rule 2.3;
    the store moves of rule 3.5, the latest list, which replaced any earlier one)."""
    out.state_players.extend(sorted(p.id for p in world.players.values() if p.state == state))
    out.pending_assignments.extend(
        desk_pb2.OfficerAssignment(ship_id=a.ship_id, commander=a.commander or "", deputy=a.deputy or "")
        for a in assignments.assignments(conn, row.id, row.turn)
        if a.ship_id in world.ships and world.ships[a.ship_id].state == state
    )
    out.pending_stores_moves.extend(
        common_pb2.StoresMoveOrder(origin=m.origin, destination=m.destination, amount=m.amount)
        for m in repo.stores_moves(conn, row.id, row.turn)
        if m.state == state
    )


def _bot_seats(conn: Connection, row: repo.CampaignRow, caller: Actor, out: desk_pb2.MyCampaign) -> None:
    """Whether the bot admiral plays the caller, and for a game master whom it plays (docs/bots.md)."""
    held = bots.bot_players(conn, row.id)
    me = held.get(caller.player)
    out.played_by_bot = (me.reason or "") if me is not None else ""
    out.bot_orders_this_turn = caller.player in bots.bot_request_ids(conn, row.id, row.turn)
    if Role.ADMIN in caller.roles:
        out.bot_seats.extend(
            bots_pb2.BotSeat(player_id=p.player, reason=p.reason, since_turn=p.since_turn or 0)
            for p in held.values()
            if p.reason is not None
        )


def _ship(
    world: WorldState,
    ship: Ship,
    caller: Actor,
    why: Explanation | None,
    has_orders: bool,
    arrived: bool,
) -> desk_pb2.MyShip:
    ctx = turn_context()
    loc = ship.location
    out = desk_pb2.MyShip(
        id=ship.id,
        name=ship.name,
        type=ship.type.value,
        location=describe(loc),
        stores=ship.stores,
        hull=ship.hull,
        rigging=ship.rigging,
        commander=ship.commander or "",
        deputy=ship.deputy or "",
        attached_to=ship.attached_to or "",
        active=ship.active,
        authority=str(authority(caller, ship) or ""),
        has_orders=has_orders,
        capacity=ship.capacity,
        cargo_units=list(ship.cargo.units),
        cargo_supplies=ship.cargo.supplies,
    )
    if isinstance(loc, AtSea):
        out.location_kind, out.sea_area = "sea", loc.area
        out.reachable_sea_areas.extend(sorted(ctx.map.sea_areas[loc.area].adjacent))
    elif isinstance(loc, InPort):
        port = ctx.map.ports[loc.port]
        out.location_kind, out.port, out.harbor, out.sea_area = "port", loc.port, loc.harbor, port.sea_area
        out.reachable_sea_areas.extend(port.reachable_sea_areas)  # rule 6.3: a strait port opens on two
    elif isinstance(loc, InAtlantic):
        out.location_kind, out.sea_area = "atlantic", loc.destination
    if why is not None:
        e = why.effective
        out.effective.CopyFrom(
            orders_pb2.EffectiveOrder(
                order=order_to_pb(e.order), source=e.source.value, copied_from=e.copied_from or ""
            )
        )
        out.explanation.extend(
            desk_pb2.OrderPart(part=p.part, source=p.source.value, reason=p.reason) for p in why.parts
        )
    out.operations.extend(operation_to_pb(op) for op in _operations(world, ship))
    # a ship copying its lead's order (rule 4.2) has orders even when none was sent for it
    copied = why is not None and why.effective.copied_from is not None
    out.warnings.extend(warnings(world, ship, has_orders=has_orders or copied, arrived=arrived))
    if has_orders and copied and why is not None:
        out.warnings.append(
            f"attached to {why.effective.copied_from}: it follows its lead's orders, not the ones sent"
            " for it (rule 4.2); detach it to order it alone"
        )
    return out


def _operations(world: WorldState, ship: Ship) -> list[Operation]:
    """What a fleet's lead may declare under the EiA operations rules (the order form offers these)."""
    if world.naval_rules != EIA_OPERATIONS or ship.attached_to is not None or not ship.active:
        return []
    fleet = fleet_of(world, ship)
    if fleet is None:
        return []
    ctx = turn_context()
    return legal_operations(ctx.map, world, fleet, OpsRules.from_rules(ctx.rules))


def warnings(world: WorldState, ship: Ship, *, has_orders: bool, arrived: bool) -> list[str]:
    """What a commander must know before the deadline, each with its rule."""
    low = int(turn_context().rules.section("supply")["low_stores_warning"])
    out: list[str] = []
    if isinstance(ship.location, InAtlantic):
        out.append(
            f"crossing the Atlantic: arrives in {ship.location.destination} on turn "
            f"{ship.location.arrives_turn}; it takes no orders (rule 6.11)"
        )
        return out
    if not has_orders:
        out.append("no orders yet: it will carry out the default orders (rule 4.11)")
    if ship.stores == 0 and not in_friendly_harbor(world, ship):
        out.append(
            "out of stores: it stops responding to orders and sails"
            " for the nearest friendly harbor (rule 3.4)"
        )
    elif ship.stores <= low:
        out.append(f"stores {ship.stores}: at {low} or fewer it will soon run out (rule 3.4)")
    if ship.hull or ship.rigging:
        out.append(
            f"damaged: hull {ship.hull}, rigging {ship.rigging} (rule 2.2); a friendly yard repairs (3.3)"
        )
    if arrived:
        out.append("just arrived from the Atlantic (rule 6.11)")
    if not ship.active:
        out.append("inactive (rule 2.6)")
    return out


def _arrived_from_atlantic(conn: Connection, campaign: str, turn: int) -> frozenset[str]:
    if turn <= 1:
        return frozenset()
    return frozenset(
        sid
        for ev in repo.load_events(conn, campaign, turn - 1)
        if ev.kind == "arrived" and ev.data.get("came_from") == ATLANTIC
        for sid in ev.ships
    )


def _ports(world: WorldState, state: str) -> Sequence[desk_pb2.MyPort]:
    ctx = turn_context()
    return [
        desk_pb2.MyPort(
            name=name,
            sea_area=ctx.map.ports[name].sea_area,
            stores=p.stores,
            yard=ctx.map.ports[name].yard,
            controller=p.controller,
        )
        for name, p in sorted(world.ports.items())
        if p.controller == state and name in ctx.map.ports
    ]


def assign_officers(
    conn: Connection, campaign: str, turn: int, caller: Actor, items: Sequence[Assignment]
) -> int:
    """Rule 2.3: check every assignment, then store them all or none."""
    row = repo.get_campaign(conn, campaign, lock=True)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    if turn != row.turn or row.status != "OPEN":
        raise DeskError(
            Code.FAILED_PRECONDITION, f"turn: assignments are taken in the open turn ({row.turn})"
        )
    if not items or len(items) > MAX_ASSIGNMENTS:
        raise DeskError(Code.INVALID_ARGUMENT, f"assignments: give 1 to {MAX_ASSIGNMENTS}")
    world = repo.load_world_cached(conn, campaign, turn)
    refusals = tuple(
        Refusal(f"assignments[{i}].{r.field}", r.rule, r.message, r.code)
        for i, a in enumerate(items)
        for r in check_assignment(a, caller, world)
    )
    if refusals:
        raise DeskError(
            Code.PERMISSION_DENIED
            if any(r.code == "permission_denied" for r in refusals)
            else Code.INVALID_ARGUMENT,
            "; ".join(str(r) for r in refusals),
            refusals=refusals,
        )
    assignments.add_assignments(conn, campaign, turn, caller.player, items)
    return len(items)
