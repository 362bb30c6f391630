"""Rule cases of EiA rules 12.2.7 (Nelson), 12.2.8 (hulks) and 12.2.9
(blockade running), through the combat phase and the turn runner."""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Phase
from pate.core.orders.model import AdminKind, AdminOrder, CombatStance, Movement, ShipOrder
from pate.core.rules.context import TurnState
from pate.core.rules.eia.engine import fight_eia
from pate.core.rules.eia.hulks import destroy_taken_hulks, hulks_change_hands
from pate.core.rules.eia.model import EiaBattle, EiaShip, Kind, NelsonFate
from pate.core.rules.eia.params import Chit
from pate.core.rules.garrison import capture_port
from pate.core.rules.turn import resolve_turn
from pate.core.world.ships import AtSea, InPort, ShipType
from pate.core.world.state import Admiral, AdmiralFate
from tests.cases.eia.eia_world import (
    EIA_RULES,
    eia_world,
    fleet,
    kinds,
    linear_attack,
    linear_defense,
    melee,
    run,
)
from tests.unit.combat.combat_world import COASTAL, CTX, HARBOR, order
from tests.unit.eia.scripted import ScriptedRng

TAIL = [6] * 40


def _nelson_battle(chit: Chit, states: tuple[str, ...] = ("BR", "BR")) -> EiaBattle:
    ours = tuple(EiaShip(f"a{k}", 0, s, ShipType.SL) for k, s in enumerate(states))
    return EiaBattle(
        ships=(*ours, EiaShip("b", 1, "SP", ShipType.SL)), chits=(chit, Chit.LINEAR_DEFENSE), nelson=0
    )


def test_rule_12_2_7_nelson_in_battle_and_his_fate_reported() -> None:
    """12.2.7: "a fleet commanded by Nelson [may] improve chances closing with
    the enemy in a melee, but with a corresponding increase in the risk of him
    becoming a casualty." Nelson is in the battle when a ship he commands
    fights; his fate is told and kept in the campaign's admirals."""
    w = eia_world(*fleet("BR", 3, commander="nelson"), *fleet("FR", 3))
    w = replace(w, admirals={"nelson": Admiral("nelson", nelson=True)})
    orders = [melee(f"BR{k}SL") for k in range(1, 4)] + [linear_defense(f"FR{k}SL") for k in range(1, 4)]
    # three quiet rounds (no closing on 6 - 2 = 4), then Nelson's dice 6 + 6 + 2: a casualty; 6: killed
    ts = run(w, orders, dice=[1, 1, 6, 1, 1, 6, 1, 1, 6, 6, 6, *TAIL])
    (told,) = kinds(ts, "admiral_in_battle")
    assert told.data["fate"] == "killed"
    assert ts.world.admirals["nelson"].fate is AdmiralFate.KILLED
    again = run(ts.world, orders, seed=1)
    assert not kinds(again, "admiral_in_battle")  # a dead admiral is in no more battles


def test_rule_12_2_7_his_fate_is_told_under_his_name() -> None:
    """12.2.7 with 3.11: the report of Nelson's fate names him as the players
    know him ("Admiral Horatio Nelson"), not by his login (a play-test read
    "Admiral nelson came through the battle unhurt")."""
    from pate.core.world.state import Player

    w = eia_world(*fleet("BR", 3, commander="nelson"), *fleet("FR", 3))
    w = replace(
        w,
        admirals={"nelson": Admiral("nelson", nelson=True)},
        players={**w.players, "nelson": Player("nelson", "Horatio Nelson", "BR")},
    )
    orders = [melee(f"BR{k}SL") for k in range(1, 4)] + [linear_defense(f"FR{k}SL") for k in range(1, 4)]
    ts = run(w, orders, dice=[1, 1, 6, 1, 1, 6, 1, 1, 6, 6, 6, *TAIL])
    (told,) = kinds(ts, "admiral_in_battle")
    assert told.data["admiral"] == "nelson" and told.data["name"] == "Horatio Nelson"


