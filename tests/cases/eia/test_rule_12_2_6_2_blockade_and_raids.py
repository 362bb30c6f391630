"""Rule cases of EiA rules 12.2.6.2 (blockade battles) and 12.2.6.3 (port
raids), through the combat phase of the turn runner.  Brest is French
(defensive rating 3); its coastal waters are the blockade box."""

from __future__ import annotations

from dataclasses import replace

from pate.core.world.ships import InPort
from tests.cases.eia.eia_world import eia_world, fleet, kinds, linear_attack, linear_defense, melee, run
from tests.unit.combat.combat_world import COASTAL, HARBOR

TAIL = [6] * 40


def _battle(ts):  # type: ignore[no-untyped-def]
    (b,) = kinds(ts, "battle")
    return b.data


def blockade(n_fr: int = 4, n_br: int = 4):  # type: ignore[no-untyped-def]
    """The French come out of Brest harbor (Engage) against the British off the coast."""
    w = eia_world(*fleet("FR", n_fr, HARBOR), *fleet("BR", n_br, COASTAL))
    orders = [melee(f"FR{k}SL") for k in range(1, n_fr + 1)] + [
        linear_attack(f"BR{k}SL") for k in range(1, n_br + 1)
    ]
    return w, orders


def test_rule_12_2_6_2_blockade_battles_use_fixed_tables() -> None:
    """12.2.6.2: "no tactical chits are chosen. Instead ... Blockading force:
    5-2 5-2 5-2 Blockaded force: 5-1 5-1 5-1"."""
    w, orders = blockade()
    data = _battle(run(w, orders, dice=[1] * 6 + TAIL))
    assert data["kind"] == "blockade"
    assert [r["tables"] for r in data["rounds"]] == [["5-2", "5-1"]] * len(data["rounds"])
    assert data["sides"][0]["attacker"]  # the British blockade


def test_rule_12_2_6_2_no_chase_for_blockaders_and_survivors_back_in_port() -> None:
    """12.2.6.2: "if the blockading force is victorious, there is no general
    chase allowed. All surviving blockaded ships are returned to port."
    Eight British against two French: 5-2 breaks them."""
    w, orders = blockade(n_fr=2, n_br=8)
    ts = run(w, orders, dice=[6, 1, 6, 1, *TAIL])
    data = _battle(ts)
    assert data["winner"] == ["BR"] and data["chase"] is None
    for e in data["ships"]:
        if e["id"].startswith("FR") and not e["disabled_in"]:
            assert ts.world.ships[e["id"]].location == HARBOR


def raid(n_br: int = 4, n_fr: int = 4, **kw):  # type: ignore[no-untyped-def]
    """The British enter Brest harbor (Engage from the coastal waters) against the French lying there."""
    w = eia_world(*fleet("BR", n_br, COASTAL), *fleet("FR", n_fr, HARBOR), **kw)
    orders = [linear_attack(f"BR{k}SL") for k in range(1, n_br + 1)] + [
        linear_defense(f"FR{k}SL") for k in range(1, n_fr + 1)
    ]
    return w, orders


def test_rule_12_2_6_3_a_fleet_attacking_another_in_port_is_a_raid() -> None:
    """12.2.6.3: "When a fleet attacks another located in a port, it is
    considered a port raid." """
    w, orders = raid()
    assert _battle(run(w, orders, seed=5))["kind"] == "port_raid"


def test_rule_12_2_6_3_1_harbor_defenses_fire_first() -> None:
    """12.2.6.3.1: "the harbor defenses inflict casualties on the attacking
    force equal to a single die roll using the 5-2 table ... with the harbor
    defense number taken as the strength." Brest's rating 3, a 6: 20% of 3
    factors disables one raider; with its batteries damaged, none."""
    w, orders = raid()
    data = _battle(run(w, orders, dice=[6, *[1] * 6, *TAIL]))
    assert data["harbor_defenses"] == 1
    damaged, orders = raid(battery_damaged=True)
    assert _battle(run(damaged, orders, dice=[1] * 6 + TAIL))["harbor_defenses"] is None


