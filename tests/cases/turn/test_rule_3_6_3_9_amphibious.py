"""Rule cases for rules 3.6 and 3.9 and the lost section 9: transport groups
load and unload GITM units and supplies (docs/rules/turn.md)."""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Phase
from pate.core.orders.model import Combat, CombatStance, Contact, ContactMode, Movement, ShipOrder
from pate.core.world.diplomacy import Diplomacy
from pate.core.world.ships import Cargo
from tests.cases.turn.turn_world import (
    artillery,
    cavalry,
    coastal,
    corps_hq,
    events,
    harbor,
    infantry,
    load,
    only,
    run,
    ship,
    unload,
    world,
)

BEGUN, DONE = "transfer_begun", "transfer_completed"


def test_rule_3_6_3_9_loading_begins_in_the_initial_and_completes_in_the_final_phase() -> None:
    """3.6: "In the initial amphibious phase, transports begin loading or unloading units and
    supplies into or from GITM"; 3.9: "In the final amphibious phase, transports complete loading
    and unloading begun in the initial amphibious phase"."""
    w = world(
        [ship("FR1TR", harbor("Brest"))],
        ports={"Brest": {"garrison": ("FR1IN", "FR2IN"), "supplies": 10}},
        units=[infantry("FR1IN", 3000), infantry("FR2IN", 3000)],
    )
    r = run(w, load("FR1TR", "FR1IN", supplies=4))
    begun = only(r, BEGUN, Phase.INITIAL_AMPHIBIOUS)
    done = only(r, DONE, Phase.FINAL_AMPHIBIOUS)
    assert begun.data["transfer"] == done.data["transfer"] == "test:1:FR1TR:1"
    assert (begun.data["direction"], begun.data["gitm"], done.data["cancelled"]) == ("load", True, False)
    assert r.state.ships["FR1TR"].cargo == Cargo(("FR1IN",), 4, 3000 + 4 * 20)
    assert r.state.ports["Brest"].garrison == ("FR2IN",)
    assert r.state.ports["Brest"].supplies == 6


def test_rule_3_9_a_transport_that_sails_away_loses_the_transfer() -> None:
    """3.9 (decision): only what is still in the port at the final amphibious phase completes;
    a group that sailed in the movement phase completes its transfer as cancelled, and the units
    stay ashore."""
    w = world(
        [ship("FR1TR", harbor("Brest"))],
        ports={"Brest": {"garrison": ("FR1IN",)}},
        units=[infantry("FR1IN", 3000)],
    )
    r = run(w, load("FR1TR", "FR1IN", movement=Movement(("ECH",))))
    done = only(r, DONE)
    assert (done.data["cancelled"], done.data["reason"]) == (True, "the transport group sailed away")
    assert r.state.ships["FR1TR"].cargo.units == ()
    assert r.state.ports["Brest"].garrison == ("FR1IN",)


def test_rule_3_9_a_transport_that_fights_loses_the_transfer() -> None:
    """3.9 (decision): a group that takes part in a battle in the combat phase, between the two
    amphibious phases, completes its transfer as cancelled."""
    engage = Combat(stance=CombatStance.ENGAGE)
    ships = [ship("FR1TR", coastal("Brest")), *(ship(f"FR{i}FL", coastal("Brest")) for i in (1, 2, 3))]
    w = world(
        [*ships, ship("BR1SL", coastal("Brest"))],
        ports={"Brest": {"garrison": ("FR1IN",)}},
        units=[infantry("FR1IN", 3000)],
    )
    pursue = Contact(mode=ContactMode.PURSUE)
    orders = [ShipOrder(s, combat=engage, contact=pursue) for s in ("FR1FL", "FR2FL", "FR3FL", "BR1SL")]
    r = run(w, load("FR1TR", "FR1IN", combat=engage), *orders)
    assert "FR1TR" in only(r, "battle", Phase.COMBAT).ships
    done = only(r, DONE)
    assert (done.data["cancelled"], done.data["reason"]) == (True, "the transport group fought a battle")
    assert r.state.ports["Brest"].garrison == ("FR1IN",)


