"""Rule cases of EiA rules 12.2.6.1.8 (a fleet that has not lost moves on),
12.2.6.1.9.1 (disabled ships may make for an ally's port) and 12.2.8.3
(the manpower of a refit), through the turn
runner, the combat phase and the functions it calls."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.model import AdminKind, AdminOrder, Movement, ShipOrder
from pate.core.rules.eia.world import haven
from pate.core.rules.turn import resolve_turn
from pate.core.world.ships import InPort
from tests.cases.eia.eia_world import EIA_RULES, eia_world, fleet, linear_attack
from tests.unit.combat.combat_world import CTX, HARBOR, SEA


def test_rule_12_2_6_1_8_a_fleet_that_has_not_lost_continues_to_move() -> None:
    """12.2.6.1.8: "An intercepted fleet which has not lost a battle may
    continue to move with any remaining points." Battles come before movement
    in PATE's turn (3.2), so the British, who beat a Spanish ship at sea, sail
    on into Plymouth as ordered: their movement orders stand."""
    w = eia_world(*fleet("BR", 6, SEA), *fleet("SP", 1, SEA, commander=None))
    into_plymouth = Movement(port="Plymouth")
    orders = {f"BR{k}SL": replace(linear_attack(f"BR{k}SL"), movement=into_plymouth) for k in range(1, 7)}
    orders["SP1SL"] = linear_attack("SP1SL")
    result = resolve_turn(CTX, w, orders)
    (battle,) = [e for e in result.events if e.kind == "battle"]
    assert battle.data["winner"] == ["BR"]
    moved = [s for s in result.state.ships.values() if s.state == "BR" and not s.hulk and s.active]
    assert moved and all(s.location == InPort("Plymouth", harbor=False) for s in moved)


def test_rule_12_2_6_1_9_1_an_allys_port_by_permission() -> None:
    """12.2.6.1.9.1: "Any controlled home nation, conquered or free state port
    owned by the player or by permission any such port controlled by an
    active ally, may be selected." Brest held by Portugal, Britain's active
    ally, is offered to British disabled ships (first of two equally near
    ports); a neutral Danish Brest is not. PATE asks no permission: an active
    alliance gives it (docs/rules/eia.md)."""
    w = eia_world()
    allied = replace(w, ports={**w.ports, "Brest": replace(w.ports["Brest"], controller="PO")})
    found = haven(CTX, allied, EIA_RULES, ("BR",), "ECH")
    assert found is not None and (found.port, found.controller) == ("Brest", "PO")
    neutral = replace(w, ports={**w.ports, "Brest": replace(w.ports["Brest"], controller="DK")})
    other = haven(CTX, neutral, EIA_RULES, ("BR",), "ECH")
    assert other is not None and other.port == "Plymouth"


def test_rule_12_2_8_3_a_refit_needs_the_men_to_man_her() -> None:
    """12.2.8.3: "The cost is $5 and 1 manpower unit for each hulk to be made
    seaworthy". PATE has no manpower pool: the manpower unit is the men who
    make her seaworthy, so a hulk with fewer than her class's minimum crew
    (70 for a ship of the line) is refused until men are transferred to her."""
    hulk = replace(fleet("FR", 1, HARBOR)[0], hulk=True, active=False, crew=40)
    w = eia_world(hulk)
    refit = ShipOrder("FR1SL", admin=(AdminOrder(AdminKind.REACTIVATE),))
    result = resolve_turn(CTX, w, {"FR1SL": refit})
    (refused,) = [e for e in result.events if e.kind == "refit_refused"]
    assert refused.data["reason"] == "not enough crew" and refused.data["needed"] == 70
    assert result.state.ships["FR1SL"].reactivates_turn is None
