"""Whole situations the EiA new naval rules imply (the interceptions, the
contests, the joined routes, the joint operation and the column battle are
the sentence cases named in docs/rules/eia-operations.md; these are the others)."""

from __future__ import annotations

from tests.cases.eia_ops.ops_world import QUIET, harbor, kinds, op, ops_world, run, ship
from tests.support.orders_world import ADMIN, MAP, RULES

CHAIN = "protect-trade ECH BIS IBC SOA WMD BAL GOL LIG TYR"  # nine sea zones from Portsmouth


def test_example_a_protect_trade_chain_reaches_a_friendly_port_and_goes_on() -> None:
    """Nine sea zones from Portsmouth: seven would end in GOL (ECH, the
    starting port's zone, is the first), but SOA reaches Gibraltar, a British
    port, so seven more may follow; the British trade route the chain touches
    is protected.  With Gibraltar Spanish no friendly port is reached and the
    eighth zone, LIG, is refused."""
    from pate.core.rules.validation.orders import validate_order

    w = ops_world(ship("BR1SL", harbor("Portsmouth")), players=("BR",))
    assert validate_order(op("BR1SL", CHAIN), ADMIN, w, MAP, RULES) == []
    ts = run(w, [op("BR1SL", CHAIN)], dice=QUIET)
    assert kinds(ts, "operation_revealed")[0].data["chain"][-1] == "TYR"
    assert any("BR1SL" in e.data["protected_by"] for e in kinds(ts, "trade_route"))
    spanish = ops_world(ship("BR1SL", harbor("Portsmouth")), controllers={"Gibraltar": "SP"})
    (refusal,) = validate_order(op("BR1SL", CHAIN), ADMIN, spanish, MAP, RULES)
    assert refusal.field == "operation.chain" and "zone 8: more than 7 sea zones" in refusal.message
    assert refusal.rule == "EiA new naval rules, Protect Trade"