def test_section_9_capacity_per_man_and_the_worked_example_of_17210() -> None:
    """Recovered section 9: "four 3,000-man infantry units + 1,250 cavalry + 400 artillery (4
    batteries) + a corps headquarters with 8 supplies = 17,210"; a group of 17,210 free spaces
    takes them all (a group of 17,210 capacity with 1 crew per 10, rule 2.7, and 24 stores has
    17,210 free); one space less refuses the last unit named."""
    force = [
        *(infantry(f"FR{i}IN", 3000) for i in range(1, 5)),
        cavalry("FR1CA", 1250),
        artillery("FR1AR", 400),
        corps_hq("FR1HQ", 8),
    ]
    ids = tuple(u.id for u in force)
    ports = {"Brest": {"garrison": ids}}
    for capacity, taken in ((17210, ids), (17209, ids[:-1])):
        w = world(
            [ship("FR1TR", harbor("Brest"), capacity=capacity, crew=capacity // 10)], ports=ports, units=force
        )
        cargo = run(w, load("FR1TR", *ids)).state.ships["FR1TR"].cargo
        assert cargo.units == taken
        assert cargo.space == (17210 if taken == ids else 17210 - 660)


def test_section_9_a_battery_counts_100_men_as_artillerists() -> None:
    """Recovered section 9: "1,500 cavalry with a battery = 1,400 x 3 + 100 x 2 = 4,400"."""
    w = world(
        [ship("FR1TR", harbor("Brest"))],
        ports={"Brest": {"garrison": ("FR1CA",)}},
        units=[cavalry("FR1CA", 1500, batteries=1)],
    )
    r = run(w, load("FR1TR", "FR1CA"))
    assert r.state.ships["FR1TR"].cargo.space == 4400


def test_section_9_several_transport_groups_carry_one_force_each_with_room_for_its_units() -> None:
    """Recovered section 9: "Several transport groups may carry one force, each needing room for
    the units assigned to it." Two 5,000 groups take a 3,000 and a 4,000 unit; one unit named by
    both goes to the first group (lower id) only."""
    units = [infantry("FR1IN", 3000), infantry("FR2IN", 4000)]
    w = world(
        [ship("FR1TR", harbor("Brest")), ship("FR2TR", harbor("Brest"))],
        ports={"Brest": {"garrison": ("FR1IN", "FR2IN")}},
        units=units,
    )
    r = run(w, load("FR1TR", "FR1IN", "FR2IN"), load("FR2TR", "FR2IN"))
    assert r.state.ships["FR1TR"].cargo.units == ("FR1IN",)
    assert r.state.ships["FR2TR"].cargo.units == ("FR2IN",)
    refused = [e for e in events(r, "transfer_refused") if e.ships == ("FR1TR",)]
    assert refused[0].data["refused"] == [{"item": "FR2IN", "reason": "needs 4000 spaces, 2000 free"}]


def test_section_9_loading_only_own_units_from_the_garrison_of_a_friendly_port() -> None:
    """Section 9 (decision): a group loads units of its own state from the garrison of a
    same-side or allied port; a Spanish unit in Brest, or a unit not in the port, is refused."""
    w = world(
        [ship("FR1TR", harbor("Brest"))],
        ports={"Brest": {"garrison": ("SP1IN", "FR1IN")}},
        units=[infantry("SP1IN", 1000), infantry("FR1IN", 1000), infantry("FR2IN", 1000)],
    )
    r = run(w, load("FR1TR", "SP1IN", "FR2IN", "FR1IN"))
    assert r.state.ships["FR1TR"].cargo.units == ("FR1IN",)
    reasons = {x["item"]: x["reason"] for x in only(r, "transfer_refused").data["refused"]}
    assert reasons == {"SP1IN": "a unit of SP, not of FR", "FR2IN": "not in the port's garrison"}


def test_section_9_supplies_are_loaded_only_from_a_city_of_the_groups_own_state() -> None:
    """Section 9 (decision, docs/gitm.md A10): "a transport loads supplies only from the stock of
    a city its own state holds; an ally's city stock is the ally's depot". A Spanish group in
    allied French Brest takes its own Spanish unit but none of Brest's 10 supplies; a French group
    there takes 4."""
    w = world(
        [ship("SP1TR", harbor("Brest")), ship("FR1TR", harbor("Brest"))],
        ports={"Brest": {"garrison": ("SP1IN",), "supplies": 10}},
        units=[infantry("SP1IN", 1000)],
    )
    dip = w.diplomacy
    w = replace(w, diplomacy=Diplomacy(dip.states, dip.wars, dip.alliances | {("FR", "SP")}))
    r = run(w, load("SP1TR", "SP1IN", supplies=3), load("FR1TR", supplies=4))
    assert r.state.ships["SP1TR"].cargo == Cargo(("SP1IN",), 0, 1000)
    assert r.state.ships["FR1TR"].cargo.supplies == 4
    assert r.state.ports["Brest"].supplies == 6
    refused = only(r, "transfer_refused").data["refused"]
    assert refused == [
        {
            "item": "supplies",
            "reason": "supplies are loaded only from a city of the group's own state (Brest is held by FR)",
        }
    ]


def test_section_9_loose_supplies_are_not_landed_in_an_enemy_city() -> None:
    """Section 9 (decision, docs/gitm.md A10): "PATE refuses a landing of loose supplies in a city
    an enemy holds (they would feed the enemy's depot)". British BR1IN lands at French Brest; the
    5 supplies aboard stay aboard, refused with the reason."""
    tr = ship("BR1TR", harbor("Brest"), cargo=Cargo(("BR1IN",), 5, 1100))
    w = world([tr], units=[infantry("BR1IN", 1000)])
    assert w.diplomacy.relation("BR", "FR").value == "war"
    r = run(w, unload("BR1TR", "BR1IN", supplies=5))
    assert "BR1IN" in r.state.ports["Brest"].garrison
    assert r.state.ships["BR1TR"].cargo.supplies == 5
    assert r.state.ports["Brest"].supplies == w.ports["Brest"].supplies
    why = "supplies are landed only in a city of the group's side or an ally (Brest is held by FR)"
    assert only(r, "transfer_refused").data["refused"] == [{"item": "supplies", "reason": why}]
    assert only(r, BEGUN).data["supplies"] == 0


def test_rule_1_5_unloading_at_an_on_gitm_map_port_returns_units_to_gitm() -> None:
    """1.5: "Units and supplies may be moved by water in PATE, then placed back into GITM at an
    on-GITM-map port." The transfer is marked for the GITM bridge and the units join the port."""
    tr = ship("FR1TR", harbor("Brest"), cargo=Cargo(("FR1IN",), 5, 1100))
    w = world([tr], units=[infantry("FR1IN", 1000)])
    r = run(w, unload("FR1TR", "FR1IN", supplies=5))
    done = only(r, DONE)
    assert (done.data["gitm"], done.data["cancelled"]) == (True, False)
    assert r.state.ships["FR1TR"].cargo == Cargo()
    assert "FR1IN" in r.state.ports["Brest"].garrison
    assert r.state.ports["Brest"].supplies == 5


def test_rule_1_5_unloading_at_an_off_gitm_map_port_joins_the_garrison() -> None:
    """1.5: "Units and supplies in off-GITM-map ports are part of the garrisons of those ports";
    no GITM call is due (``gitm`` false)."""
    tr = ship("FR1TR", harbor("Martinique"), cargo=Cargo(("FR1IN",), 0, 1000))
    w = world([tr], units=[infantry("FR1IN", 1000)])
    r = run(w, unload("FR1TR", "FR1IN"))
    assert only(r, DONE).data["gitm"] is False
    assert r.state.ports["Martinique"].garrison == ("FR1IN",)


def test_rule_3_9_combat_in_an_off_gitm_map_port_a_strong_landing_takes_the_port() -> None:
    """3.9: "... and combat in off-GITM-map ports occurs." 6,000 British infantry landed at
    Martinique (defensive rating 5: 1,000 gunners and militia) against a French garrison of 500
    (defence (500 + 1,000) x 150% = 2,250): the attack wins with chance 6,000 / 8,250 (this
    seed), the port passes to Britain and the garrison surrenders."""
    tr = ship("BR1TR", coastal("Martinique"), capacity=8000, cargo=Cargo(("BR1IN",), 0, 6000))
    w = world(
        [tr],
        ports={"Martinique": {"garrison": ("FR9IN",)}},
        units=[infantry("BR1IN", 6000), infantry("FR9IN", 500)],
    )
    r = run(w, unload("BR1TR", "BR1IN"))
    battle = only(r, "garrison_battle", Phase.FINAL_AMPHIBIOUS)
    assert (battle.data["attack"], battle.data["defence"], battle.data["attackers_won"]) == (6000, 2250, True)
    assert r.state.ports["Martinique"].controller == "BR"
    assert r.state.ports["Martinique"].garrison == ("BR1IN",)
    assert "FR9IN" not in r.state.land_units
    assert r.state.land_units["BR1IN"].infantry == 6000 - 6000 * 50 * 2250 // (100 * 6000)


def test_rule_3_9_a_weak_landing_surrenders() -> None:
    """3.9: 200 men against Martinique's defence of 2,250 lose (this seed); the port stays French
    and the landed unit leaves the game."""
    tr = ship("BR1TR", coastal("Martinique"), cargo=Cargo(("BR1IN",), 0, 200))
    w = world([tr], units=[infantry("BR1IN", 200)])
    r = run(w, unload("BR1TR", "BR1IN"))
    assert only(r, "garrison_battle").data["attackers_won"] is False
    assert r.state.ports["Martinique"].controller == "FR"
    assert "BR1IN" not in r.state.ports["Martinique"].garrison
    assert "BR1IN" not in r.state.land_units


def test_rule_2_6_a_captured_port_gives_its_inactive_ships_to_the_captor() -> None:
    """2.6: "If an inactive ship is in a port which is captured ... the capturing/entering
    nation can choose to capture or destory the inactive ships." (decision: captured, under the
    captor's lowest free number; still inactive)."""
    tr = ship("BR1TR", coastal("Martinique"), capacity=8000, cargo=Cargo(("BR1IN",), 0, 6000))
    laid_up = ship("FR3SL", harbor("Martinique"), active=False)
    w = world([tr, laid_up, ship("BR1SL", harbor("Antigua"))], units=[infantry("BR1IN", 6000)])
    r = run(w, unload("BR1TR", "BR1IN"))
    assert r.state.ports["Martinique"].controller == "BR"
    prize = r.state.ships["BR2SL"]
    assert (prize.state, prize.active, prize.location) == ("BR", False, laid_up.location)
    assert "FR3SL" not in r.state.ships
    assert only(r, "inactive_captured").data == {"prize": "BR2SL", "state": "BR"}


def test_rule_2_6_enemy_ships_in_the_harbor_without_friends_or_guns_destroy_inactive_ships() -> None:
    """2.6: "... or if enemy ships are in the harbor and no friendly ships or shore guns are
    present, then the capturing/entering nation can choose to capture or destory the inactive
    ships" (decision: destroyed). Helgoland has no guns (defensive rating 0); Brest has."""
    enemy_h = ship("BR1SL", harbor("Helgoland"))
    enemy_b = ship("BR2SL", harbor("Brest"))
    w = world(
        [
            ship("DK1SL", harbor("Helgoland"), active=False),
            ship("FR1SL", harbor("Brest"), active=False),
            enemy_h,
            enemy_b,
        ]
    )
    dip = w.diplomacy
    w = replace(w, diplomacy=Diplomacy(dip.states, dip.wars | {("BR", "DK")}, dip.alliances))
    r = run(w)
    assert "DK1SL" not in r.state.ships
    assert only(r, "inactive_destroyed").ships == ("DK1SL",)
    assert "FR1SL" in r.state.ships
