"""Order intake (rule 4.1): a submission checked from what the
process knows already, and the submissions of a moment stored together.

The hot path is a player with a session token sending structured orders for
a few ships.  When the session, the campaign's open turn and the turn's world
are all in this process's memory, the submission is checked on the event loop
with no database read and goes to the group writer, which stores every
submission waiting in one transaction with a few set-based statements
(``record_group``).  Everything that is not the hot path (a password, order
text, store moves, a cold cache, any refusal) takes the full path of
``desk.check_submission`` and ``desk.record_submission``, which reads the
database and audits refusals.  Either way the writer checks the turn again
under the campaign's lock, and the request id, so what is stored is the same.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from pate.core.orders.effective import Author
from pate.core.orders.model import ShipOrder
from pate.core.orders.text import OrderSyntaxError, parse_orders
from pate.core.rules.validation.orders import Actor
from pate.v1 import orders_pb2
from services.orders import desk
from services.orders.mapping import MappingError, order_from_pb, order_to_pb
from services.platform.errors import Code, DeskError
from services.platform.security import limits
from services.platform.security.auth import Authenticator, Credentials
from services.platform.security.field_rules import LimitError
from services.platform.security.quoting import bounded, first_problems
from services.platform.store import repository as repo
from services.platform.store.repository import intake as batch

# The open turn as last read: advisory only, since the writer checks it again under the lock
# (a turn closed since is refused there); 1 s keeps a burst of submissions off the database.
CAMPAIGN_CACHE_SECONDS = 1.0
# Mapping and checking 32 orders takes about 0.5 ms here (grand1805, one core): the longest the
# event loop is held by one request; larger requests are checked on a reader thread.
HOT_PATH_MAX_ORDERS = 32


def orders_of(request: orders_pb2.SubmitOrdersRequest) -> list[ShipOrder]:
    """The request's orders as the core knows them, structured or as text (rule 4.3)."""
    if request.orders and request.orders_text:
        raise DeskError(Code.INVALID_ARGUMENT, "orders: give orders or orders_text, not both")
    if request.orders_text:
        try:
            parsed = parse_orders(request.orders_text)
        except OrderSyntaxError as err:
            raise DeskError(Code.INVALID_ARGUMENT, f"orders_text: {first_problems(err.problems)}") from None
        return _within_limits(parsed)
    try:
        return [order_from_pb(o, f"orders[{i}]") for i, o in enumerate(request.orders)]
    except MappingError as err:
        raise DeskError(Code.INVALID_ARGUMENT, str(err)) from None


def _within_limits(orders: list[ShipOrder]) -> list[ShipOrder]:
    """Orders written as text are held to the limits of the same fields sent as messages (a port
    name of at most 64 characters...), before any work: a refusal then never quotes more than an
    excerpt of what was typed."""
    try:
        for i, order in enumerate(orders):
            limits.check_request(order_to_pb(order), prefix=f"orders[{i}].")
    except LimitError as err:
        raise DeskError(Code.INVALID_ARGUMENT, bounded(str(err))) from None
    return orders


@dataclass(frozen=True, slots=True)
class Submission:
    """A checked submission ready to be stored by ``record_group``."""

    campaign: str
    turn: int
    caller: Actor
    request_id: str
    fingerprint: bytes
    orders: tuple[ShipOrder, ...]
    roles: tuple[Author, ...]

    @property
    def key(self) -> batch.RequestKey:
        return (self.campaign, self.caller.player, self.request_id)

    @property
    def player(self) -> str:
        return self.caller.player

    @property
    def checked(self) -> desk.Checked:
        """As the full path would have checked it (for storing it alone)."""
        return desk.Checked(self.caller, replayed=False, roles=self.roles)

    @property
    def ship_ids(self) -> list[str]:
        return sorted({o.ship_id for o in self.orders})


