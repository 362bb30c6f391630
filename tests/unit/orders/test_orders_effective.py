"""Effective orders beyond the rule cases: chains, rings, explanations."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.effective import (
    Author,
    Source,
    attachments_after_orders,
    effective_orders,
)
from pate.core.orders.explain import PARTS, explain_orders
from pate.core.orders.model import AdminKind, AdminOrder, Amphibious, Movement, ShipOrder
from tests.support.orders_world import harbor, sea, ship, submitted, world

W = world([ship(sid, sea("SOC")) for sid in ("SP1SL", "SP2SL", "SP3SL", "SP4SL")])
GO = ShipOrder("SP3SL", movement=Movement(("NOC",)))


def test_chains_formed_by_one_turns_orders_follow_the_head() -> None:
    orders = submitted(
        (ShipOrder("SP2SL", attach_to="SP3SL"), Author.COMMANDER),
        (ShipOrder("SP1SL", attach_to="SP2SL"), Author.COMMANDER),
        (GO, Author.COMMANDER),
    )
    eff = effective_orders(W.ships, orders)
    assert eff["SP1SL"].order.movement == GO.movement
    # SP1SL follows SP3SL, the head, so no chain outlives the turn (4.4)
    assert (eff["SP1SL"].copied_from, eff["SP1SL"].attached_to) == ("SP3SL", "SP3SL")
    assert eff["SP1SL"].order.attach_to == "SP2SL"


def test_rings_cancel_the_attachments_of_their_members() -> None:
    orders = submitted(
        (ShipOrder("SP1SL", attach_to="SP2SL", movement=Movement(("PAN",))), Author.COMMANDER),
        (ShipOrder("SP2SL", attach_to="SP1SL"), Author.COMMANDER),
        (ShipOrder("SP4SL", attach_to="SP1SL"), Author.COMMANDER),
    )
    eff = effective_orders(W.ships, orders)
    assert eff["SP1SL"].source is Source.COMMANDER and eff["SP1SL"].attached_to is None
    assert eff["SP2SL"].attached_to is None
    assert eff["SP4SL"].copied_from == "SP1SL"  # outside the ring: still follows
    assert eff["SP4SL"].order.movement == Movement(("PAN",))


def test_inactive_ships_get_no_order_and_lead_no_one() -> None:
    w = world([ship("SP1SL", sea("SOC"), attached_to="SP2SL"), ship("SP2SL", sea("SOC"), active=False)])
    eff = effective_orders(w.ships, [])
    assert set(eff) == {"SP1SL"}
    assert eff["SP1SL"].attached_to is None


def test_administrative_orders_stay_with_the_ship() -> None:
    w = world([ship("SP1SL", sea("SOC")), ship("SP2SL", sea("SOC"), attached_to="SP1SL")])
    lead = ShipOrder("SP1SL", admin=(AdminOrder(AdminKind.SCUTTLE),))
    eff = effective_orders(w.ships, submitted((lead, Author.COMMANDER)))
    assert eff["SP2SL"].order.admin == ()


def test_attachments_after_orders_records_the_new_leads() -> None:
    orders = submitted(
        (ShipOrder("SP2SL", attach_to="SP3SL"), Author.COMMANDER),
        (ShipOrder("SP4SL", detach=True), Author.COMMANDER),
    )
    w = W.with_ships({"SP4SL": replace(W.ships["SP4SL"], attached_to="SP3SL")})
    after = attachments_after_orders(w, effective_orders(w.ships, orders))
    assert after.ships["SP2SL"].attached_to == "SP3SL"
    assert after.ships["SP4SL"].attached_to is None
    assert attachments_after_orders(after, effective_orders(after.ships, [])) == after


def test_explanation_names_the_source_of_each_part() -> None:
    w = world([ship("BR2SL", harbor("Gibraltar")), ship("BR1TR", harbor("Gibraltar"), attached_to="BR2SL")])
    lead = ShipOrder("BR2SL", movement=Movement(("SOA",)))
    tr = ShipOrder("BR1TR", amphibious=Amphibious(load_supplies=2))
    ex = explain_orders(w.ships, submitted((lead, Author.DEPUTY), (tr, Author.MINISTER)))
    t = ex["BR1TR"]
    assert [p.part for p in t.parts] == list(PARTS)
    assert t.part("movement").source is Source.COPIED and t.part("movement").copied_from == "BR2SL"
    assert "deputy commander" in t.part("movement").reason
    assert t.part("amphibious").author is Author.MINISTER and "its own" in t.part("amphibious").reason
    assert "stays attached to BR2SL" in t.part("attachment").reason
    assert ex["BR2SL"].part("combat").source is Source.DEPUTY
    assert "movement: copied from BR2SL" in t.text()


def test_explanation_of_defaults_and_failed_attachments() -> None:
    w = world([ship("BR2SL", sea("SOC")), ship("BR5SL", sea("SOC"))])
    ring = submitted(
        (ShipOrder("BR2SL", attach_to="BR5SL"), Author.COMMANDER),
        (ShipOrder("BR5SL", attach_to="BR2SL"), Author.COMMANDER),
    )
    ex = explain_orders(w.ships, ring)
    assert "ring" in ex["BR2SL"].part("attachment").reason
    quiet = explain_orders(w.ships, [])
    assert quiet["BR5SL"].part("movement").source is Source.DEFAULT
    assert "rule 4.11" in quiet["BR5SL"].part("movement").reason
    assert quiet["BR5SL"].part("attachment").reason == "not attached"
    det = explain_orders(w.ships, submitted((ShipOrder("BR5SL", detach=True), Author.COMMANDER)))
    assert det["BR5SL"].part("attachment").reason.startswith("detached")
