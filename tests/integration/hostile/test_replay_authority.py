"""Authority is checked before a replay is answered.

The desk's own code on a real database: cornwallis's request is accepted; his
ship then passes to another commander; resending the same request id is now
refused instead of answered "replayed".
"""

from __future__ import annotations

import dataclasses
import hashlib

import pytest
import sqlalchemy as sa

from pate.core.codec import canonical_json, to_plain
from pate.v1 import common_pb2
from services.orders import desk
from services.orders.mapping import order_from_pb
from services.platform.errors import Code, DeskError
from services.platform.security.auth import Authenticator
from services.platform.security.passwords import hash_password
from services.platform.store import repository as repo
from services.platform.store.db import reader
from services.platform.store.repository import worlds
from services.platform.store.tables import world_states
from tests.support.passwords import open_training_campaign

pytestmark = pytest.mark.integration

CAMPAIGN = "replays"
PASSWORD = "replay-password"


def _submit(engine: sa.Engine, order: common_pb2.ShipOrder, rid: str) -> tuple[list[str], bool]:
    orders = [order_from_pb(order)]
    fingerprint = hashlib.sha256(order.SerializeToString(deterministic=True)).digest()
    caller = desk.actor_of(Authenticator(engine).check_password(CAMPAIGN, "cornwallis", PASSWORD, "test"))
    with reader(engine) as conn:
        checked = desk.check_submission(conn, CAMPAIGN, 1, caller, orders, rid, fingerprint)
    with engine.begin() as conn:
        return desk.record_submission(conn, CAMPAIGN, 1, checked, orders, rid, fingerprint)


def test_a_replay_is_refused_for_a_ship_no_longer_commanded(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        open_training_campaign(conn, CAMPAIGN)
        repo.set_password(conn, CAMPAIGN, "cornwallis", hash_password(PASSWORD))
    order = common_pb2.ShipOrder(ship_id="BR1FL", combat=common_pb2.Combat(stance="engage"))
    assert _submit(engine, order, "r-1") == (["BR1FL"], False)
    assert _submit(engine, order, "r-1") == (["BR1FL"], True)

    # BR1FL passes to another commander (as a capture or a minister's change would do).
    with engine.begin() as conn:
        world = repo.load_world(conn, CAMPAIGN, 1)
        ship = dataclasses.replace(world.ships["BR1FL"], commander="barham", deputy=None)
        moved = dataclasses.replace(world, ships={**world.ships, "BR1FL": ship})
        conn.execute(
            world_states.update()
            .where(world_states.c.campaign == CAMPAIGN, world_states.c.turn == 1)
            .values(state_json=canonical_json(to_plain(moved)))
        )
    worlds._WORLD_CACHE.clear()  # rows of world_states never change in service; this test changed one

    with pytest.raises(DeskError) as refused:
        _submit(engine, order, "r-1")
    assert refused.value.code == Code.PERMISSION_DENIED and "BR1FL" in refused.value.message