def test_rule_12_2_7_1_naval_officers_fall_on_11_or_12() -> None:
    """12.2.7.1: "Instead of a casualty occurring only with a dice roll of 12,
    it now also occurs with a roll of 11." """
    quiet = [1] * 6  # linear defense: no closing roll
    b = _nelson_battle(Chit.LINEAR_DEFENSE)
    assert fight_eia(b, EIA_RULES, ScriptedRng([*quiet, 5, 5])).nelson is NelsonFate.UNHURT
    assert fight_eia(b, EIA_RULES, ScriptedRng([*quiet, 5, 6, 2])).nelson is NelsonFate.WOUNDED
    assert fight_eia(b, EIA_RULES, ScriptedRng([*quiet, 6, 6, 5])).nelson is NelsonFate.KILLED


def test_rule_12_2_7_1_every_admiral_falls_on_11_or_12_not_only_nelson() -> None:
    """12.2.7.1: "This rule modifies rule 12.2.7 to reflect the higher rate of
    naval officer casualties during this period. Instead of a casualty
    occurring only with a dice roll of 12, it now also occurs with a roll of
    11." Villeneuve, a named admiral who is not Nelson, commands the French:
    after three quiet rounds his two dice 5 + 6 make 11, and the unmodified 5
    kills him; his fate is told and kept, and he fights no more battles."""
    w = eia_world(*fleet("BR", 3), *fleet("FR", 3, commander="villeneuve"))
    w = replace(w, admirals={"villeneuve": Admiral("villeneuve")})
    orders = [linear_attack(f"BR{k}SL") for k in range(1, 4)] + [
        linear_defense(f"FR{k}SL") for k in range(1, 4)
    ]
    ts = run(w, orders, dice=[1] * 6 + [5, 6, 5, *TAIL])
    (told,) = kinds(ts, "admiral_in_battle")
    assert told.data["admiral"] == "villeneuve" and told.data["fate"] == "killed"
    assert told.data["rule"] == "12.2.7.1" and told.data["closing_shift"] == 0
    assert ts.world.admirals["villeneuve"].fate is AdmiralFate.KILLED
    assert not kinds(run(ts.world, orders, seed=1), "admiral_in_battle")
    b = replace(_nelson_battle(Chit.LINEAR_DEFENSE), nelson=None, admirals=(("villeneuve", 1),))
    assert fight_eia(b, EIA_RULES, ScriptedRng([1] * 6 + [5, 5])).admiral_fates == (NelsonFate.UNHURT,)
    assert fight_eia(b, EIA_RULES, ScriptedRng([1] * 6 + [5, 6, 2])).admiral_fates == (NelsonFate.WOUNDED,)


def test_rule_12_2_7_2_the_closing_modifier_adds_to_the_casualty_roll() -> None:
    """12.2.7.2: "a stack of British fleets (only) commanded by Nelson has
    melee selected ... the number by which the player modifies the roll is
    also used to modify the casualty dice roll. The second roll ... is not
    modified." 4 + 5 + 2 = 11: wounded on an unmodified 3; not so with a
    Portuguese ship in the force."""
    dice = [1, 1, 6, 1, 1, 6, 1, 1, 4, 5, 3]
    british = fight_eia(_nelson_battle(Chit.MELEE), EIA_RULES, ScriptedRng(dice))
    assert british.closing_shift == 2 and british.nelson is NelsonFate.WOUNDED
    mixed = fight_eia(_nelson_battle(Chit.MELEE, ("BR", "PO")), EIA_RULES, ScriptedRng(dice))
    assert mixed.closing_shift == 0 and mixed.nelson is NelsonFate.UNHURT
    # his player chose 1 (the scenario's closing_shift): 4 + 5 + 1 = 10, unhurt
    chose_one = replace(_nelson_battle(Chit.MELEE), nelson_shift=1)
    one = fight_eia(chose_one, EIA_RULES, ScriptedRng(dice))
    assert one.closing_shift == 1 and one.nelson is NelsonFate.UNHURT


def _hulk_battle():  # type: ignore[no-untyped-def]
    w = eia_world(*fleet("BR", 10), *fleet("SP", 1, commander=None))
    orders = [linear_attack(f"BR{k}SL") for k in range(1, 11)] + [linear_attack("SP1SL")]
    return run(w, orders, dice=[6, 1, *TAIL])


