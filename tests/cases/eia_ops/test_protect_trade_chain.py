"""Rule cases of the EiA new naval rules: a Protect Trade chain of sea zones
(shared/rules/eia-new-naval-rules-wip.txt, docs/rules/eia-operations.md, row N12).
Each case quotes its sentence."""

from __future__ import annotations

from pate.core.rules.eiaops.trade import chain_problem
from tests.cases.eia_ops.ops_world import QUIET, harbor, one, op, ops_world, revealed, run, ship
from tests.cases.eia_ops.test_fleet_markers_and_operations import refused
from tests.support.orders_world import MAP

SEVEN = ("ECH", "BIS", "IBC", "AZO", "CAN", "MOC", "SOA")  # from Portsmouth; Gibraltar opens on SOA


def test_eia_ops_s12_seven_zones_then_seven_more_after_a_friendly_port() -> None:
    """ "Select at most 7 sea zones extending from the starting port; if a
    friendly port is reached, then 7 others may be chosen again, repeating."
    From Portsmouth: seven zones to SOA, where Gibraltar (British) is reached;
    seven others from there (Gibraltar, opening on WMD too, is not reached a
    second time); a fifteenth zone is refused, at the order desk and in the phase."""
    w = ops_world(ship("BR1SL", harbor("Portsmouth")))
    more = ("WMD", "BAL", "GOL", "LIG", "TYR", "BAL", "WMD")
    assert refused(w, op("BR1SL", "protect-trade " + " ".join(SEVEN + more))) == []
    chain = " ".join((*SEVEN, *more, "SOA"))
    why = "operation.chain: zone 15: more than 7 sea zones without reaching a friendly port"
    assert any(r.startswith(why) for r in refused(w, op("BR1SL", "protect-trade " + chain)))
    ts = run(w, [op("BR1SL", "protect-trade " + chain)], dice=QUIET)
    assert "zone 15: more than 7" in one(ts, "operation_refused")["reason"]
    assert revealed(ts) == []


def test_eia_ops_s12_seven_zones_past_enemy_and_neutral_ports() -> None:
    """ "Select at most 7 sea zones extending from the starting port; if a
    friendly port is reached, then 7 others may be chosen again, repeating."
    With Gibraltar Spanish, the seven zones from Portsmouth pass only enemy
    (French, Spanish) and neutral (Portuguese, Moroccan) ports: seven are
    accepted, an eighth is refused.  Plymouth and Guernsey, British ports on
    the first zone beside Portsmouth, are where the chain starts, not reached."""
    w = ops_world(ship("BR1SL", harbor("Portsmouth")), controllers={"Gibraltar": "SP"})
    assert refused(w, op("BR1SL", "protect-trade " + " ".join(SEVEN))) == []
    eight = op("BR1SL", "protect-trade " + " ".join((*SEVEN, "WMD")))
    why = "operation.chain: zone 8: more than 7 sea zones without reaching a friendly port"
    assert any(r.startswith(why) for r in refused(w, eight))
    assert revealed(run(w, [op("BR1SL", "protect-trade " + " ".join(SEVEN))], dice=QUIET)) == [
        ("BR1SL", "protect_trade")
    ]
    assert "zone 8: more than 7" in one(run(w, [eight], dice=QUIET), "operation_refused")["reason"]


def test_eia_ops_s12_seven_zones_with_no_port_on_the_way() -> None:
    """ "Select at most 7 sea zones extending from the starting port; if a
    friendly port is reached, then 7 others may be chosen again, repeating."
    From Bermuda through zones with no port (NWA, SAR) and back to BER, whose
    only port is the starting port itself: seven accepted, an eighth refused."""
    w = ops_world(ship("BR1SL", harbor("Bermuda")))
    seven = ("BER", "NWA", "BER", "SAR", "BER", "NWA", "BER")
    assert refused(w, op("BR1SL", "protect-trade " + " ".join(seven))) == []
    why = "operation.chain: zone 8: more than 7 sea zones without reaching a friendly port"
    assert any(
        r.startswith(why) for r in refused(w, op("BR1SL", "protect-trade " + " ".join((*seven, "SAR"))))
    )
    assert chain_problem(MAP, w, "BR", "Portsmouth", ("ECH", "IRS"), 7) == "zone 2: IRS does not border ECH"
