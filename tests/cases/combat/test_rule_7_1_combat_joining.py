"""Rule 3.7, rule 7.1 and the mechanics page's "Joining battle"."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.model import CombatStance, ShipOrder
from pate.core.rng import Rng
from pate.core.rules.combat import Outcome, Where, fight
from pate.core.rules.combat.phase import build_battle
from pate.core.rules.context import TurnState
from pate.core.world.geography import Direction, WindStrength
from pate.core.world.ships import AtSea, InPort, ShipType
from pate.core.world.state import PortState, Wind
from tests.unit.combat.combat_world import (
    COASTAL,
    CTX,
    HARBOR,
    RULES,
    SEA,
    battle,
    bship,
    order,
    run_phase,
    ship,
    world,
)

ENGAGE = CombatStance.ENGAGE


def engaged(sid: str) -> dict[str, ShipOrder]:
    return {sid: order(sid, stance=ENGAGE)}


def test_rule_3_7_ships_in_contact_fight_where_they_are() -> None:
    """3.7: "Ships in sea areas may not move to join battles, but may only
    fight ships with which they are already in contact." """
    w = world(ship("BR1SL"), ship("FR1SL"), ship("FR2SL", AtSea("ECH", 2)))
    ts = run_phase(w, engaged("BR1SL"))
    battles = [e for e in ts.events if e.kind == "battle"]
    assert len(battles) == 1
    assert set(battles[0].ships) == {"BR1SL", "FR1SL"}
    assert ts.world.ships["FR2SL"].location == AtSea("ECH", 2)


def test_rule_7_1_groups_in_contact_may_engage() -> None:
    """7.1: "Whenever two groups of ships are in contact at the start of a
    combat phase, they may engage in battle." Hostile only: peace means no battle."""
    ts = run_phase(world(ship("BR1SL"), ship("DK1SL")), engaged("BR1SL"))
    assert not ts.events


def test_mechanics_no_battle_unless_a_ship_engages_or_runs_past() -> None:
    """Mechanics: "No battle occurs unless at least one ship selects "Engage"
    or "Run Past" for its combat order to bring on battle." """
    quiet = battle(bship("a", 0), bship("b", 1))
    result = fight(quiet, RULES, Rng(1))
    assert not result.fought and result.outcome == (Outcome.IDLE, Outcome.IDLE)
    for stance in (CombatStance.ENGAGE, CombatStance.RUN_PAST):
        loud = battle(bship("a", 0, stance=stance), bship("b", 1))
        assert fight(loud, RULES, Rng(1)).fought


def test_rule_7_1_frigates_never_fight_ships_of_the_line_at_sea() -> None:
    """7.1: "Frigates in coastal waters or sea areas never engage in combat
    against ships of the line or flagships." """
    for stance_fr, stance_sl in ((ENGAGE, CombatStance.ACCEPT), (CombatStance.ACCEPT, ENGAGE)):
        b = battle(
            bship("fr", 0, ShipType.FR, stance=stance_fr), bship("sl", 1, ShipType.SL, stance=stance_sl)
        )
        result = fight(b, RULES, Rng(2))
        assert not result.fought
        assert result.outcome == (Outcome.IDLE, Outcome.IDLE)


def test_rule_7_1_frigates_never_fight_ships_of_the_line_in_coastal_waters_offshore_winds() -> None:
    """7.1 and mechanics: "In sea areas and in coastal waters not with onshore
    winds, a frigate cannot engage an enemy ship of the line"."""
    b = battle(bship("fr", 0, ShipType.FR, stance=ENGAGE), bship("sl", 1), where=Where.COASTAL, onshore=False)
    assert not fight(b, RULES, Rng(3)).fought


def test_rule_7_1_frigates_fight_ships_of_the_line_in_a_harbor() -> None:
    """7.1: "Frigates fight in the same battle as ships of the line or
    flagships only when the battle takes place in a harbor." """
    b = battle(bship("fr", 0, ShipType.FR, stance=ENGAGE), bship("sl", 1), where=Where.HARBOR)
    result = fight(b, RULES, Rng(4))
    assert result.fought and result.engagements[0].tier == "all"
    assert Outcome.IDLE not in result.outcome