def test_rule_12_2_8_a_disabled_ship_in_port_is_a_hulk() -> None:
    """12.2.8: "Unseaworthy but often well armed, many hulks spend the war
    years as an inherent part of port defensive schemes." The prize lies in
    Plymouth harbor, inactive, a hulk."""
    ts = _hulk_battle()
    (h,) = kinds(ts, "hulk")
    ship = ts.world.ships[h.ships[0]]
    assert ship.hulk and not ship.active and ship.location == InPort("Plymouth", harbor=True)


def test_rule_12_2_8_1_hulks_fight_only_in_port_raids_and_have_no_morale() -> None:
    """12.2.8.1: "With the exception of defense during a port raid, hulks take
    no part in naval combat ... Hulks have no morale and are not factored in
    when calculating the morale of the defending force." """
    hulk = replace(fleet("FR", 1, HARBOR, type_="FL")[0], hulk=True, active=False)
    # a blockade battle in the coastal waters: the hulk in the harbor is not in it
    w = eia_world(hulk, *fleet("FR", 2, COASTAL), *fleet("BR", 2, COASTAL))
    orders = [melee("BR1SL"), melee("BR2SL"), linear_defense("FR1SL"), linear_defense("FR2SL")]
    data = kinds(run(w, orders, seed=3), "battle")[0].data
    assert "FR1FL" not in [e["id"] for e in data["ships"]]
    # a port raid with only hulks defending: a factor, but no morale to break
    ships = (EiaShip("a", 0, "BR", ShipType.SL), EiaShip("h", 1, "FR", ShipType.FL, hulk=True))
    r = fight_eia(EiaBattle(ships=ships, kind=Kind.PORT_RAID), EIA_RULES, ScriptedRng([1] * 6 + TAIL))
    assert r.morale == (4.0, None) and not r.broken[1] and len(r.rounds) == 3


def test_rule_12_2_8_2_hulks_when_the_port_changes_hands() -> None:
    """12.2.8.2: "If any enemy land force occupies a port with hulks in it, all
    such are destroyed. For hulks in a port that changes hands [otherwise] ...
    roll one die for each hulk, 1-3 = hulk destroyed, 4-6 = hulk transferred to
    the port's new owner (unless friendly troops are garrisoning the port, in
    which case the hulks are sunk)." """
    hulks = [replace(s, hulk=True, active=False) for s in fleet("FR", 2, HARBOR)]
    ts = TurnState(world=eia_world(*hulks), orders={})
    taken = destroy_taken_hulks(ts, "Brest", "BR", Phase.FINAL_AMPHIBIOUS)
    assert not taken.world.ships and len(kinds(taken, "hulk_port_changed")) == 2
    ceded = hulks_change_hands(
        ts, EIA_RULES, "Brest", "BR", friends_garrison=False, phase=Phase.COMBAT, rng=ScriptedRng([3, 4])
    )
    assert sorted(ceded.world.ships) == ["BR1SL"] and ceded.world.ships["BR1SL"].hulk
    sunk = hulks_change_hands(
        ts, EIA_RULES, "Brest", "BR", friends_garrison=True, phase=Phase.COMBAT, rng=ScriptedRng([5, 6])
    )
    assert not sunk.world.ships


def test_rule_12_2_8_2_a_port_changing_hands_calls_the_hulks_roll() -> None:
    """12.2.8.2: "For hulks in a port that changes hands due to conquest or
    cession to a non allied power ... immediately roll one die for each hulk,
    1-3 = hulk destroyed, 4-6 = hulk transferred to the port's new owner".
    ``garrison.capture_port``, the one entry for a port passing to another
    state, rolls when no land force of the new owner occupies it (a 3 and a 4:
    one destroyed, one British), and destroys both when one does (the first
    sentence); PATE's garrison battle takes that path."""
    hulks = [replace(s, hulk=True, active=False) for s in fleet("FR", 2, HARBOR)]
    ts = TurnState(world=eia_world(*hulks), orders={})
    ceded = capture_port(CTX, ts, "Brest", "BR", occupied=False, rng=ScriptedRng([3, 4]))
    assert ceded.world.ports["Brest"].controller == "BR"
    fates = [e.data["fate"] for e in kinds(ceded, "hulk_port_changed")]
    assert fates == ["destroyed", "transferred"]
    assert [s.id for s in ceded.world.ships.values() if s.hulk] == ["BR1SL"]
    occupied = capture_port(CTX, ts, "Brest", "BR", occupied=True)
    assert not occupied.world.ships
    assert [e.data["fate"] for e in kinds(occupied, "hulk_port_changed")] == ["destroyed", "destroyed"]


