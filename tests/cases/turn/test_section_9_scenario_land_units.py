"""Rule cases for the lost section 9 with the land units a scenario declares:
the training scenario's transport group loads a declared unit (rules 3.6, 3.9)."""

from __future__ import annotations

from pathlib import Path

from pate.core.orders.text import parse_orders
from pate.datafiles import load_scenario
from pate.engine.simulate import simulate
from tests.cases.turn.turn_world import CTX

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "orders" / "barham-minister.txt"


def test_section_9_a_transport_loads_a_unit_the_scenario_declares() -> None:
    """3.6: "In the initial amphibious phase, transports begin loading or unloading units and
    supplies into or from GITM"; 3.9: "transports complete loading and unloading begun in the
    initial amphibious phase". Section 9 (recovered): a unit loads only if its size is known, so
    the training scenario declares BR5IN (1,900 infantry, 100 artillery: 2,100 spaces) in the
    Portsmouth garrison, and Lord Barham's example orders land BR1IN (3,000 spaces; unloading
    comes first) and load BR5IN and 4 supplies into BR1TR."""
    world = load_scenario("training").world
    assert "BR5IN" in world.ports["Portsmouth"].garrison and "BR5IN" in world.land_units
    orders = {1: parse_orders(EXAMPLE.read_text(encoding="utf-8"))}
    out = list(simulate(CTX, world, campaign="t", seed=7, turns=1, orders=orders, render=False, place=False))
    events = out[1].events
    begun = [e.data for e in events if e.kind == "transfer_begun"]
    done = [e.data for e in events if e.kind == "transfer_completed"]
    assert [(d["direction"], d["units"], d["supplies"], d["space"]) for d in begun] == [
        ("unload", ["BR1IN"], 0, 3000),
        ("load", ["BR5IN"], 4, 2100 + 4 * 20),
    ]
    assert [d["cancelled"] for d in done] == [False, False]
    after = out[1].world
    cargo = after.ships["BR1TR"].cargo
    assert cargo.units == ("BR5IN",)
    assert (cargo.supplies, cargo.space) == (4, 2100 + 80)
    assert "BR5IN" not in after.ports["Portsmouth"].garrison and "BR1IN" in after.ports["Portsmouth"].garrison
    assert after.ports["Portsmouth"].supplies == 10 - 4
    assert after.land_units["BR5IN"] == world.land_units["BR5IN"]


def test_section_9_an_undeclared_unit_is_not_loaded() -> None:
    """Section 9 (recovered): PATE loads only units whose size it knows. Without the scenario's
    declaration of BR5IN, the same order is refused for that unit."""
    from dataclasses import replace

    world = load_scenario("training").world
    world = replace(world, land_units={k: v for k, v in world.land_units.items() if k != "BR5IN"})
    orders = {1: parse_orders(EXAMPLE.read_text(encoding="utf-8"))}
    out = list(simulate(CTX, world, campaign="t", seed=7, turns=1, orders=orders, render=False, place=False))
    refused = [e.data for e in out[1].events if e.kind == "transfer_refused"]
    assert {"item": "BR5IN", "reason": "its size is not known (GITM has not reported it)"} in refused[0][
        "refused"
    ]
    assert out[1].world.ships["BR1TR"].cargo.units == ()  # BR1IN landed; BR5IN refused


def test_section_9_the_boulogne_flotilla_embarks_the_army_of_england() -> None:
    """3.6 and 3.9 as above, with grand1805: the scenario declares the
    troops of 1805 in its ports with their men per arm, so the Boulogne flotilla's
    first transport group loads Soult's corps (17,000 infantry, 800 gunners, a
    corps headquarters with 10 supplies: 17,000 + 1,600 + 500 + 200 = 19,300
    spaces of its 20,000) instead of being refused "its size is not known"."""
    from pate.core.orders.model import Amphibious, ShipOrder

    world = load_scenario("grand1805").world
    flotilla = sorted(
        s.id
        for s in world.ships.values()
        if s.type.value == "TR" and s.state == "FR" and getattr(s.location, "port", "") == "Boulogne"
    )
    assert set(world.ports["Boulogne"].garrison) <= set(world.land_units)
    order = ShipOrder(flotilla[0], amphibious=Amphibious(load_units=("FR1IN",)))
    out = list(
        simulate(CTX, world, campaign="t", seed=7, turns=1, orders={1: [order]}, render=False, place=False)
    )
    assert not [e for e in out[1].events if e.kind == "transfer_refused"]
    done = [e.data for e in out[1].events if e.kind == "transfer_completed"]
    assert [(d["units"], d["cancelled"]) for d in done] == [(["FR1IN"], False)]
    assert out[1].world.ships[flotilla[0]].cargo.space == 19300


def test_section_9_every_unit_the_big_scenarios_name_has_its_size() -> None:
    """Section 9 (recovered): a unit loads only if PATE knows its size.  Every
    unit standing in a port or aboard a group of trafalgar and grand1805 is
    declared, with at least one man."""
    for name in ("trafalgar", "grand1805"):
        world = load_scenario(name).world
        named = {u for p in world.ports.values() for u in p.garrison}
        named |= {u for s in world.ships.values() for u in s.cargo.units}
        assert named and named <= set(world.land_units), (name, named - set(world.land_units))
        assert all(u.men > 0 for u in world.land_units.values())
