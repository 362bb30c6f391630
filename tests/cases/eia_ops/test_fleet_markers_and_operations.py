"""Rule cases of the EiA new naval rules: fleet markers and the nine naval
operations (shared/rules/eia-new-naval-rules-wip.txt, docs/rules/eia-operations.md).
Each case quotes its sentence; the table of docs/rules/eia-operations.md names it."""

from __future__ import annotations

from pate.core.orders.model import ShipOrder
from pate.core.rules.validation.orders import validate_order
from pate.core.world.ships import AtSea, InPort
from tests.cases.eia_ops.ops_world import (
    HITS,
    OPS,
    QUIET,
    carrying,
    coastal,
    harbor,
    kinds,
    one,
    op,
    ops_world,
    revealed,
    run,
    sea,
    ship,
    with_corps,
)
from tests.support.orders_world import ADMIN, MAP, RULES


def refused(w, order: ShipOrder) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{r.field}: {r.message} (rule {r.rule})" for r in validate_order(order, ADMIN, w, MAP, RULES)]


def test_eia_ops_s01_ships_assigned_to_fleet_markers() -> None:
    """ "Ships are assigned to fleet markers as usual."  A fleet marker is a
    PATE squadron: the lead ship and the ships attached to it (rule 4.4)."""
    w = ops_world(ship("BR1SL", harbor("Plymouth")), ship("BR2SL", harbor("Plymouth"), attached_to="BR1SL"))
    ts = run(w, [op("BR1SL", "patrol")], dice=[1, *QUIET])
    assert kinds(ts, "operation_revealed")[0].ships == ("BR1SL", "BR2SL")


def test_eia_ops_s02_based_in_port_sea_zone_or_blockade_box() -> None:
    """ "Each fleet is based in a port, sea zone or enemy blockade box."  The
    harbor of a friendly port; a sea area; an enemy port's coastal waters."""
    w = ops_world(
        ship("BR1SL", harbor("Plymouth")), ship("BR2SL", sea("WAP")), ship("BR3SL", coastal("Brest"))
    )
    ts = run(w, [op("BR1SL", "patrol"), op("BR2SL", "patrol"), op("BR3SL", "patrol")], dice=[1, *QUIET])
    assert revealed(ts) == [("BR1SL", "patrol")]
    assert {e.data["fleet"] for e in kinds(ts, "operation_refused")} == {"BR2SL", "BR3SL"}


def test_eia_ops_s03_one_action_each_turn() -> None:
    """ "Each fleet marker may take one action each turn, chosen from Naval
    Operations list below."  One ``operation`` line per order block; a second is refused."""
    from pate.core.orders.text import OrderSyntaxError, parse_orders

    try:
        parse_orders("order BR1SL\n  operation patrol\n  operation raid\n")
    except OrderSyntaxError as err:
        assert "a second operation line" in str(err)
    else:
        raise AssertionError("two operations were read")


def test_eia_ops_s04_at_sea_only_superiority_or_rebase() -> None:
    """ "However, if a fleet is based in a sea zone or an enemy blockade box, it
    may only choose Naval Superiority or Rebase as Naval Operation.\""""
    w = ops_world(ship("BR1SL", sea("WAP")), ship("BR2SL", coastal("Brest")))
    assert any("may only choose Naval Superiority or Rebase" in r for r in refused(w, op("BR1SL", "patrol")))
    assert any("may only choose" in r for r in refused(w, op("BR2SL", "raid")))
    assert refused(w, op("BR1SL", "naval-superiority")) == []
    assert refused(w, op("BR2SL", "rebase to Plymouth")) == []


def test_eia_ops_s05_superiority_uses_the_whole_fleet() -> None:
    """ "Use your whole fleet to control major operations in the sea area."  The
    whole fleet leaves port for its sea area and is based there."""
    w = ops_world(ship("BR1SL", harbor("Plymouth")), ship("BR2SL", harbor("Plymouth"), attached_to="BR1SL"))
    ts = run(w, [op("BR1SL", "naval-superiority")], dice=[1, 1, *QUIET])
    assert all(ts.world.ships[s].location == AtSea("ECH", 1) for s in ("BR1SL", "BR2SL"))