def test_mechanics_any_ship_engages_any_other_in_coastal_waters_with_onshore_winds() -> None:
    """Mechanics: "In harbors and coastal waters with onshore wins, any ship
    can engage any other ship." """
    b = battle(bship("fr", 0, ShipType.FR, stance=ENGAGE), bship("sl", 1), where=Where.COASTAL, onshore=True)
    assert fight(b, RULES, Rng(5)).fought


def test_mechanics_frigate_cannot_engage_transports_covered_by_a_ship_of_the_line() -> None:
    """Mechanics: a frigate cannot engage "an enemy transport group if there
    is a ship of the line allied to the transport group present"."""
    covered = battle(
        bship("fr", 0, ShipType.FR, stance=ENGAGE), bship("tr", 1, ShipType.TR, crew=500), bship("sl", 1)
    )
    assert not fight(covered, RULES, Rng(6)).fought
    alone = battle(bship("fr", 0, ShipType.FR, stance=ENGAGE), bship("tr", 1, ShipType.TR, crew=500))
    result = fight(alone, RULES, Rng(6))
    assert result.fought and result.winner == 0


def test_mechanics_frigates_fight_frigates_apart_from_the_line_at_sea() -> None:
    """7.1 with the mechanics page: at sea, ships of the line fight ships of
    the line and frigates fight frigates, in two separate engagements."""
    b = battle(
        bship("sl0", 0, stance=ENGAGE),
        bship("fr0", 0, ShipType.FR, stance=ENGAGE),
        bship("sl1", 1),
        bship("fr1", 1, ShipType.FR),
    )
    result = fight(b, RULES, Rng(7))
    assert [(e.tier, e.fought) for e in result.engagements] == [("line", True), ("frigates", True)]


def test_rule_7_1_harbor_ships_that_wish_to_fight_come_out() -> None:
    """7.1: "If the ships are in a port, and some are in the harbor and some in
    the coastal waters, then they may move to join each other ... If the ships
    in the harbor wish to come out, they do so" """
    w = world(ship("FR1SL", HARBOR), ship("FR2SL", HARBOR), ship("BR1SL", COASTAL))
    ts = run_phase(w, engaged("FR1SL"))
    assert [e.kind for e in ts.events][:1] == ["joined_battle"]
    battle_event = next(e for e in ts.events if e.kind == "battle")
    assert battle_event.location == "Brest (coastal waters)"
    assert "FR2SL" not in battle_event.ships  # it did not wish to come out
    assert ts.world.ships["FR2SL"].location == HARBOR


def test_rule_7_1_coastal_ships_enter_when_the_harbor_ships_stay() -> None:
    """7.1: "if not, then the ships in the coastal waters may enter the harbor
    if they wish to do so."  The battle is then in the harbor."""
    w = world(ship("FR1SL", HARBOR), ship("BR1SL", COASTAL))
    ts = run_phase(w, engaged("BR1SL"))
    joined = next(e for e in ts.events if e.kind == "joined_battle")
    assert joined.ships == ("BR1SL",) and joined.data["to"] == "Brest (harbor)"
    assert next(e for e in ts.events if e.kind == "battle").location == "Brest (harbor)"


def test_rule_7_1_rule_6_6_no_moving_upwind_into_heavy_winds() -> None:
    """7.1: "(if the wind permits them to move in or out of the port: see rule
    6.6)"; 6.6: ships "may not enter or exit a port if they must sail upwind
    into heavy winds".  Brest exits west: a heavy westerly keeps its harbor
    ships in; a heavy easterly keeps coastal ships out."""
    westerly = Wind(Direction.WEST, WindStrength.HEAVY)
    w = world(ship("FR1SL", HARBOR), ship("BR1SL", COASTAL), wind=westerly)
    assert not run_phase(w, engaged("FR1SL")).events
    easterly = Wind(Direction.EAST, WindStrength.HEAVY)
    w = world(ship("FR1SL", HARBOR), ship("BR1SL", COASTAL), wind=easterly)
    assert not run_phase(w, engaged("BR1SL")).events
    moderate = Wind(Direction.EAST, WindStrength.MODERATE)
    w = world(ship("FR1SL", HARBOR), ship("BR1SL", COASTAL), wind=moderate)
    assert run_phase(w, engaged("BR1SL")).events


