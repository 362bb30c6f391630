"""Rules 2.2, 7.3 and 7.8 and the mechanics page's "Battle outcomes"."""

from __future__ import annotations

from pate.core.orders.model import Aim, CombatStance, FleeTo, Line, Movement, Range
from pate.core.rules.combat import Outcome, ShoreBattery, Where
from pate.core.rules.combat.outcome import Pursuit, capture_chance
from pate.core.world.ships import AtSea, InPort, Quality, ShipType
from tests.unit.combat.combat_world import (
    COASTAL,
    HARBOR,
    RULES,
    battle,
    bship,
    fights,
    order,
    run_phase,
    ship,
    world,
)

ENGAGE = CombatStance.ENGAGE
CALM = Pursuit(enemy_rigging=0.0, line_broken=False, aimed_rigging=0.0, embayed=False)


def chance(chase: Pursuit = CALM, **kw: object) -> float:
    args = {"close": False, "hull": 0, "rigging": 0, "run_past": False, **kw}
    return capture_chance(RULES.capture, chase, **args)  # type: ignore[arg-type]


def lopsided(**kw: object) -> object:
    """Five Excellent ships of the line at close quarters against three Poor ones."""
    a_kw = {"stance": ENGAGE, "range": Range.CLOSE, "quality": Quality.EXCELLENT, "experience": 25}
    a_kw.update({k[2:]: v for k, v in kw.items() if k.startswith("a_")})
    b_kw = {k[2:]: v for k, v in kw.items() if k.startswith("b_")}
    ships = [bship(f"a{k}", 0, **a_kw) for k in range(5)]  # type: ignore[arg-type]
    ships += [bship(f"b{k}", 1, quality=Quality.POOR, **b_kw) for k in range(3)]  # type: ignore[arg-type]
    return battle(*ships, windward=0)


def test_rule_7_8_beaten_ships_escape_or_are_taken() -> None:
    """7.8: "At the end of combat, all unsunk ships on the losing side attempt
    to escape the battle. Those that do not escape are taken as prizes by the
    winning side. One ship on the winning side is randomly selected as captor" """
    captors = set()
    for r in fights(lopsided(), 400):  # type: ignore[arg-type]
        if r.winner is None:
            continue
        for i, o in enumerate(r.outcome):
            side = 0 if i < 5 else 1
            if side == r.winner:
                assert o in (Outcome.FOUGHT, Outcome.SUNK)
            else:
                assert o in (Outcome.ESCAPED, Outcome.CAPTURED, Outcome.SUNK)
            if o is Outcome.CAPTURED:
                c = r.captor[i]
                assert c is not None and (0 if c < 5 else 1) == r.winner
                captors.add(c)
    assert len(captors) == 5  # any ship of the winning side may be the captor


def test_rule_2_2_ships_sink_at_hull_damage_five() -> None:
    """2.2: "Hull and rigging damage vary from 0 (undamaged) to 5 (maximum
    damage). Ships sink if hull damage reaches 5." """
    sunk = 0
    for r in fights(lopsided(b_hull=4), 300):  # type: ignore[arg-type]
        for i, o in enumerate(r.outcome):
            assert 0 <= r.hull[i] <= 5 and 0 <= r.rigging[i] <= 5
            assert (o is Outcome.SUNK) == (r.hull[i] == 5)
            sunk += o is Outcome.SUNK
    assert sunk > 0
    w = world(
        *(ship(f"BR{k}SL", quality=Quality.EXCELLENT, experience=25) for k in range(1, 6)),
        ship("FR1SL", hull=4),
    )
    orders = {
        f"BR{k}SL": order(f"BR{k}SL", stance=ENGAGE, range=Range.CLOSE, aim=Aim.HULL) for k in range(1, 6)
    }
    for seed in range(1, 40):
        ts = run_phase(w, orders, seed=seed)
        if any(e.kind == "sunk" for e in ts.events):
            assert "FR1SL" not in ts.world.ships
            break
    else:
        raise AssertionError("no sinking in 39 battles of a battered ship against five")


