"""The Ship Order Desk (rule 4.1): who is asking, what they may order, and
storing accepted orders durably and idempotently."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection

from pate.core.codec import to_plain
from pate.core.orders.effective import Author, EffectiveOrder, effective_orders
from pate.core.orders.model import ShipOrder, StoresMove
from pate.core.rules.stores import check_stores_move
from pate.core.rules.validation.orders import Actor, Refusal, authority, validate_order
from pate.core.world.state import Role, WorldState
from pate.engine.context import turn_context
from services.orders import confirm
from services.platform.errors import Code, DeskError
from services.platform.store import repository as repo
from services.platform.telemetry.logging import get_logger

log = get_logger("orders")

MAX_REQUEST_ID = 100  # characters of a client request id
REUSED_REQUEST_ID = "client_request_id: already used for a different request"


def actor_of(row: Any) -> Actor:
    """A player row as the core's rules know an actor."""
    return _actor(row.id, row.state, row.roles_json)


@lru_cache(maxsize=4096)
def _actor(player: str, state: str | None, roles_json: str) -> Actor:
    # Actors are immutable and a player's row rarely changes: each submission used to parse its roles.
    return Actor(player=player, state=state, roles=frozenset(Role(r) for r in json.loads(roles_json)))


def open_turn(conn: Connection, campaign: str, turn: int, *, lock: bool) -> repo.CampaignRow:
    return check_open(repo.get_campaign(conn, campaign, lock=lock), campaign, turn)


def check_open(row: repo.CampaignRow | None, campaign: str, turn: int) -> repo.CampaignRow:
    """Rule 4.1: orders are taken for the campaign's current turn while it is open."""
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    if turn != row.turn:
        raise DeskError(Code.FAILED_PRECONDITION, f"turn: orders are taken for turn {row.turn}, not {turn}")
    if row.status != "OPEN":
        raise DeskError(Code.FAILED_PRECONDITION, f"turn {row.turn} is {row.status}: no orders are taken")
    return row


@dataclass(frozen=True, slots=True)
class Checked:
    """A submission checked outside the write transaction: who sent it, and
    either the refusals or the author role of each order."""

    caller: Actor
    replayed: bool
    refusals: tuple[Refusal, ...] = ()
    roles: tuple[Author, ...] = ()
    stores_moves: tuple[StoresMove, ...] = ()  # rule 3.5, with the minister's state filled in
    campaign: repo.CampaignRow | None = None  # as read (unlocked), for the desk's cache


def check_submission(
    conn: Connection,
    campaign: str,
    turn: int,
    caller: Actor,
    orders: Sequence[ShipOrder],
    client_request_id: str,
    fingerprint: bytes,
    moves: Sequence[tuple[str, str, int]] = (),
) -> Checked:
    """Everything that only reads, for an authenticated caller: the request id
    (the caller's own: another player's id never replays), the turn, and every
    rule of the order form.  Kept out of the write transaction so that
    SQLite's single writer is held only briefly."""
    if not 0 < len(client_request_id) <= MAX_REQUEST_ID:
        raise DeskError(Code.INVALID_ARGUMENT, f"client_request_id: give 1 to {MAX_REQUEST_ID} characters")
    earlier = repo.find_request(conn, campaign, caller.player, client_request_id)
    if earlier is not None:
        if earlier != fingerprint:
            raise DeskError(Code.INVALID_ARGUMENT, REUSED_REQUEST_ID)
        _still_in_command(conn, campaign, turn, caller, orders)
        return Checked(caller, replayed=True)
    if not orders and not moves:
        raise DeskError(Code.INVALID_ARGUMENT, "orders: no order given")
    row = open_turn(conn, campaign, turn, lock=False)
    world = repo.load_world_cached(conn, campaign, turn)
    stores = _stores_moves(caller, moves)
    refusals = tuple(check_orders(world, caller, orders)) + tuple(_check_stores(world, stores))
    roles = () if refusals else authors(world, caller, orders)
    return Checked(caller, replayed=False, refusals=refusals, roles=roles, stores_moves=stores, campaign=row)


def authors(world: WorldState, caller: Actor, orders: Sequence[ShipOrder]) -> tuple[Author, ...]:
    """Rule 2.3: in which capacity the caller orders each ship (checked orders only)."""
    return tuple(authority(caller, world.ships[o.ship_id]) or Author.ADMIN for o in orders)


def _still_in_command(
    conn: Connection, campaign: str, turn: int, caller: Actor, orders: Sequence[ShipOrder]
) -> None:
    """Authority is checked before a replay is answered: a player who lost a ship
    since (captured, command passed on) is not told his old request stands for it."""
    if not orders or not repo.world_exists(conn, campaign, turn):
        return
    world = repo.load_world_cached(conn, campaign, turn)
    lost = sorted(
        {
            o.ship_id
            for o in orders
            if o.ship_id not in world.ships or authority(caller, world.ships[o.ship_id]) is None
        }
    )
    if lost:
        raise DeskError(Code.PERMISSION_DENIED, f"orders: not your ships: {', '.join(lost)}")


