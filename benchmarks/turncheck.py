"""Checks that a played turn happened exactly once, with nothing lost or doubled.

Shared by the 3-node NATS test and ``make chaos``.  Each check returns the problems it
found (an empty list: the turn is whole):

- resolved once: one resolution, one next world state, the resolver's processed-message
  record for the turn's ``turn_closed`` exactly once, and the stored world and events
  hashing to the digest the resolution recorded (an event stored twice would change it);
  the turn also replays byte for byte;
- no accepted order lost: every ship whose order the desk accepted is in the resolution's
  effective orders as its commander's (or deputy's) order;
- nothing doubled on the bus: each ``Nats-Msg-Id`` of the campaign is in the stream once,
  and every stage event of the turn is there;
- reports whole: one report per player and format, each player of the knowledge reported.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Engine, and_, func, select

from services.platform import bus
from services.platform.store import repository as repo
from services.platform.store import tables
from services.resolver.replay import replay_turn
from services.resolver.stage import result_digest

UNAVAILABLE_WAIT_SECONDS = 30.0  # a JetStream consumer's leader election, with room to spare
STAGE_EVENTS = (bus.TURN_CLOSED, bus.TURN_RESOLVED, bus.INTEL_READY, bus.REPORTS_READY)


def turn_problems(engine: Engine, campaign: str, turn: int, accepted_ships: Iterable[str]) -> list[str]:
    problems: list[str] = []
    with engine.connect() as conn:
        resolutions = conn.scalar(
            select(func.count()).where(
                and_(tables.resolutions.c.campaign == campaign, tables.resolutions.c.turn == turn)
            )
        )
        if resolutions != 1:
            return [f"turn {turn}: {resolutions} resolutions"]
        claims = conn.scalar(
            select(func.count()).where(
                and_(
                    tables.processed_messages.c.consumer == "resolver",
                    tables.processed_messages.c.msg_id == bus.msg_id(campaign, turn, bus.TURN_CLOSED),
                )
            )
        )
        if claims != 1:
            problems.append(f"turn {turn}: the resolver claimed turn_closed {claims} times")
        stored = repo.load_resolution(conn, campaign, turn)
        nxt = repo.load_world_json(conn, campaign, turn + 1)
        if stored is None or nxt is None:
            return [*problems, f"turn {turn}: no next world state"]
        orders_json, digest = stored
        if result_digest(nxt[1], repo.load_events(conn, campaign, turn)) != digest:
            problems.append(f"turn {turn}: stored world and events differ from the resolution")
        if not replay_turn(conn, campaign, turn).identical:
            problems.append(f"turn {turn}: the replay differs")
        effective = json.loads(orders_json)["orders"]
        for ship in accepted_ships:
            # an order the desk accepted is the commander's or the deputy's, not a default
            if ship not in effective or effective[ship].get("source") not in ("commander", "deputy"):
                problems.append(f"turn {turn}: the accepted order of {ship} is not in the resolution")
        problems += _report_problems(conn, campaign, turn)
    return problems


def _report_problems(conn: Any, campaign: str, turn: int) -> list[str]:
    r = tables.reports.c
    rows = conn.execute(select(r.player, r.format).where(and_(r.campaign == campaign, r.turn == turn))).all()
    players = set(repo.load_knowledge(conn, campaign, turn))
    # the stage stores each player's structured report once; text and HTML follow on first read
    stored = Counter((str(p), str(f)) for p, f in rows)
    have = {p for p, f in stored if f == "json"}
    out = []
    if not players or have != players:
        out.append(f"turn {turn}: structured reports for {sorted(have)}, knowledge for {sorted(players)}")
    out += [f"turn {turn}: {p} has {n} {f} reports" for (p, f), n in stored.items() if n != 1]
    return out


def bus_problems(msg_ids: Iterable[str], campaign: str, turns: Iterable[int]) -> list[str]:
    """``msg_ids``: the Nats-Msg-Id of every message the stream holds for the campaign."""
    counts = Counter(msg_ids)
    out = [f"{mid} is in the stream {n} times" for mid, n in sorted(counts.items()) if n > 1]
    for turn in turns:
        for stage in STAGE_EVENTS:
            if bus.msg_id(campaign, turn, stage) not in counts:
                out.append(f"{bus.msg_id(campaign, turn, stage)} is not in the stream")
    return out


async def stream_msg_ids(js: Any, campaign: str) -> list[str]:
    """Every Nats-Msg-Id the stream holds on ``pate.*.<campaign>`` (a throw-away consumer)."""
    from nats.errors import TimeoutError as NatsTimeout
    from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

    config = ConsumerConfig(
        deliver_policy=DeliverPolicy.ALL, ack_policy=AckPolicy.NONE, inactive_threshold=30.0
    )
    from nats.js.errors import ServiceUnavailableError

    sub = await js.pull_subscribe(f"{bus.SUBJECT_PREFIX}.*.{campaign}", stream=bus.STREAM, config=config)
    out: list[str] = []
    # Just after a node of the cluster was killed its consumers may have no leader yet
    # (503, no responders): the check waits for the cluster rather than failing.
    unavailable_until = asyncio.get_running_loop().time() + UNAVAILABLE_WAIT_SECONDS
    try:
        while True:
            try:
                msgs = await sub.fetch(100, timeout=1.0)
            except (NatsTimeout, TimeoutError):
                return out
            except ServiceUnavailableError:
                if asyncio.get_running_loop().time() > unavailable_until:
                    raise
                await asyncio.sleep(0.5)
                continue
            out += [(m.headers or {}).get(bus.MSG_ID_HEADER, "") for m in msgs]
    finally:
        await sub.unsubscribe()