def test_mechanics_capture_chance_factors() -> None:
    """Mechanics: "The chance of a ship being captured depends on how much
    damage it has taken, with rigging damage counting more than hull damage,
    the amount of rigging damage the opposing fleet has taken, whether it has
    Run Past orders, and on whether the battle was fought at close quarters." """
    assert chance(rigging=2) > chance(hull=2) > chance()
    worn = Pursuit(enemy_rigging=2.0, line_broken=False, aimed_rigging=0.0, embayed=False)
    assert chance(worn, hull=2, rigging=2) < chance(hull=2, rigging=2)
    assert chance(hull=2, rigging=2, run_past=True) < chance(hull=2, rigging=2)
    assert chance(close=True, hull=2) > chance(close=False, hull=2)
    assert chance(hull=4, rigging=5) <= RULES.capture.max_pct


def test_mechanics_ships_do_not_surrender_unhurt() -> None:
    """Mechanics: "The chance of a ship being captured depends on how much
    damage it has taken".  Decision (docs/rules/combat.md): a
    warship with less than two points of hull and rigging damage is never
    taken, whatever the odds; an unarmed transport group (2.1) may be."""
    broke = Pursuit(enemy_rigging=0.0, line_broken=True, aimed_rigging=1.0, embayed=True)
    assert chance(broke, close=True) == 0.0
    assert chance(broke, close=True, rigging=1) == 0.0
    assert chance(broke, close=True, hull=1, rigging=1) > 0.0
    assert chance(armed=False) > 0.0
    taken = []
    for r in fights(lopsided(a_line=Line.BREAK), 600):  # type: ignore[arg-type]
        taken += [r.hull[i] + r.rigging[i] for i, o in enumerate(r.outcome) if o is Outcome.CAPTURED]
    assert len(taken) > 50
    assert min(taken) >= RULES.capture.min_damage_points
    assert sum(taken) / len(taken) >= 3.5  # prizes are mostly battered ships


def test_rule_7_3_aim_at_rigging_shifts_damage_to_rigging() -> None:
    """7.3: "Firing at enemy rigging will cause a higher proportion of damage to
    the enemy rigging"."""

    def rigging_share(aim: Aim) -> float:
        runs = fights(lopsided(a_aim=aim), 400)  # type: ignore[arg-type]
        hull = sum(r.hull[i] for r in runs for i in range(5, 8))
        rig = sum(r.rigging[i] for r in runs for i in range(5, 8))
        return rig / (hull + rig)

    assert rigging_share(Aim.RIGGING) > rigging_share(Aim.HULL) + 0.1


def test_rule_7_3_aim_at_rigging_raises_prizes_hull_raises_sinkings() -> None:
    """7.3: firing at rigging "increases the chance of taking prizes but reduces
    total fire effect; firing at enemy hulls increases the chance of sinking
    enemy ships." """
    aimed = Pursuit(enemy_rigging=0.0, line_broken=False, aimed_rigging=1.0, embayed=False)
    assert chance(aimed, hull=2) > chance(hull=2)

    def tally(aim: Aim, what: Outcome) -> int:
        runs = fights(lopsided(a_aim=aim, b_hull=2), 600)  # type: ignore[arg-type]
        return sum(o is what for r in runs for o in r.outcome[5:])

    assert tally(Aim.HULL, Outcome.SUNK) > 1.5 * tally(Aim.RIGGING, Outcome.SUNK)
    a = bship("a", 0, aim=Aim.RIGGING, experience=1)
    b = bship("b", 0, aim=Aim.HULL, experience=1)
    from pate.core.rules.combat import ship_strength

    assert ship_strength(RULES, a, close=False) < ship_strength(RULES, b, close=False)