def test_eia_ops_s05_superiority_controls_operations_passing_through_its_area() -> None:
    """ "Use your whole fleet to control major operations in the sea area."  A
    British Naval Superiority fleet in BIS does not meet the French transport
    from Brest to Cherbourg, which keeps to ECH; it meets the one from St
    Malo (ECH) to Ferrol (IBC), whose way lies through BIS, before it sails."""
    w = ops_world(
        carrying("FR1TR", harbor("Brest")),
        carrying("FR2TR", harbor("St Malo"), corps="FR2IN"),
        ship("BR1SL", sea("BIS")),
    )
    w = with_corps(with_corps(w), "FR2IN")
    orders = [
        op("FR1TR", "transport FR1IN to Cherbourg"),
        op("FR2TR", "transport FR2IN to Ferrol"),
        op("BR1SL", "naval-superiority"),
    ]
    # FR1TR; BR1SL: 1d6 + 1d6 ships, FR1TR out of its reach; FR2TR (round 2): met, 6 v 1
    ts = run(w, orders, dice=[1, 1, 6, 1, *QUIET])
    got = [(e.data["by"], e.data["target"], e.data["succeeded"]) for e in kinds(ts, "interception")]
    assert got == [("BR1SL", "FR2TR", True)]
    assert one(ts, "column_battle")["return_to_base"] is False


def test_eia_ops_s06_superiority_intercepts_with_1d6_plus_phase_d6() -> None:
    """ "Allows interception of enemy actions using 1d6 + (Phase Number)d6 of
    ships."  Phase Number 1: two dice, here 1 + 1, so 2 of its 4 ships fight."""
    fleet = [
        ship(f"BR{k}SL", harbor("Plymouth"), attached_to=None if k == 1 else "BR1SL") for k in range(1, 5)
    ]
    w = ops_world(*fleet, ship("FR1SL", harbor("Brest")), ship("FR2SL", harbor("St Malo")))
    orders = [op("BR1SL", "naval-superiority"), op("FR1SL", "rebase to Cherbourg"), op("FR2SL", "patrol")]
    # FR1SL rebase; BR1SL: 1 + 1 ships; FR2SL (second round: Phase Number 2)
    # patrol: 2d6 ships; BR intercepts FR2SL: 6 v 1
    ts = run(w, orders, dice=[1, 1, 1, 1, 6, 1, *QUIET])
    (battle,) = kinds(ts, "column_battle")
    assert battle.data["columns"][0] == [["BR1SL", "BR2SL"]]


def test_eia_ops_s07_superiority_costs_one_dollar() -> None:
    """ "Costs 1$"  Paid from the state's account when the operation is
    revealed; an empty account refuses it."""
    w = ops_world(ship("BR1SL", harbor("Plymouth")), money=3)
    ts = run(w, [op("BR1SL", "naval-superiority")], dice=[1, 1, *QUIET])
    assert ts.world.treasury["BR"] == 3 - OPS.ns_cost
    broke = ops_world(ship("BR1SL", harbor("Plymouth")), money=0)
    assert any("costs 1$" in r for r in refused(broke, op("BR1SL", "naval-superiority")))


def test_eia_ops_s08_rebase_within_7_steps() -> None:
    """ "Move your fleet to a friendly port, any sea area or enemy blockade box
    within 7 steps."  Plymouth to Gibraltar is ECH, WAP, IBC, SOA, Gibraltar:
    5 steps; to the blockade box of Brest; to a sea area; not to LIG (8 steps)."""
    w = ops_world(
        ship("BR1SL", harbor("Plymouth")),
        ship("BR2SL", harbor("Portsmouth")),
        ship("BR3SL", harbor("Plymouth")),
    )
    ts = run(
        w,
        [
            op("BR1SL", "rebase to Gibraltar"),
            op("BR2SL", "rebase to blockade Brest"),
            op("BR3SL", "rebase to BIS"),
        ],
        dice=QUIET,
    )
    assert ts.world.ships["BR1SL"].location == InPort("Gibraltar", True)
    assert ts.world.ships["BR2SL"].location == InPort("Brest", False)
    assert ts.world.ships["BR3SL"].location == AtSea("BIS", 1)
    assert any("more than 7 steps" in r for r in refused(w, op("BR1SL", "rebase to LIG")))
    assert any("not a friendly port" in r for r in refused(w, op("BR1SL", "rebase to Brest")))


def test_eia_ops_s09_patrol_detachment_stays_in_its_sea_area() -> None:
    """ "Send a detachment to maintain small presence in the sea area."  The
    patrol watches its port's sea area; the fleet stays based in port."""
    w = ops_world(ship("BR1SL", harbor("Plymouth")))
    ts = run(w, [op("BR1SL", "patrol")], dice=[1, *QUIET])
    assert ts.world.ships["BR1SL"].location == InPort("Plymouth", True)
    assert revealed(ts) == [("BR1SL", "patrol")]


