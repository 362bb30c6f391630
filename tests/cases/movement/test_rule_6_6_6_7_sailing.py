"""Rule cases 6.6 and 6.7: whether ships can sail, and groups.

Statistical cases run the whole phase over many seeds; a proportion must lie
within four standard deviations (for its sample size) of the chance documented
in data/rules/movement.toml."""

from __future__ import annotations

import math

import pytest

from pate.core.orders.model import Commerce
from pate.core.world.geography import WindTable
from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import Wind
from tests.unit.movement.maps import (
    CALM,
    HEAVY,
    LIGHT,
    MODERATE,
    E,
    N,
    S,
    W,
    events_of,
    go,
    order,
    port,
    run,
    sea,
    ship,
    variant,
    winds,
    world,
)

RUNS = 1500


def _near(count: int, n: int, percent: int) -> bool:
    p = percent / 100
    return abs(count / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9


def _area(ts: object, sid: str) -> str:
    loc = ts.world.ships[sid].location  # type: ignore[attr-defined]
    return loc.area if isinstance(loc, AtSea) else loc.port


@pytest.mark.slow
def test_rule_6_6_upwind_sailing_fails_more() -> None:
    """6.6: "Ships and transports may not be able to sail as ordered,
    depending on the wind and any damage they have suffered." A ship of the
    line with two points of rigging damage (-40) makes its first move upwind
    at 70%, across at 110% (certain)."""
    moved = {"upwind": 0, "across": 0}
    for seed in range(RUNS):
        for way, wind in (("upwind", Wind(N, MODERATE)), ("across", Wind(W, MODERATE))):
            w = world([ship("BR1SL", sea("SOC"), rigging=2)], winds(wind))
            moved[way] += _area(run(w, [order("BR1SL", go("NOC"))], seed=seed, ctx=CALM), "BR1SL") == "NOC"
    assert moved["across"] == RUNS
    assert _near(moved["upwind"], RUNS, 70)


def test_rule_6_6_recovered_example_frigate_raiding_upwind_damaged() -> None:
    """6.6 "More Details": "180 - 2x10 - 2x20 - 50 = 70%" for a frigate sailing
    upwind with two points of hull and two of rigging damage, raiding."""
    w = world([ship("BR1FR", sea("SOC"), hull=2, rigging=2)], winds(Wind(N, MODERATE)))
    ts = run(w, [order("BR1FR", go("NOC"), commerce=Commerce.RAID)], ctx=CALM)
    (tried,) = [e for e in ts.events if e.kind in ("sailed", "held_by_wind")]
    assert tried.data["chance"] == 70 and tried.data["heading"] == "upwind"


def test_rule_6_6_ships_that_moved_first_may_be_unable_to_move_again() -> None:
    """6.6: "Ships that move in the first movement phase have a chance of
    ending their movement and being unable to move again in the second
    phase." A ship of the line that sailed upwind first never moves again."""
    w = world([ship("BR1SL", sea("SOC"))], winds(Wind(N, MODERATE)))
    ts = run(w, [order("BR1SL", go("NOC", "BAH"))], ctx=CALM)
    assert _area(ts, "BR1SL") == "NOC"
    assert [e.kind for e in ts.events] == ["sailed", "arrived", "stopped"]


@pytest.mark.slow
def test_rule_6_6_chance_of_stopping_after_a_move_across_the_wind() -> None:
    """6.6, recovered: a ship of the line that moved across the wind is unable
    to move again with chance 20%; its second move, downwind, is certain."""
    wind = {"SOC": Wind(W, MODERATE), "NOC": Wind(E, MODERATE)}
    stopped = 0
    for seed in range(RUNS):
        w = world([ship("BR1SL", sea("SOC"))], winds(**wind))
        stopped += _area(run(w, [order("BR1SL", go("NOC", "WCA"))], seed=seed, ctx=CALM), "BR1SL") == "NOC"
    assert _near(stopped, RUNS, 20)


@pytest.mark.parametrize(("strength", "held"), [(HEAVY, True), (MODERATE, False), (LIGHT, False)])
def test_rule_6_6_no_leaving_port_upwind_into_heavy_winds(strength: str, held: bool) -> None:
    """6.6: "In port movement, ships may not enter or exit a port if they must
    sail upwind into heavy winds" (Martinique exits north)."""
    w = world([ship("FR1FR", port("Martinique", True))], winds(SOC=Wind(N, strength)))  # type: ignore[arg-type]
    ts = run(w, [order("FR1FR", go("SOC"))], ctx=CALM)
    assert (ts.world.ships["FR1FR"].location == InPort("Martinique", True)) is held


def test_rule_6_6_no_entering_port_upwind_into_heavy_winds() -> None:
    """6.6: "... may not enter ... a port if they must sail upwind into heavy
    winds" (into Martinique is a course south)."""
    w = world([ship("FR1FR", sea("SOC"))], winds(SOC=Wind(S, HEAVY)))
    ts = run(w, [order("FR1FR", go(port_="Martinique"))], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == sea("SOC")
    assert events_of(ts, "held_in_port")[0].data["reason"] == "upwind_heavy"


def test_rule_6_6_no_port_movement_upwind_with_enemies_present() -> None:
    """6.6: "... or if enemy ships are present and they must sail upwind into
    winds of any strength." """
    out = world(
        [ship("FR1FR", port("Martinique")), ship("BR1SL", port("Martinique"))], winds(SOC=Wind(N, LIGHT))
    )
    ts = run(out, [order("FR1FR", go("SOC"))], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == InPort("Martinique", False)
    assert events_of(ts, "held_in_port")[0].data["reason"] == "upwind_enemy"
    alone = world([ship("FR1FR", port("Martinique"))], winds(SOC=Wind(N, LIGHT)))
    assert _area(run(alone, [order("FR1FR", go("SOC"))], ctx=CALM), "FR1FR") == "SOC"


def test_rule_6_6_no_shift_within_a_port_with_enemies_present() -> None:
    """6.6: "They also may not move from harbor to coastal waters within a
    port, or vice versa, if enemy ships are present, except in the movement
    before combat." """
    w = world([ship("FR1SL", port("Martinique", True)), ship("BR1SL", port("Martinique", False))])
    ts = run(w, [order("FR1SL", go(port_="Martinique", harbor=False))], ctx=CALM)
    assert ts.world.ships["FR1SL"].location == InPort("Martinique", True)
    assert [e.kind for e in ts.events] == ["shift_blocked"]


def test_rule_6_6_recovered_held_in_harbor_keeps_its_second_move() -> None:
    """6.6 "More Details": "A ship held in harbor at the first move keeps its
    second move." Held by a heavy northerly, it sails when the wind shifts."""
    south = WindTable(direction=((S, 100),), strength=((MODERATE, 100),))
    ctx = variant(tables={"SOC": south}, winds={"shift": {"direction_percent": 100, "strength_percent": 100}})
    w = world([ship("FR1FR", port("Martinique", True))], winds(SOC=Wind(N, HEAVY)))
    ts = run(w, [order("FR1FR", go("SOC", "NOC"))], ctx=ctx)
    assert _area(ts, "FR1FR") == "SOC"
    (sailed,) = events_of(ts, "sailed")
    assert sailed.data["step"] == 6 and sailed.data["heading"] == "downwind"


@pytest.mark.slow
def test_rule_6_7_allied_ships_move_together_on_one_roll() -> None:
    """6.7: "Actively allied ships and transports groups in the same location
    will move together, and will have a single roll for their ability to sail
    due to wind and damage. Either all will move or all will not." A French
    and a Spanish ship of the line, both raiding (110 - 50 = 60% upwind)."""
    together = moved = 0
    for seed in range(RUNS):
        w = world([ship("FR1SL", sea("SOC")), ship("SP1SL", sea("SOC"))], winds(Wind(N, MODERATE)))
        orders = [order(s, go("NOC"), commerce=Commerce.RAID) for s in ("FR1SL", "SP1SL")]
        ts = run(w, orders, seed=seed, ctx=CALM)
        a, b = _area(ts, "FR1SL"), _area(ts, "SP1SL")
        together += a == b
        moved += a == "NOC"
    assert together == RUNS
    assert _near(moved, RUNS, 60)


@pytest.mark.slow
def test_rule_6_7_damaged_ships_may_not_move_with_their_group() -> None:
    """6.7: "Exception: if some are damaged, the damaged ones may not move."
    Decision: a damaged ship moves only when the group's roll is also below
    its own damage-reduced chance (across: 150 - 3x20 = 90%)."""
    hurt_moved = 0
    for seed in range(RUNS):
        w = world([ship("FR1SL", sea("SOC")), ship("FR2SL", sea("SOC"), rigging=3)], winds(Wind(W, MODERATE)))
        ts = run(w, [order(s, go("NOC")) for s in ("FR1SL", "FR2SL")], seed=seed, ctx=CALM)
        assert _area(ts, "FR1SL") == "NOC"
        hurt_moved += _area(ts, "FR2SL") == "NOC"
    assert _near(hurt_moved, RUNS, 90)


def test_rule_6_7_hostile_ships_and_ships_sailing_alone_roll_apart() -> None:
    """6.7 moves "actively allied" ships together; rule 4.5 lets a ship "sail
    alone".  Each of these rolls for itself."""
    w = world(
        [
            ship("FR1SL", sea("SOC")),
            ship("FR2SL", sea("SOC")),
            ship("BR1SL", sea("SOC")),
            ship("PO1SL", sea("SOC")),
        ]
    )
    orders = [
        order("FR1SL", go("NOC")),
        order("FR2SL", go("NOC", sail_alone=True)),
        order("BR1SL", go("NOC")),
        order("PO1SL", go("NOC")),
    ]
    ts = run(w, orders, ctx=CALM)
    assert sorted(e.ships for e in events_of(ts, "sailed")) == [
        ("BR1SL",),
        ("FR1SL",),
        ("FR2SL",),
        ("PO1SL",),
    ]


def test_rule_6_7_attachment_does_not_affect_movement() -> None:
    """6.7: "They will move together regardless of whether they are attached
    for the purpose of sharing orders, or not; attachment does not affect
    movement of ships in any way." """
    w = world(
        [ship("FR1SL", sea("SOC")), ship("FR2SL", sea("SOC")), ship("FR3SL", sea("SOC"), attached_to="FR1SL")]
    )
    orders = [order("FR1SL", go("NOC")), order("FR2SL", go("NOC")), order("FR3SL", go("PAN"))]
    ts = run(w, orders, ctx=CALM)
    groups = sorted(e.ships for e in events_of(ts, "sailed"))
    assert groups == [("FR1SL", "FR2SL"), ("FR3SL",)]
    assert E is not W
