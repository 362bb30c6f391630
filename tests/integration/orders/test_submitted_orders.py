"""Rule 4.1 at the database: the orders of a turn that can still count.

"The last order sent for a ship counts", the commander's before his deputy's.  The
resolver, the desk and the notifier read only each ship's last order from its
commander (or minister) and its deputy's last, so a turn whose players resent their
orders many times costs what one sending does; what they decide must not change.
"""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from pate.core.codec import from_plain
from pate.core.orders.effective import Author, SubmittedOrder, chosen_submissions, effective_orders
from pate.core.orders.model import Combat, ShipOrder
from services.platform.store import repository as repo
from services.platform.store import tables
from services.platform.store.db import reader
from tests.support.passwords import open_training_campaign

pytestmark = pytest.mark.integration

SENT = [  # (ship, role, stance), in the order sent
    ("BR1FL", Author.COMMANDER, "engage"),
    ("BR1FL", Author.DEPUTY, "evade"),
    ("BR1FL", Author.COMMANDER, "accept"),  # the commander's last: it counts
    ("BR1FL", Author.DEPUTY, "engage"),
    ("BR1SL", Author.DEPUTY, "evade"),
    ("BR1SL", Author.DEPUTY, "accept"),  # only a deputy wrote: his last counts
    ("BR2SL", Author.MINISTER, "evade"),  # a minister speaks with the commander's voice
    ("BR2SL", Author.DEPUTY, "accept"),
]


def _all_sent(conn: sa.Connection, campaign: str) -> list[SubmittedOrder]:
    o = tables.orders.c
    rows = conn.execute(
        sa.select(o.order_json, o.author_role, o.seq).where(o.campaign == campaign).order_by(o.seq)
    )
    return [SubmittedOrder(from_plain(ShipOrder, json.loads(r[0])), Author(r[1]), r[2]) for r in rows]


def test_only_the_orders_that_can_count_are_read_and_they_decide_the_same(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        open_training_campaign(conn, "resent")
        for seq, (ship, role, stance) in enumerate(SENT, start=1):
            order = ShipOrder(ship_id=ship, combat=Combat(stance=stance))
            row = repo.order_row(
                "resent", 1, order, author="cornwallis", role=role, seq=seq, client_request_id=f"r{seq}"
            )
            repo.add_orders(conn, [row])
    with reader(engine) as conn:
        read = repo.submitted_orders(conn, "resent", 1)
        everything = _all_sent(conn, "resent")
        world = repo.load_world(conn, "resent", 1)
    assert [s.seq for s in read] == [3, 4, 6, 7, 8]  # each ship's last deputy's and last other's
    assert effective_orders(world.ships, read) == effective_orders(world.ships, everything)
    chosen = chosen_submissions(read)
    assert chosen == chosen_submissions(everything)
    assert (chosen["BR1FL"].seq, chosen["BR1FL"].order.combat.stance) == (3, "accept")  # the commander's
    assert (chosen["BR1SL"].seq, chosen["BR1SL"].author) == (6, Author.DEPUTY)  # only a deputy wrote
    assert (chosen["BR2SL"].seq, chosen["BR2SL"].author) == (7, Author.MINISTER)  # before the deputy