def _stores_moves(caller: Actor, moves: Sequence[tuple[str, str, int]]) -> tuple[StoresMove, ...]:
    """Rule 3.5: only a naval minister moves stores, and only his state's."""
    if not moves:
        return ()
    if Role.NAVAL_MINISTER not in caller.roles or caller.state is None:
        raise DeskError(Code.PERMISSION_DENIED, "stores_moves: only a naval minister moves stores (rule 3.5)")
    return tuple(
        StoresMove(caller.state, origin, destination, amount) for origin, destination, amount in moves
    )


def _check_stores(world: WorldState, moves: Sequence[StoresMove]) -> list[Refusal]:
    ctx = turn_context()
    return [
        Refusal(f"stores_moves[{i}].{r.field}", r.rule, r.message, r.code)
        for i, move in enumerate(moves)
        for r in check_stores_move(move, world, ctx.map, ctx.rules)
    ]


def record_submission(
    conn: Connection,
    campaign: str,
    turn: int,
    checked: Checked,
    orders: Sequence[ShipOrder],
    client_request_id: str,
    fingerprint: bytes,
) -> tuple[list[str], bool]:
    """Store a checked submission: all its orders, or (refused) only the audit
    record.  The turn is checked again under the lock: it may have closed
    since."""
    ids = sorted({o.ship_id for o in orders})
    player = checked.caller.player
    if checked.replayed:
        return ids, True
    if checked.refusals:
        repo.audit(
            conn, campaign, turn, player, "submit_orders", False, [to_plain(r) for r in checked.refusals]
        )
        raise DeskError(
            _code(checked.refusals),
            "; ".join(f"{r.field}: {r.message} (rule {r.rule})" for r in checked.refusals),
            refusals=checked.refusals,
        )
    open_turn(conn, campaign, turn, lock=True)
    if repo.find_request(conn, campaign, player, client_request_id) is not None:
        return ids, True  # an identical retry won the race
    seq = repo.next_order_seq(conn, campaign, turn)
    repo.add_orders(
        conn,
        [
            repo.order_row(
                campaign,
                turn,
                order,
                author=player,
                role=role,
                seq=seq + i,
                client_request_id=client_request_id,
            )
            for i, (order, role) in enumerate(zip(orders, checked.roles, strict=True))
        ],
    )
    if checked.stores_moves:
        state = checked.stores_moves[0].state
        repo.add_stores_moves(conn, campaign, turn, state, player, checked.stores_moves)
    repo.save_request(conn, campaign, player, client_request_id, fingerprint)
    confirm.clear(conn, campaign, turn, player)  # a later change takes his confirmation back
    repo.audit(conn, campaign, turn, player, "submit_orders", True, ids)
    return ids, False


def check_orders(world: WorldState, actor: Actor, orders: Sequence[ShipOrder]) -> list[Refusal]:
    """Every refusal of rule 4.3's order form, each naming its field."""
    ctx = turn_context()
    out: list[Refusal] = []
    seen: set[str] = set()
    for i, order in enumerate(orders):
        if order.ship_id in seen:
            out.append(
                Refusal(f"orders[{i}].ship_id", "4.1", "one order per ship in a request", "invalid_argument")
            )
            continue
        seen.add(order.ship_id)
        for r in validate_order(order, actor, world, ctx.map, ctx.rules):
            out.append(Refusal(f"orders[{i}].{r.field}", r.rule, r.message, r.code))
    return out


def _code(refusals: Sequence[Refusal]) -> Code:
    """The gravest code among the refusals decides the status."""
    for code in (Code.UNAUTHENTICATED, Code.PERMISSION_DENIED, Code.NOT_FOUND, Code.FAILED_PRECONDITION):
        if any(r.code == code.value for r in refusals):
            return code
    return Code.INVALID_ARGUMENT


def effective_turn(conn: Connection, campaign: str, turn: int) -> int:
    """The turn asked for (0: the current one), refused when it has not begun."""
    row = repo.get_campaign(conn, campaign)
    if row is None:
        raise DeskError(Code.NOT_FOUND, f"campaign_id: no campaign {campaign!r}")
    if turn > row.turn:
        raise DeskError(
            Code.FAILED_PRECONDITION, f"turn: turn {turn} has not begun (the campaign is at turn {row.turn})"
        )
    return turn or row.turn


def effective_for(
    conn: Connection, campaign: str, turn: int, caller: Actor, ship_ids: Sequence[str]
) -> dict[str, EffectiveOrder]:
    if not repo.world_exists(conn, campaign, turn):
        raise DeskError(Code.NOT_FOUND, f"turn: no orders are kept for turn {turn}")
    world = repo.load_world_cached(conn, campaign, turn)
    mine = {sid for sid, ship in world.ships.items() if authority(caller, ship) is not None}
    wanted = set(ship_ids) if ship_ids else mine
    foreign = sorted(wanted - mine)
    if foreign:
        raise DeskError(Code.PERMISSION_DENIED, f"ship_ids: not your ships: {', '.join(foreign)}")
    everything = effective_orders(world.ships, repo.submitted_orders(conn, campaign, turn))
    return {sid: everything[sid] for sid in sorted(wanted) if sid in everything}
