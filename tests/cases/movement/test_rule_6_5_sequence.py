"""Rule cases 6.5 and 3.8: the eight steps of the movement phase, in order."""

from __future__ import annotations

from pate.core.rules.winds import describe_wind
from pate.core.world.geography import WindTable
from pate.core.world.ships import AtSea, InAtlantic, InPort
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


def _first(ts: object, kind: str, sid: str) -> int:
    for i, e in enumerate(ts.events):  # type: ignore[attr-defined]
        if e.kind == kind and sid in e.ships:
            return i
    raise AssertionError(f"no {kind} event for {sid}")


def test_rule_6_5_the_eight_steps_in_order() -> None:
    """6.5: "First, ships and transports in ports can shift position within the
    port ... Second, ships and transports in sea areas with orders to move to
    ports connected to their current sea area may do so ... Third, ships and
    transports sail to their first sea area. Fourth, winds shift and storms may
    occur ... Fifth, ships and transports which moved enter ports connected to
    their new sea areas. Sixth, ships and transports sail to their second sea
    area. Seventh, ships completing an Atlantic transit arrive on the map.
    Last, ships and transports which moved to a second sea area in the sixth
    step may enter ports connected to their new sea areas." """
    ctx = variant(tactical={"SWA": 1})
    w = world(
        [
            ship("FR1SL", port("Martinique", False)),  # 1: shift into the harbor
            ship("BR1FR", sea("SOC", 2)),  # 2: into Martinique from SOC
            ship("BR2FR", sea("BAH")),  # 3 and 6: NOC then SOC
            ship("BR3FR", sea("SUR")),  # 3 then 5: SOC, then Martinique
            ship("FR2SL", InAtlantic("SWA", 1, "g")),  # 7: arrives in SWA
            ship("BR5FR", sea("WCA")),  # 3 only: NOC
            ship("BR6FR", sea("SOC", 3)),  # 3, 6 then 8: PAN, WCA, Port au Prince
        ],
        winds(Wind(E, MODERATE)),
    )
    orders = [
        order("FR1SL", go(port_="Martinique", harbor=True)),
        order("BR1FR", go(port_="Martinique")),
        order("BR2FR", go("NOC", "SOC")),
        order("BR3FR", go("SOC", port_="Martinique")),
        order("BR5FR", go("NOC")),
        order("BR6FR", go("PAN", "WCA", port_="Port au Prince")),
    ]
    ts = run(w, orders, ctx=ctx)
    assert ts.world.ships["FR1SL"].location == InPort("Martinique", True)
    assert ts.world.ships["BR3FR"].location == InPort("Martinique", False)
    assert ts.world.ships["BR6FR"].location == InPort("Port au Prince", False)
    order_seen = [
        _first(ts, "shifted", "FR1SL"),
        _first(ts, "entered_port", "BR1FR"),
        _first(ts, "sailed", "BR2FR"),
        _first(ts, "entered_port", "BR3FR"),
        next(i for i, e in enumerate(ts.events) if e.kind == "sailed" and e.data.get("step") == 6),
        _first(ts, "arrived", "FR2SL"),
        _first(ts, "entered_port", "BR6FR"),
    ]
    assert order_seen == sorted(order_seen)
    steps = {
        e.ships[0]: e.data["step"]
        for e in events_of(ts, "sailed")
        if "BR3FR" in e.ships or "BR1FR" in e.ships
    }
    assert steps == {"BR1FR": 2, "BR3FR": 5}


def test_rule_6_5_ships_cannot_sail_directly_from_one_port_to_another() -> None:
    """6.5: "Ships cannot sail directly from one port to another. To sail from
    one port to another port on the same sea area, first sail to the sea
    area, then sail to the new port." """
    w = world(
        [ship("SP1FR", port("Cadiz", True)), ship("SP2FR", port("Cadiz", True))], winds(Wind(N, MODERATE))
    )
    ts = run(
        w, [order("SP1FR", go(port_="Gibraltar")), order("SP2FR", go("SOA", port_="Gibraltar"))], ctx=CALM
    )
    assert ts.world.ships["SP1FR"].location == InPort("Cadiz", True)
    assert events_of(ts, "course_impossible")[0].ships == ("SP1FR",)
    assert ts.world.ships["SP2FR"].location == InPort("Gibraltar", False)