def test_mechanics_shore_batteries_fire_half_at_hulls_half_at_rigging() -> None:
    """Mechanics: "Shore batteries direct half of their fire at hulls, and half
    of it at rigging." The defenders are a transport group (no fire of its own)
    and a battery of defense rating 6."""
    b = battle(
        *(bship(f"a{k}", 0, stance=ENGAGE) for k in range(3)),
        bship("tr", 1, ShipType.TR, crew=500),
        where=Where.HARBOR,
        windward=0,
        battery=ShoreBattery(side=1, defense=6),
    )
    runs = fights(b, 1500)
    hull = sum(r.hull[i] for r in runs for i in range(3))
    rigging = sum(r.rigging[i] for r in runs for i in range(3))
    assert hull > 300
    assert abs(hull / (hull + rigging) - 0.5) < 0.05


def test_mechanics_damage_depends_on_both_strengths() -> None:
    """Mechanics: "The amount of damage and crew loss depends on the total
    strength of both sides" - a stronger enemy does more damage."""

    def damage_taken(n_enemies: int) -> float:
        ships = [bship(f"a{k}", 0, stance=ENGAGE) for k in range(n_enemies)] + [bship("b", 1)]
        runs = fights(battle(*ships, windward=0), 500)
        return sum(r.hull[-1] + r.rigging[-1] + r.crew_lost[-1] / 100 for r in runs) / len(runs)

    assert damage_taken(3) > 1.5 * damage_taken(1)


def test_rule_7_8_escape_at_sea_moves_to_another_tactical_area() -> None:
    """7.8: "Escaping ships will move to a different tactical location if the
    battle was fought at sea" """
    w = world(
        *(ship(f"BR{k}SL", quality=Quality.EXCELLENT, experience=25) for k in range(1, 6)), ship("FR1SL")
    )
    orders = {f"BR{k}SL": order(f"BR{k}SL", stance=ENGAGE) for k in range(1, 6)}
    for seed in range(1, 60):
        ts = run_phase(w, orders, seed=seed)
        escaped = [e for e in ts.events if e.kind == "escaped" and e.ships == ("FR1SL",)]
        if escaped:
            loc = ts.world.ships["FR1SL"].location
            assert isinstance(loc, AtSea) and loc.area == "ECH" and loc.tactical != 1
            assert set(escaped[0].witnesses) == {f"BR{k}SL" for k in range(1, 6)}
            return
    raise AssertionError("no escape in 59 battles")


def test_rule_7_8_escape_from_a_port_to_sea_cancels_the_first_move() -> None:
    """7.8: "they will move to sea if the battle was fought in a port area. If a
    ship fleeing from a port battle flees to the adjoining sea area, then if it
    had phase 1 orders to move to that sea area, the move order will be
    cancelled since it has already been carried out via fleeing." """
    w = world(
        *(ship(f"BR{k}SL", HARBOR, quality=Quality.EXCELLENT) for k in range(1, 6)), ship("FR1SL", HARBOR)
    )
    orders = {f"BR{k}SL": order(f"BR{k}SL", stance=ENGAGE) for k in range(1, 6)}
    orders["FR1SL"] = order("FR1SL", movement=Movement(sea_areas=("ECH", "NOS")))
    for seed in range(1, 80):
        ts = run_phase(w, orders, seed=seed)
        if any(e.kind == "escaped" and e.ships == ("FR1SL",) for e in ts.events):
            loc = ts.world.ships["FR1SL"].location
            assert isinstance(loc, AtSea) and loc.area == "ECH"
            assert ts.orders["FR1SL"].movement.sea_areas == ("NOS",)
            return
    raise AssertionError("no escape in 79 battles")