def test_rule_12_2_8_3_refitting_a_hulk() -> None:
    """12.2.8.3: "hulks can be refitted ... in all friendly ports ... The cost
    is $5 and 1 manpower unit for each hulk ... and takes three months to
    complete. Refitted hulks immediately become ships." PATE: the reactivate
    order, 5 of the port's stores, three campaign turns (docs/rules/eia.md)."""
    hulk = replace(fleet("FR", 1, HARBOR)[0], hulk=True, active=False)
    w = eia_world(hulk)
    stores = w.ports["Brest"].stores
    refit = ShipOrder("FR1SL", admin=(AdminOrder(AdminKind.REACTIVATE),))
    result = resolve_turn(CTX, w, {"FR1SL": refit})
    ship = result.state.ships["FR1SL"]
    assert (
        ship.reactivates_turn == 4 and result.state.ports["Brest"].stores <= stores - EIA_RULES.refit_stores
    )
    assert [e.kind for e in result.events if e.ships == ("FR1SL",)][:1] == ["refit_begun"]
    world = result.state
    for _ in range(3):
        world = resolve_turn(CTX, world, {}).state
    assert world.ships["FR1SL"].active and not world.ships["FR1SL"].hulk


def _running(stance_cover: CombatStance, covering: int, dice: list[int]) -> TurnState:
    runners = fleet("FR", 2, HARBOR)
    cover = [s for s in fleet("FR", 2 + covering, HARBOR)][2:]
    w = eia_world(*runners, *cover, *fleet("BR", 3, COASTAL))
    out = Movement(sea_areas=("ECH",))
    orders = [order(s.id, stance=CombatStance.RUN_PAST, movement=out) for s in runners]
    orders += [order(s.id, stance=stance_cover) for s in cover]
    orders += [linear_attack(f"BR{k}SL") for k in range(1, 4)]
    return run(w, orders, dice=dice)


def test_rule_12_2_9_blockade_running() -> None:
    """12.2.9: "The addendum to the blockade rules below allow a fleet to risk
    a blockade battle (with its inferior odds) for the chance of slipping past
    the blockading force." Ordered out with Run Past, the runners try."""
    ts = _running(CombatStance.ACCEPT, 0, [1, *TAIL])
    (ran,) = kinds(ts, "ran_blockade")
    assert set(ran.ships) == {"FR1SL", "FR2SL"}


def test_rule_12_2_9_1_one_or_less_slips_past() -> None:
    """12.2.9.1: "On a roll of one or less, the force has successfully slipped
    past the blockading force and may continue its move normally. On a roll of
    2-6 it is intercepted, starting a normal blockade battle." """
    ok = _running(CombatStance.ACCEPT, 0, [1, *TAIL])
    assert all(isinstance(ok.world.ships[s].location, AtSea) for s in ("FR1SL", "FR2SL"))
    assert ok.orders["FR1SL"].movement.sea_areas == ()  # the first move, to the Channel, is made
    caught = _running(CombatStance.ACCEPT, 0, [2, *TAIL])
    assert kinds(caught, "blockade_run_failed")
    assert kinds(caught, "battle")[0].data["kind"] == "blockade"


def test_rule_12_2_9_2_a_covering_force_subtracts_one() -> None:
    """12.2.9.2: "This covering force must have greater or equal numbers than
    the force trying to avoid the blockade. The presence of such a covering
    force allows the player to subtract 1 from the die roll." A 2 slips past
    with two ships covering (Engage), not with one."""
    covered = _running(CombatStance.ENGAGE, 2, [2, *TAIL])
    (ran,) = kinds(covered, "ran_blockade")
    assert ran.data["covering_force"] and ran.data["modified"] == 1
    thin = _running(CombatStance.ENGAGE, 1, [2, *TAIL])
    assert kinds(thin, "blockade_run_failed") and not kinds(thin, "ran_blockade")
