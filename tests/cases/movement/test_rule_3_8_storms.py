"""Rule cases for storms: rules 1.4 and 3.8 and the decisions replacing the
lost section 8 (docs/rules/movement.md, "Storms")."""

from __future__ import annotations

import math

import pytest

from pate.core.rules.context import TurnContext
from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import Wind
from tests.unit.movement.maps import (
    CTX,
    HEAVY,
    LIGHT,
    MODERATE,
    E,
    W,
    events_of,
    port,
    run,
    sea,
    ship,
    variant,
    winds,
    world,
)

STILL = variant(CTX, winds={"shift": {"direction_percent": 0, "strength_percent": 0}})
HARMLESS = {"bands": [{"below": 1000, "rigging": 0, "hull": 0}]}


def _always(**over: object) -> TurnContext:
    storms: dict[str, object] = {"chance": {"light": 100, "moderate": 100, "heavy": 100}, **over}
    return variant(storms=storms)


def _near(count: int, n: int, percent: float) -> bool:
    p = percent / 100
    return abs(count / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9


@pytest.mark.slow
def test_rule_1_4_heavier_winds_bring_more_storms() -> None:
    """1.4: "There may also be storms in each sea area during the turn; the
    chance of storms is higher the heavier the winds are." Chances 2, 8 and
    25% (data/rules/storms.toml), measured over 2,500 turns each."""
    n = 2500
    seen = {}
    for strength, percent in ((LIGHT, 2), (MODERATE, 8), (HEAVY, 25)):
        count = 0
        for seed in range(n):
            w = world([ship("BR1SL", sea("SOC"))], winds(Wind(W, strength)))
            count += bool(events_of(run(w, seed=seed, ctx=STILL), "storm"))
        assert _near(count, n, percent), (strength, count)
        seen[strength] = count
    assert seen[LIGHT] < seen[MODERATE] < seen[HEAVY]


@pytest.mark.slow
def test_storms_endanger_damaged_ships_and_transports_most() -> None:
    """Decision: a storm founders a sound ship of the line never (in moderate
    winds), a transport group 10% of the time, a ship with four points of
    damage 15% of the time."""
    ctx = _always(scatter={"at_sea_percent": 0})
    n = 1500
    lost = {"sound": 0, "transport": 0, "damaged": 0}
    for seed in range(n):
        w = world(
            [
                ship("BR1SL", sea("SOC", 1)),
                ship("BR2TR", sea("SOC", 2)),
                ship("BR3SL", sea("SOC", 3), hull=2, rigging=2),
            ],
            winds(Wind(W, MODERATE)),
        )
        gone = {s for e in events_of(run(w, seed=seed, ctx=ctx), "foundered") for s in e.ships}
        lost["sound"] += "BR1SL" in gone
        lost["transport"] += "BR2TR" in gone
        lost["damaged"] += "BR3SL" in gone
    assert lost["sound"] == 0
    assert _near(lost["transport"], n, 10) and _near(lost["damaged"], n, 15)


def test_storm_damage_is_reported_to_those_present() -> None:
    """Decision: each ship struck rolls for rigging and hull damage; the event
    names it and is witnessed by the ships in contact with it."""
    ctx = _always(damage={"bands": [{"below": 1000, "rigging": 2, "hull": 1}]}, scatter={"at_sea_percent": 0})
    w = world([ship("BR1SL", sea("SOC")), ship("FR1SL", sea("SOC"))], winds(Wind(W, MODERATE)))
    ts = run(w, ctx=ctx)
    hits = {e.ships[0]: e for e in events_of(ts, "storm_damage")}
    assert hits["BR1SL"].witnesses == ("FR1SL",)
    assert (ts.world.ships["BR1SL"].rigging, ts.world.ships["BR1SL"].hull) == (2, 1)


def test_storms_scatter_ships_at_sea() -> None:
    """Decision: at sea a ship may be blown to another tactical area."""
    ctx = _always(damage=HARMLESS, scatter={"at_sea_percent": 100})
    w = world([ship("BR1SL", sea("SOC", 2))], winds(Wind(W, MODERATE)))
    ts = run(w, ctx=ctx)
    loc = ts.world.ships["BR1SL"].location
    assert isinstance(loc, AtSea) and loc.area == "SOC" and loc.tactical != 2
    assert events_of(ts, "scattered")


@pytest.mark.parametrize(("sid", "harbor", "hull"), [("SP1SL", True, 0), ("BR1SL", False, 2)])
def test_storms_drive_ships_on_a_lee_shore_into_port_or_ashore(sid: str, harbor: bool, hull: int) -> None:
    """Decision: with the wind onshore (blowing from a port's exit direction),
    a ship in the coastal waters may be driven into the harbor of a port not
    held by an enemy, or ashore under a hostile port (two points of hull)."""
    ctx = _always(damage=HARMLESS, scatter={"driven_percent": 100})
    w = world([ship(sid, port("Cadiz", False))], winds(SOA=Wind(W, MODERATE)))  # Cadiz exits west
    ts = run(w, ctx=ctx)
    assert ts.world.ships[sid].location == InPort("Cadiz", harbor)
    assert ts.world.ships[sid].hull == hull
    assert events_of(ts, "driven_into_port" if harbor else "driven_ashore")


def test_storms_blow_ships_out_of_the_coastal_waters_with_an_offshore_wind() -> None:
    """Decision: with the wind not onshore a ship may be blown out to sea."""
    ctx = _always(damage=HARMLESS, scatter={"blown_out_percent": 100})
    w = world([ship("SP1SL", port("Cadiz", False))], winds(SOA=Wind(E, MODERATE)))
    ts = run(w, ctx=ctx)
    loc = ts.world.ships["SP1SL"].location
    assert isinstance(loc, AtSea) and loc.area == "SOA"


def test_harbors_shelter_from_storms() -> None:
    """Decision: a storm strikes the sea area and the coastal waters of its
    ports, never a harbor."""
    ctx = _always(damage={"bands": [{"below": 1000, "rigging": 1, "hull": 0}]})
    w = world(
        [ship("SP1SL", port("Cadiz", True)), ship("SP2SL", port("Cadiz", False))], winds(Wind(E, MODERATE))
    )
    ts = run(w, ctx=ctx)
    assert ts.world.ships["SP1SL"].rigging == 0 and ts.world.ships["SP2SL"].rigging == 1
