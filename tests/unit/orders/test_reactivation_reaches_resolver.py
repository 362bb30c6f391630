"""Rule 2.6: a reactivation the desk accepted for an inactive ship is carried out."""

from pate.core.campaign import resolve_submitted
from pate.core.orders.effective import Author, SubmittedOrder, effective_orders
from pate.core.orders.model import AdminKind, AdminOrder, ShipOrder
from pate.datafiles import load_scenario
from pate.engine.context import turn_context


def test_an_inactive_ship_with_a_reactivate_order_gets_it() -> None:
    world = load_scenario("training").world
    assert not world.ships["BR4SL"].active
    order = ShipOrder("BR4SL", admin=(AdminOrder(AdminKind.REACTIVATE),))
    submitted = [SubmittedOrder(order, Author.MINISTER, 1)]
    assert effective_orders(world.ships, submitted)["BR4SL"].order == order
    assert "BR4SL" not in effective_orders(world.ships, [])  # no order, nothing to carry out
    result = resolve_submitted(turn_context(), world, submitted).result
    assert result.state.ships["BR4SL"].reactivates_turn is not None