def test_eia_ops_s10_patrol_intercepts_with_phase_d6() -> None:
    """ "Allows interception of enemy actions using (Phase Number)d6 of ships."
    Phase Number 1: one die, here 3, so 3 of its 4 ships fight."""
    fleet = [
        ship(f"BR{k}SL", harbor("Plymouth"), attached_to=None if k == 1 else "BR1SL") for k in range(1, 5)
    ]
    w = ops_world(*fleet, ship("FR1SL", harbor("Brest")), ship("FR2SL", harbor("St Malo")))
    orders = [op("BR1SL", "patrol"), op("FR1SL", "rebase to Cherbourg"), op("FR2SL", "patrol")]
    ts = run(w, orders, dice=[3, 1, 1, 6, 1, *QUIET])  # FR2SL: Phase Number 2, two dice
    (battle,) = kinds(ts, "column_battle")
    assert battle.data["columns"][0] == [["BR1SL", "BR2SL", "BR3SL"]]


def test_eia_ops_s11_protect_trade_for_own_and_allies() -> None:
    """ "Send a detachment to protect your and your allies trade."  A French
    Protect Trade chain covers the Spanish route it touches (France and Spain allied)."""
    w = ops_world(ship("FR1SL", harbor("Brest")), players=("FR", "SP"))
    ts = run(w, [op("FR1SL", "protect-trade ECH BIS IBC")], dice=QUIET)
    spanish = [e.data for e in kinds(ts, "trade_route") if "SP" in e.data["states"]]
    (home,) = [d for d in spanish if "Cadiz" in d["ports"]]  # the routes of Spain's European ports, joined
    assert home["protected_by"] == ["FR1SL"]


def test_eia_ops_s11_an_intercepted_protect_trade_fights_with_its_detachment() -> None:
    """ "Send a detachment to protect your and your allies trade."  A French
    patrol intercepting a British Protect Trade fleet of eight meets its
    detachment, (Phase Number)d6 = 3 ships, as a patrol's interceptor would
    meet the patrol's; not the whole fleet."""
    fleet = [
        ship(f"BR{k}SL", harbor("Plymouth"), attached_to=None if k == 1 else "BR1SL") for k in range(1, 9)
    ]
    w = ops_world(*fleet, ship("FR1SL", harbor("St Malo")))
    orders = [op("FR1SL", "patrol"), op("BR1SL", "protect-trade ECH")]
    # patrol: 1d6 = 1 ship; Protect Trade: 1d6 = 3 ships; the patrol intercepts it, 6 v 1
    ts = run(w, orders, dice=[1, 3, 6, 1, *QUIET])
    battle = one(ts, "column_battle")
    assert battle["why"] == "interception"
    assert sorted(s for col in battle["columns"][1] for s in col) == ["BR1SL", "BR2SL", "BR3SL"]


def test_eia_ops_s13_trade_in_the_areas_is_protected() -> None:
    """ "Any trade ship passing through these areas is protected by the fleet."
    The British route passes ECH: a chain through ECH protects it."""
    w = ops_world(ship("BR1SL", harbor("Plymouth")), players=("BR",))
    ts = run(w, [op("BR1SL", "protect-trade ECH")], dice=QUIET)
    british = [e.data for e in kinds(ts, "trade_route") if e.data["states"] == ["BR"]]
    assert any("BR1SL" in d["protected_by"] for d in british)


def test_eia_ops_s14_raided_protected_trade_defended_by_phase_d6() -> None:
    """ "If protected trade ships are raided, (Phase Number)d6 ships protect
    them."  A French raid on the protected British route meets 2 (one die) of
    the 3 British escorts, the trade ships in the battle as carrying ships."""
    escorts = [
        ship(f"BR{k}SL", harbor("Plymouth"), attached_to=None if k == 1 else "BR1SL") for k in range(1, 4)
    ]
    w = ops_world(*escorts, ship("FR1SL", harbor("Brest")), players=("BR", "FR"))
    orders = [op("FR1SL", "raid"), op("BR1SL", "protect-trade ECH")]
    # raid: 1d3 = 1 ship, reach 2d6 = 2; Protect Trade: its detachment, 1d6 =
    # 2 ships; the raid fails to intercept the operation itself (1 v 6); on
    # the trade: 6 v 1, and the detachment defends it
    ts = run(w, orders, dice=[1, 1, 1, 2, 1, 6, 6, 1, *QUIET])
    (battle,) = kinds(ts, "column_battle")
    assert battle.data["why"] == "protect_trade"
    assert battle.data["columns"][1] == [["BR1SL", "BR2SL", "trade:BR:1"]]