class OpenTurns:
    """Each campaign's row as last read, for ``CAMPAIGN_CACHE_SECONDS``."""

    def __init__(self, seconds: float = CAMPAIGN_CACHE_SECONDS) -> None:
        self.seconds = seconds
        self._rows: dict[str, tuple[float, repo.CampaignRow]] = {}
        self._lock = threading.Lock()

    def remember(self, row: repo.CampaignRow) -> None:
        with self._lock:
            self._rows[row.id] = (time.monotonic() + self.seconds, row)

    def get(self, campaign: str) -> repo.CampaignRow | None:
        found = self._rows.get(campaign)
        if found is None or found[0] <= time.monotonic():
            return None
        return found[1]


def check_from_memory(
    auth: Authenticator,
    turns: OpenTurns,
    database: str,
    request: orders_pb2.SubmitOrdersRequest,
    creds: Credentials,
    fingerprint: bytes,
) -> Submission | None:
    """The hot path's check: a submission that passes every rule of the order
    form, judged only from memory; None whenever memory does not know enough
    or anything is wrong, so that the full path answers it."""
    if request.orders_text or request.stores_moves or not 0 < len(request.orders) <= HOT_PATH_MAX_ORDERS:
        return None
    rid = request.client_request_id
    if not 0 < len(rid) <= desk.MAX_REQUEST_ID:
        return None
    player = auth.recent_caller(request.campaign_id, creds)
    world = repo.peek_world(database, request.campaign_id, request.turn)
    if player is None or world is None:
        return None
    try:
        row = desk.check_open(turns.get(request.campaign_id), request.campaign_id, request.turn)
        orders = orders_of(request)
    except DeskError:
        return None
    caller: Actor = desk.actor_of(player)
    if desk.check_orders(world, caller, orders):
        return None
    roles = desk.authors(world, caller, orders)
    return Submission(row.id, row.turn, caller, rid, fingerprint, tuple(orders), roles)


Recorded = tuple[list[str], bool] | DeskError  # (ship ids, replayed) or the refusal


def record_group(conn: Connection, group: Sequence[Submission]) -> list[Recorded]:
    """Store checked submissions in the caller's transaction, one answer each.

    A request id seen before answers as a replay when the request is the same
    and is refused when it is not (before the turn is looked at, as on the
    full path); the turn of each campaign is checked under its lock (it may
    have closed since the check); each submission's
    orders take the next sequence numbers of its turn, in arrival order."""
    state = batch.read_group(
        conn, {s.campaign for s in group}, {s.key for s in group}, [(s.campaign, s.turn) for s in group]
    )
    seen, seqs = state.seen, state.next_seqs
    stamp = repo.now()
    orders: list[dict[str, Any]] = []
    requests: list[dict[str, Any]] = []
    audits: list[dict[str, Any]] = []
    out: list[Recorded] = []
    for s in group:
        earlier = seen.get(s.key)  # first, as on the full path: a retry is answered even after the close
        if earlier is not None:
            same = earlier == s.fingerprint
            out.append(
                (s.ship_ids, True) if same else DeskError(Code.INVALID_ARGUMENT, desk.REUSED_REQUEST_ID)
            )
            continue
        try:
            desk.check_open(state.campaigns.get(s.campaign), s.campaign, s.turn)
        except DeskError as err:
            out.append(err)
            continue
        seen[s.key] = s.fingerprint  # a second copy in this group replays the first
        first = seqs[(s.campaign, s.turn)]
        seqs[(s.campaign, s.turn)] = first + len(s.orders)
        orders += [
            repo.order_row(
                s.campaign,
                s.turn,
                order,
                author=s.player,
                role=role,
                seq=first + i,
                client_request_id=s.request_id,
                created_at=stamp,
            )
            for i, (order, role) in enumerate(zip(s.orders, s.roles, strict=True))
        ]
        requests.append(repo.request_row(s.campaign, s.player, s.request_id, s.fingerprint, stamp))
        audits.append(repo.audit_row(s.campaign, s.turn, s.player, "submit_orders", True, s.ship_ids, stamp))
        out.append((s.ship_ids, False))
    batch.write_group(conn, {"orders": orders, "order_requests": requests, "audit": audits})
    return out
