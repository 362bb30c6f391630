"""What players met on the order desk: orders sent for an attached ship."""

from __future__ import annotations

from sqlalchemy import Engine

from pate.core.orders.model import ShipOrder
from services.orders import desk, mydesk
from services.platform.store import repository as repo
from tests.integration.orders.test_confirm_and_messages import C, campaign  # noqa: F401 (the fixture)


def test_orders_for_an_attached_ship_warn_that_it_follows_its_lead(campaign: Engine) -> None:  # noqa: F811
    """Rule 4.2: an attached ship carries out its lead's orders; the player is told."""
    with campaign.begin() as conn:
        world = repo.load_world(conn, C, 1)
        sid = next(s.id for s in world.ships.values() if s.attached_to and s.commander == "cornwallis")
        caller = desk.actor_of(repo.get_player(conn, C, "cornwallis"))
        orders = [ShipOrder(sid, stores=10)]
        checked = desk.check_submission(conn, C, 1, caller, orders, "r1", b"f", [])
        desk.record_submission(conn, C, 1, checked, orders, "r1", b"f")
        ship = next(
            s for s in mydesk.my_campaign(conn, repo.get_campaign(conn, C), caller).ships if s.id == sid
        )
    assert any("follows its lead's orders" in w and "4.2" in w for w in ship.warnings)