def test_eia_ops_s15_transport_to_a_friendly_port_within_6_steps() -> None:
    """ "Move a corps from the port of origin to a friendly port within 6
    steps."  FR1TR carries FR1IN from Brest to Cherbourg and lands it there
    (the unloading begins; the final amphibious phase completes it)."""
    w = with_corps(ops_world(carrying("FR1TR", harbor("Brest"))))
    ts = run(w, [op("FR1TR", "transport FR1IN to Cherbourg")], dice=QUIET)
    assert ts.world.ships["FR1TR"].location == InPort("Cherbourg", True)
    begun = one(ts, "transfer_begun")
    assert begun["units"] == ["FR1IN"] and begun["port"] == "Cherbourg"
    assert any("more than 6 steps" in r for r in refused(w, op("FR1TR", "transport FR1IN to Toulon")))
    assert any("not a friendly port" in r for r in refused(w, op("FR1TR", "transport FR1IN to Plymouth")))


def test_eia_ops_s16_transporting_fleet_stays_in_receiving_port() -> None:
    """ "The transporting fleet may stay in the receiving port."  It does: the
    fleet is based in Cherbourg afterwards, escort and transports together."""
    w = with_corps(
        ops_world(ship("FR1SL", harbor("Brest")), carrying("FR1TR", harbor("Brest"), attached_to="FR1SL"))
    )
    ts = run(w, [op("FR1SL", "transport FR1IN to Cherbourg")], dice=QUIET)
    assert {ts.world.ships[s].location for s in ("FR1SL", "FR1TR")} == {InPort("Cherbourg", True)}


def test_eia_ops_s17_invasion_to_a_sea_zone_within_6_steps() -> None:
    """ "Move a corps to a sea zone within 6 steps, from which it may land in
    the Land Phase."  Invasion names the port it lands at: the fleet lies in
    that port's sea zone (its coastal waters) and the landing begins."""
    w = with_corps(ops_world(carrying("FR1TR", harbor("Brest"))))
    ts = run(w, [op("FR1TR", "invasion FR1IN to Plymouth")], dice=QUIET)
    assert ts.world.ships["FR1TR"].location == InPort("Plymouth", False)
    assert one(ts, "transfer_begun")["port"] == "Plymouth"
    assert any("more than 6 steps" in r for r in refused(w, op("FR1TR", "invasion FR1IN to Malta")))


def test_eia_ops_s18_invading_fleet_stays_in_the_sea_zone() -> None:
    """ "The transporting fleet may stay in the sea zone."  After the invasion
    it is based in the enemy blockade box, so next turn it may only choose
    Naval Superiority or Rebase."""
    w = with_corps(ops_world(carrying("FR1TR", harbor("Brest"))))
    after = run(w, [op("FR1TR", "invasion FR1IN to Plymouth")], dice=QUIET).world
    assert any("may only choose" in r for r in refused(after, op("FR1TR", "patrol")))


def test_eia_ops_s19_raid_disrupts_enemy_operations() -> None:
    """ "Send a detachment to disrupt enemy operations."  A raid that wins its
    interception of a transport before the transport resolves stops it: the
    corps stays aboard in Brest and no landing begins.  (FR2TR is France's
    second fleet, declared after the raid.)"""
    w = with_corps(
        ops_world(
            ship("FR1SL", harbor("St Malo")),
            carrying("FR2TR", harbor("Brest")),
            ship("BR1SL", harbor("Plymouth")),
        )
    )
    orders = [
        op("FR1SL", "rebase to Cherbourg"),
        op("FR2TR", "transport FR1IN to Cherbourg"),
        op("BR1SL", "raid"),
    ]
    # raid: 1d3 = 1 ship, reach 2d6 = 2; it intercepts the transport 6 v 1, and every shot hits
    ts = run(w, orders, dice=[1, 1, 1, 6, 1, *HITS])
    assert revealed(ts) == [("FR1SL", "rebase"), ("BR1SL", "raid"), ("FR2TR", "transport")]
    assert ts.world.ships["FR2TR"].location == InPort("Brest", True)
    assert kinds(ts, "transfer_begun") == []