def test_rule_6_5_step_four_winds_shift_between_the_two_moves() -> None:
    """6.5: "Fourth, winds shift" (3.8: "After this movement, winds may
    change"): the first move sails in the old wind, the second in the new, and
    the new wind stands for the next turn."""
    south = WindTable(direction=((S, 100),), strength=((LIGHT, 100),))
    ctx = variant(tables={"NOC": south}, winds={"shift": {"direction_percent": 100, "strength_percent": 100}})
    w = world([ship("BR1FR", sea("SOC"))], winds(Wind(W, MODERATE)))
    ts = run(w, [order("BR1FR", go("NOC", "BAH"))], ctx=ctx)
    first, second = events_of(ts, "sailed")
    assert first.data["wind"] == "moderate from the west"
    assert second.data["wind"] == "light from the south" == describe_wind(ts.world.winds["NOC"])
    assert second.data["heading"] == "downwind"
    assert any(e.kind == "wind_shifted" and e.data["area"] == "NOC" for e in ts.events)


def test_rule_3_8_storms_come_after_the_first_move() -> None:
    """3.8: "ships and transports move one sea area. After this movement, winds
    may change and storms may appear ... Ships and transports may then, winds
    permitting, move a second sea area." The storm finds the ship in the sea
    area it reached with its first move, and it still tries its second."""
    ctx = variant(
        storms={
            "chance": {"light": 100, "moderate": 100, "heavy": 100},
            "damage": {"bands": [{"below": 1000, "rigging": 1, "hull": 0}]},
            "scatter": {"at_sea_percent": 0},
        }
    )
    w = world([ship("BR1FR", sea("SOC"))], winds(Wind(E, MODERATE)))
    ts = run(w, [order("BR1FR", go("NOC", "BAH"))], ctx=ctx)
    (hit,) = events_of(ts, "storm_damage")
    assert hit.location.startswith("NOC")
    tries = [e for e in ts.events if e.kind in ("sailed", "held_by_wind")]
    first, second = tries
    assert first.data["step"] == 3 and second.data["step"] == 6
    assert _first(ts, "storm_damage", "BR1FR") < ts.events.index(second)
    # second move across the wind: 130, less 20 for the new rigging damage, less 50 in the storm
    # (storms.toml second_move_penalty, 30 until storms were made to delay more)
    assert second.data["chance"] == 130 - 20 - 50


def test_rule_6_5_step_seven_atlantic_arrivals_come_after_the_second_move() -> None:
    """6.5: "Sixth, ships and transports sail to their second sea area.
    Seventh, ships completing an Atlantic transit arrive on the map." The ship
    already there meets the arrivals, not the other way round."""
    ctx = variant(tactical={"SWA": 1})
    w = world([ship("BR1FR", sea("WCA")), ship("FR1SL", InAtlantic("SWA", 1, "g"))], winds(Wind(N, MODERATE)))
    ts = run(w, [order("BR1FR", go("NOC", "SWA"))], ctx=ctx)
    (met,) = events_of(ts, "met_enemy")
    assert met.ships == ("FR1SL",) and met.witnesses == ("BR1FR",)
    assert ts.world.ships["FR1SL"].location == ts.world.ships["BR1FR"].location == AtSea("SWA", 1)


def test_rule_6_5_heavy_upwind_first_move_still_possible_at_sea() -> None:
    """6.5 with 6.6: the port rules hold only for port movement; at sea a
    ship of the line sails upwind into a heavy wind with its 110% chance."""
    w = world([ship("BR1SL", sea("SOC"))], winds(Wind(N, HEAVY)))
    ts = run(w, [order("BR1SL", go("NOC"))], ctx=CALM)
    loc = ts.world.ships["BR1SL"].location
    assert isinstance(loc, AtSea) and loc.area == "NOC"