def test_rule_7_1_shore_batteries_join_for_the_side_controlling_the_port() -> None:
    """7.1: "If the battle takes places in the harbor, then the shore batteries
    defending the harbor will take part if any ship in the battle is allied to
    the side controlling the port." Brest is French; Spain is France's ally."""
    br, sp = ship("BR1SL", HARBOR), ship("SP1SL", HARBOR)
    ts = TurnState(world=world(br, sp), orders={})
    b = build_battle(CTX, ts, [br, sp], ("BR",), HARBOR)
    assert b.battery is not None and b.battery.side == 1 and b.battery.defense == 3
    neutral = replace(ts.world, ports={**ts.world.ports, "Brest": PortState("Brest", "DK", 10)})
    b2 = build_battle(CTX, replace(ts, world=neutral), [br, sp], ("BR",), HARBOR)
    assert b2.battery is None
    coastal = build_battle(
        CTX, ts, [replace(br, location=COASTAL), replace(sp, location=COASTAL)], ("BR",), COASTAL
    )
    assert coastal.battery is None


def test_rule_7_1_onshore_wind_read_from_the_port_exit() -> None:
    """Mechanics "coastal waters with onshore winds": the wind blows from the
    sea, i.e. from the port's exit direction (Brest exits west)."""
    br, fr = ship("BR1SL", COASTAL), ship("FR1SL", COASTAL)
    for direction, onshore in ((Direction.WEST, True), (Direction.EAST, False)):
        ts = TurnState(world=world(br, fr, wind=Wind(direction, WindStrength.LIGHT)), orders={})
        b = build_battle(CTX, ts, [br, fr], ("BR",), InPort("Brest", harbor=False))
        assert (b.where, b.onshore, b.wind) == (Where.COASTAL, onshore, WindStrength.LIGHT)
    assert (
        build_battle(CTX, ts, [replace(br, location=SEA), replace(fr, location=SEA)], ("BR",), SEA).where
        is Where.SEA
    )


def _pursuer(sid: str, stance: CombatStance = CombatStance.ACCEPT, **contact: object) -> ShipOrder:
    from pate.core.orders.model import Combat, Contact, ContactMode

    return ShipOrder(sid, contact=Contact(mode=ContactMode.PURSUE, **contact), combat=Combat(stance=stance))  # type: ignore[arg-type]


def test_rule_4_6_pursuers_give_battle_to_enemies_that_stay() -> None:
    """4.6: pursuit "will follow after enemy ships you encounter if they sail
    away ..., and will give battle if they do not."  Mechanics page: "No
    battle occurs unless at least one ship selects "Engage" or "Run Past"".
    Decision (docs/rules/combat.md): a Pursue order with combat Accept engages
    when an enemy in contact has no order to sail away this turn."""
    from pate.core.orders.model import Movement

    w = world(ship("BR1SL"), ship("FR1SL"))
    staying = run_phase(w, {"BR1SL": _pursuer("BR1SL")})
    assert [e.kind for e in staying.events][:1] == ["battle"]
    sailing = {"BR1SL": _pursuer("BR1SL"), "FR1SL": ShipOrder("FR1SL", movement=Movement(("NOS",)))}
    assert not [e for e in run_phase(w, sailing).events if e.kind == "battle"]  # followed in 6.10 instead
    evading = {"BR1SL": _pursuer("BR1SL", CombatStance.EVADE)}
    assert not [e for e in run_phase(w, evading).events if e.kind == "battle"]  # the combat order stands
    too_few = {"BR1SL": _pursuer("BR1SL", minimum=2)}  # 4.6's numbers: not for one ship
    assert not [e for e in run_phase(w, too_few).events if e.kind == "battle"]