def test_eia_ops_s20_raid_reaches_2d6_steps_with_phase_d3_ships() -> None:
    """ "Allows intercepting of enemy ships within 2d6 steps using (Phase
    Number)d3 ships."  A raid from Plymouth (ECH) rolls 1d3 = 2 ships and a
    reach of 2d6 = 5 steps, and intercepts a French patrol out of Lorient in
    BIS, one step away."""
    raiders = [
        ship(f"BR{k}SL", harbor("Plymouth"), attached_to=None if k == 1 else "BR1SL") for k in range(1, 4)
    ]
    w = ops_world(*raiders, ship("FR1SL", harbor("Rochefort")), ship("FR2SL", harbor("Lorient")))
    orders = [op("BR1SL", "raid"), op("FR1SL", "rebase to Bordeaux"), op("FR2SL", "patrol")]
    # FR1SL rebase; BR raid: 1d3 = 2 ships, reach 2d6 = 2+3; FR2SL patrol 1 ship; raid intercepts: 6 v 1
    ts = run(w, orders, dice=[2, 2, 3, 1, 1, 6, 1, *QUIET])  # FR2SL: Phase Number 2
    (battle,) = kinds(ts, "column_battle")
    assert battle.data["columns"][0] == [["BR1SL", "BR2SL"]]


def test_eia_ops_s21_privateer_sends_a_single_ship() -> None:
    """ "Send a single ship to capture enemy trade."  Of a fleet of three, one
    ship raids the trade; it takes one trade ship."""
    fleet = [ship(f"FR{k}FR", harbor("Brest"), attached_to=None if k == 1 else "FR1FR") for k in range(1, 4)]
    w = ops_world(*fleet, players=("BR", "FR"))
    ts = run(w, [op("FR1FR", "privateer")], dice=[3, 3, 3, 6, 1, *QUIET])
    taken = one(ts, "trade_ships_taken")
    assert taken["state"] == "BR" and taken["taken"] == 1


def test_eia_ops_s22_privateer_reaches_3d6_steps_with_1_ship() -> None:
    """ "Allows intercepting of enemy ships within 3d6 steps using 1 ship."
    From Toulon (GOL) a reach of 3d6 = 3 finds the British route through
    WMD (GOL, BAL, WMD: two steps); one ship, one trade ship taken."""
    w = ops_world(ship("FR1FR", harbor("Toulon")), players=("BR", "FR"))
    ts = run(w, [op("FR1FR", "privateer")], dice=[1, 1, 1, 6, 1, *QUIET])
    assert one(ts, "trade_interception")["succeeded"] is True
    assert one(ts, "trade_ships_taken")["taken"] == 1


def test_eia_ops_s23_supply_traces_sea_supply() -> None:
    """ "Send a fleet to trace sea supply."  The traced chain and the land it
    reaches are reported to the fleet (PATE has no land supply of its own)."""
    w = ops_world(ship("FR1TR", harbor("Brest")))
    ts = run(w, [op("FR1TR", "supply ECH BIS")], dice=QUIET)
    assert one(ts, "supply_traced")["chain"] == ["ECH", "BIS"]


def test_eia_ops_s24_supply_needs_a_transport() -> None:
    """ "Can only be used by a fleet containing at least one transport.\""""
    w = ops_world(ship("FR1SL", harbor("Brest")))
    assert any("at least one transport" in r for r in refused(w, op("FR1SL", "supply ECH")))


def test_eia_ops_s25_supply_chain_of_seven_zones() -> None:
    """ "Select at most 7 sea zones extending from the starting port; if a
    friendly port is reached, then 7 others may be chosen again, repeating."
    (Supply.)  A chain that does not start at the port's sea area is refused."""
    w = ops_world(ship("FR1TR", harbor("Brest")))
    assert any("not a sea area Brest opens on" in r for r in refused(w, op("FR1TR", "supply BIS")))
    assert refused(w, op("FR1TR", "supply ECH BIS IBC")) == []


def test_eia_ops_s26_supply_reaches_land_with_a_transport_present() -> None:
    """ "The supply may reach a land zone bordering a sea zone if there is a
    friendly fleet with at least one transport present."  The supplying
    transport's own port, and Rochefort where another French transport lies."""
    w = ops_world(ship("FR1TR", harbor("Brest")), ship("FR2TR", harbor("Rochefort")))
    ts = run(w, [op("FR1TR", "supply ECH BIS")], dice=QUIET)
    assert set(one(ts, "supply_traced")["reached"]) == {"Brest", "Rochefort"}