def test_mechanics_losers_in_coastal_waters_run_to_harbor_or_sea() -> None:
    """Mechanics: players decide "whether to break off battle and, if they are in
    coastal waters, whether to run to harbor or to open sea"."""
    for flee, expect_harbor in ((FleeTo.HARBOR, True), (FleeTo.SEA, False)):
        w = world(
            *(ship(f"BR{k}SL", COASTAL, quality=Quality.EXCELLENT) for k in range(1, 6)),
            ship("FR1SL", COASTAL),
        )
        orders = {f"BR{k}SL": order(f"BR{k}SL", stance=ENGAGE) for k in range(1, 6)}
        orders["FR1SL"] = order("FR1SL", flee_to=flee)
        for seed in range(1, 80):
            ts = run_phase(w, orders, seed=seed)
            if any(e.kind == "escaped" and e.ships == ("FR1SL",) for e in ts.events):
                loc = ts.world.ships["FR1SL"].location
                assert (loc == InPort("Brest", harbor=True)) is expect_harbor
                assert isinstance(loc, AtSea) is not expect_harbor
                break
        else:
            raise AssertionError("no escape")


def test_rule_6_4_losers_do_not_run_into_a_harbor_where_hostile_ships_lie() -> None:
    """Mechanics: losers in coastal waters "run to harbor or to open sea"; 6.4: ships "may not
    sail to the harbor in the presence of hostile enemy ships". With a British ship at anchor
    in Brest harbor, a beaten French ship ordered to run to the harbor runs to the open sea."""
    w = world(
        *(ship(f"BR{k}SL", COASTAL, quality=Quality.EXCELLENT) for k in range(1, 6)),
        ship("BR6SL", InPort("Brest", harbor=True)),
        ship("FR1SL", COASTAL),
    )
    orders = {f"BR{k}SL": order(f"BR{k}SL", stance=ENGAGE) for k in range(1, 6)}
    orders["FR1SL"] = order("FR1SL", flee_to=FleeTo.HARBOR)
    for seed in range(1, 80):
        ts = run_phase(w, orders, seed=seed)
        if any(e.kind == "escaped" and e.ships == ("FR1SL",) for e in ts.events):
            assert isinstance(ts.world.ships["FR1SL"].location, AtSea)
            return
    raise AssertionError("no escape")


def test_rule_7_8_prize_gets_captor_commanders_orders_and_lowest_id() -> None:
    """7.8: "the commander and deputy of the captor become the commander and
    deputy of the prize, the prize receives a new ship ID based on her new state
    (the lowest number available will be used) and acquires the same attachment
    and orders as the captor" """
    w = world(
        *(ship(f"BR{k}SL", quality=Quality.EXCELLENT, experience=25) for k in range(1, 4)),
        ship("FR7SL", rigging=4, quality=Quality.VERY_POOR),
    )
    orders = {f"BR{k}SL": order(f"BR{k}SL", stance=ENGAGE, range=Range.CLOSE) for k in range(1, 4)}
    for seed in range(1, 60):
        ts = run_phase(w, orders, seed=seed)
        captured = [e for e in ts.events if e.kind == "captured"]
        if captured:
            old, new, captor = captured[0].ships
            assert (old, new) == ("FR7SL", "BR4SL")
            prize = ts.world.ships["BR4SL"]
            assert prize.commander == f"cmd-{captor}" and prize.deputy == f"dep-{captor}"
            assert prize.attached_to == captor
            assert ts.orders["BR4SL"].combat == orders[captor].combat
            return
    raise AssertionError("no capture in 59 battles")


def test_mechanics_transport_group_raid() -> None:
    """Mechanics and 2.1: transports have no strength; beaten, they escape or
    are taken like ships."""
    b = battle(
        bship("fr", 0, ShipType.FR, stance=ENGAGE),
        bship("tr1", 1, ShipType.TR, crew=500),
        bship("tr2", 1, ShipType.TR, crew=500),
        where=Where.SEA,
    )
    outcomes = {o for r in fights(b, 200) for o in r.outcome[1:]}
    assert r_winner_always_raider(b)
    assert Outcome.CAPTURED in outcomes and Outcome.ESCAPED in outcomes


def r_winner_always_raider(b: object) -> bool:
    return all(r.winner == 0 for r in fights(b, 100))  # type: ignore[arg-type]