def test_rule_12_2_6_3_2_raid_tables_hulks_fight_and_victory() -> None:
    """12.2.6.3.2: "Attacking force: 5-2 5-2 5-2 Defending force: 1-1 2-1 3-1
    ... To be considered a victor in a port raid, a force must have both
    broken (or totally eliminated) the opposing force and have inflicted more
    losses than he has received." A French hulk in the harbor fights too (12.2.8.1)."""
    w, orders = raid()
    hulk = replace(fleet("FR", 1, HARBOR, type_="FL")[0], hulk=True, active=False)
    w = w.with_ships({hulk.id: hulk})
    data = _battle(run(w, orders, dice=[1, *[1] * 6, *TAIL]))
    assert [r["tables"] for r in data["rounds"]] == [["5-2", "1-1"], ["5-2", "2-1"], ["5-2", "3-1"]]
    assert "FR1FL" in [e["id"] for e in data["ships"]]
    broken = data["sides"][1]["broken"]
    losses = [sum(1 for e in data["ships"] if e["side"] == n and e["disabled_in"]) for n in (0, 1)]
    assert (data["winner"] == ["BR"]) == (broken and losses[1] > losses[0])


def test_rule_12_2_6_3_4_raiders_withdraw_and_nobody_chases() -> None:
    """12.2.6.3.4: "the attacking forces are removed to the blockade box or the
    nearest sea area. Both sides retain their own disabled ships ... there is
    no general chase after a port raid." """
    w, orders = raid(n_br=8, n_fr=2)
    ts = run(w, orders, dice=[1, 6, 1, 6, 1, 6, 1, *TAIL])
    data = _battle(ts)
    assert data["chase"] is None
    for e in data["ships"]:
        ship = ts.world.ships.get(e["id"])
        if e["id"].startswith("BR") and not e["disabled_in"]:
            assert ship is not None and ship.location == COASTAL
    assert not kinds(ts, "captured")
    for h in kinds(ts, "hulk"):
        assert h.ships[0].startswith("FR") and ts.world.ships[h.ships[0]].location == InPort("Brest", True)


def test_rule_12_2_6_2_a_victorious_blockaded_force_is_not_returned_to_port() -> None:
    """12.2.6.2: "Additionally, if the blockading force is victorious, there is
    no general chase allowed. All surviving blockaded ships are returned to
    port." Both sentences are about a blockader victory: eight French coming
    out against six British break them (the British roll 1s, the French 6s),
    so the French keep the coastal waters they fought in and chase the beaten
    blockaders, who retreat to sea (12.2.6.1.8)."""
    w, orders = blockade(n_fr=8, n_br=6)
    ts = run(w, orders, dice=[1, 6, 1, 6, 1, 6, *TAIL])
    data = _battle(ts)
    assert data["winner"] == ["FR"]
    assert data["chase"] is not None
    survivors = [e["id"] for e in data["ships"] if e["id"].startswith("FR") and not e["disabled_in"]]
    assert survivors
    for sid in survivors:
        assert ts.world.ships[sid].location == COASTAL
    assert not kinds(ts, "returned")


def test_rule_12_2_6_2_and_12_2_6_3_2_no_chits_in_blockade_battles_and_raids() -> None:
    """12.2.6.2: "the combat is resolved exactly as in the the open sea combat
    except that no tactical chits are chosen"; 12.2.6.3.2: "No tactical chits
    are chosen." The battle event names no chit for either side there, and
    does in open sea combat."""
    w, orders = blockade()
    assert [s["chit"] for s in _battle(run(w, orders, dice=[1] * 6 + TAIL))["sides"]] == [None, None]
    w, orders = raid()
    assert [s["chit"] for s in _battle(run(w, orders, seed=5))["sides"]] == [None, None]
    sea = eia_world(*fleet("FR", 3), *fleet("BR", 3))
    at_sea = [melee(f"FR{k}SL") for k in range(1, 4)] + [linear_defense(f"BR{k}SL") for k in range(1, 4)]
    assert {s["chit"] for s in _battle(run(sea, at_sea, seed=5))["sides"]} == {"melee", "linear_defense"}


def test_rule_12_2_8_1_a_hulk_disabled_in_a_raid_on_her_port_is_no_news() -> None:
    """12.2.8.1 ("defense during a port raid") with 12.2.6.1.9.1: a hulk lying in Brest
    harbor that the raiders disable stays the hulk she was; she did not "reach Brest
    disabled" and is not laid up again, so no ``hulk`` event tells it every raid."""
    w, orders = raid()
    hulk = replace(fleet("FR", 1, HARBOR, type_="FL")[0], hulk=True, active=False)
    w = w.with_ships({hulk.id: hulk})
    disabled = 0
    for seed in range(30):
        ts = run(w, orders, seed=seed)
        ships = _battle(ts)["ships"]
        disabled += any(e["id"] == "FR1FL" and e["disabled_in"] for e in ships)
        assert not [e for e in ts.events if e.kind == "hulk" and "FR1FL" in e.ships]
        assert ts.world.ships["FR1FL"].hulk and ts.world.ships["FR1FL"].location == hulk.location
    assert disabled >= 3
