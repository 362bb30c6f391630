"""A campaign under the EiA operations rules (naval_rules = "eia-operations")
played through the running services by a bot in every seat: each player logs
in, reads his desk, and for every fleet he leads declares one of the
operations the desk offers (``MyShip.operations``, the list the web form
shows), drawn from a seeded stream; the administrator closes the turn; every
player's report of the turn must arrive.  Used by the e2e test (a few turns)
and by ``python -m benchmarks ops_campaign`` (fifteen).
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field

from pate.v1 import admin_pb2, common_pb2, desk_pb2, desk_pb2_grpc
from tests.e2e.flow import Client

OPERATIONS = "eia-operations"


@dataclass
class TurnFigures:
    turn: int
    orders: int  # operations declared
    players: int  # players who sent orders
    seconds_orders: float  # reading the desks and sending the orders
    seconds_resolve: float  # close to the next turn open
    reports: int  # reports read back
    revealed: int  # operation_revealed events in them
    events: dict[str, int] = field(default_factory=dict)


def create(client: Client, campaign: str, scenario: str) -> admin_pb2.Campaign:
    req = admin_pb2.CreateCampaignRequest(id=campaign, scenario=scenario, naval_rules=OPERATIONS)
    created: admin_pb2.Campaign = client.admin.CreateCampaign(req, metadata=client.admin_md, timeout=120)
    for login in created.logins:
        client.passwords[campaign, login.player_id] = login.password
    return created


def players(client: Client, campaign: str) -> list[str]:
    return sorted(p for c, p in client.passwords if c == campaign and p != "admin")


def my_desk(client: Client, campaign: str, player: str) -> desk_pb2.MyCampaign:
    stub = desk_pb2_grpc.PlayerDeskStub(client.orders_ch)
    req = desk_pb2.GetMyCampaignRequest(campaign_id=campaign)
    return stub.GetMyCampaign(req, metadata=client.player_md(campaign, player), timeout=120)  # type: ignore[no-any-return]


def bot_orders(desk: desk_pb2.MyCampaign, rng: random.Random) -> list[common_pb2.ShipOrder]:
    """One offered operation for each fleet the player leads (and may order), half of them
    with column orders."""
    out = []
    for ship in desk.ships:
        if ship.operations and ship.authority in ("commander", "deputy", "minister", "admin"):
            op = common_pb2.Operation()
            op.CopyFrom(rng.choice(list(ship.operations)))
            if rng.random() < 0.5:
                op.columns.extend(_columns(desk, ship))
            out.append(common_pb2.ShipOrder(ship_id=ship.id, operation=op))
    return out


def _columns(desk: desk_pb2.MyCampaign, lead: desk_pb2.MyShip) -> list[common_pb2.Column]:
    """Column orders for the fleet (docs/rules/eia-operations.md, "Column orders"): its
    warships in one column that goes for the enemy's carrying ships, its transport groups
    last in a convoy column that evades when outnumbered."""
    fleet = [lead, *(s for s in desk.ships if s.attached_to == lead.id and s.active)]
    war = [s.id for s in fleet if s.type != "TR"]
    convoy = [s.id for s in fleet if s.type == "TR"]
    attack = common_pb2.ColumnStep(action="attack", target="carrying")
    evade = common_pb2.ColumnStep(action="evade", when="outnumbered")
    cols = [common_pb2.Column(ships=war, plan=[attack])] if war else []
    return cols + ([common_pb2.Column(ships=convoy, plan=[evade])] if convoy else [])


def wait_next(client: Client, campaign: str, turn: int, timeout: float = 600) -> None:
    """Until the next turn is open, or the campaign is over after its last turn (the scenario's)."""
    deadline = time.monotonic() + timeout
    while True:
        c = client.campaign(campaign)
        if c.turn == turn + 1 and c.status == admin_pb2.TURN_STATUS_OPEN:
            return
        if c.turn == turn and c.status == admin_pb2.TURN_STATUS_FINISHED:
            return
        assert c.status != admin_pb2.TURN_STATUS_FAILED, c.failure
        if time.monotonic() > deadline:
            raise TimeoutError(f"{campaign}: turn {turn} not resolved (turn {c.turn}, status {c.status})")
        time.sleep(0.2)


def play_turn(client: Client, campaign: str, turn: int, seed: int) -> TurnFigures:
    rng = random.Random(f"{seed}:{turn}")
    t0 = time.perf_counter()
    sent, senders = 0, 0
    taken: set[str] = set()
    for player in players(client, campaign):
        orders = [o for o in bot_orders(my_desk(client, campaign, player), rng) if o.ship_id not in taken]
        if orders:
            reply = client.submit(campaign, turn, player, orders)
            assert reply.accepted == len(orders), (player, reply)
            taken.update(o.ship_id for o in orders)  # a minister and his commander: one order a fleet
            sent, senders = sent + len(orders), senders + 1
    t1 = time.perf_counter()
    client.close_turn(campaign, turn)
    wait_next(client, campaign, turn)
    t2 = time.perf_counter()
    figures = TurnFigures(turn, sent, senders, t1 - t0, t2 - t1, 0, 0)
    for player in players(client, campaign):
        body = json.loads(client.report(campaign, turn, player).body)
        figures.reports += 1
        for e in body.get("events", ()):
            kind = str(e.get("kind", ""))
            figures.events[kind] = figures.events.get(kind, 0) + 1
    figures.revealed = figures.events.get("operation_revealed", 0)
    return figures


def play(
    client: Client, campaign: str, turns: int, scenario: str = "grand1805", seed: int = 1
) -> list[TurnFigures]:
    create(client, campaign, scenario)
    client.wait_open(campaign, 1, timeout=300)
    return [play_turn(client, campaign, turn, seed) for turn in range(1, turns + 1)]
