"""Rule cases 6.10 with the contact numbers of 4.6: pursuit."""

from __future__ import annotations

import pytest

from pate.core.orders.model import Contact
from pate.core.world.ships import AtSea, InPort
from pate.core.world.state import Wind
from tests.unit.movement.maps import (
    CALM,
    MODERATE,
    E,
    N,
    W,
    events_of,
    go,
    order,
    port,
    pursue,
    run,
    sea,
    ship,
    winds,
    world,
)


def test_rule_6_10_pursuers_abandon_their_orders_and_follow() -> None:
    """6.10: "If a ship or transport group with a contact order of Pursuit sees
    an enemy ship or transport group in the same tactical location sail, it
    will abandon its own sailing orders (if any) and pursue the departing enemy
    ship." """
    w = world([ship("FR1FR", sea("SOC")), ship("BR1SL", sea("SOC"))], winds(Wind(E, MODERATE)))
    ts = run(w, [order("FR1FR", go("NOC")), order("BR1SL", go("PAN"), contact=pursue())], ctx=CALM)
    fr, br = ts.world.ships["FR1FR"].location, ts.world.ships["BR1SL"].location
    assert isinstance(fr, AtSea) and fr.area == "NOC" and br == fr
    (chase,) = events_of(ts, "pursued")
    assert chase.ships == ("BR1SL",) and chase.data["target"] == "FR1FR"


def test_rule_6_10_only_ships_in_the_same_tactical_location_pursue() -> None:
    """6.10: "... sees an enemy ship ... in the same tactical location sail" """
    w = world([ship("FR1FR", sea("SOC", 1)), ship("BR1SL", sea("SOC", 2))], winds(Wind(E, MODERATE)))
    ts = run(w, [order("FR1FR", go("NOC")), order("BR1SL", contact=pursue())], ctx=CALM)
    assert ts.world.ships["BR1SL"].location == sea("SOC", 2)


def test_rule_6_10_pursuers_succeed_and_fail_with_the_pursued() -> None:
    """6.10: "All pursuing ships will move together; their move will succeed if
    the move of the pursued ships succeeds, and will fail if the movement of the
    pursued ships fails." The frigate's second move upwind (60%) sometimes
    fails; the pursuer always ends where the frigate ends."""
    outcomes = set()
    for seed in range(200):
        wind = {"SOC": Wind(E, MODERATE), "NOC": Wind(W, MODERATE)}
        w = world([ship("FR1FR", sea("SOC")), ship("BR1SL", sea("SOC"))], winds(**wind))
        ts = run(w, [order("FR1FR", go("NOC", "WCA")), order("BR1SL", contact=pursue())], seed=seed, ctx=CALM)
        fr = ts.world.ships["FR1FR"].location
        assert ts.world.ships["BR1SL"].location == fr
        assert isinstance(fr, AtSea)
        outcomes.add(fr.area)
    assert outcomes == {"NOC", "WCA"}


def test_rule_6_10_pursuers_stay_in_the_coastal_waters_when_the_pursued_enter_the_harbor() -> None:
    """6.10: "If the pursued ships enter a harbor, the pursuing ships will not
    do so, but will remain in the coastal waters of the port." """
    w = world([ship("FR1FR", sea("SOC")), ship("BR1SL", sea("SOC"))], winds(Wind(E, MODERATE)))
    ts = run(
        w, [order("FR1FR", go(port_="Martinique", harbor=True)), order("BR1SL", contact=pursue())], ctx=CALM
    )
    assert ts.world.ships["FR1FR"].location == InPort("Martinique", True)
    assert ts.world.ships["BR1SL"].location == InPort("Martinique", False)


def test_rule_6_10_pursuers_may_decline_to_follow_into_coastal_waters() -> None:
    """6.10: "Pursuing ships can also select not to pursue into the coastal
    waters of ports, but abandon the pursuit remain in the open sea." """
    w = world([ship("FR1FR", sea("SOC")), ship("BR1SL", sea("SOC"))], winds(Wind(E, MODERATE)))
    contact = pursue(pursue_into_ports=False)
    ts = run(w, [order("FR1FR", go(port_="Martinique")), order("BR1SL", contact=contact)], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == InPort("Martinique", False)
    assert ts.world.ships["BR1SL"].location == sea("SOC")


def test_rule_6_10_a_chase_into_port_ends_when_declined_midway() -> None:
    """6.10 again: a pursuit begun at sea is abandoned when the pursued turn
    into a port and the pursuers chose not to follow there."""
    w = world([ship("FR1FR", sea("SUR")), ship("BR1SL", sea("SUR"))], winds(Wind(E, MODERATE)))
    contact = pursue(pursue_into_ports=False)
    ts = run(w, [order("FR1FR", go("SOC", port_="Martinique")), order("BR1SL", contact=contact)], ctx=CALM)
    assert ts.world.ships["FR1FR"].location == InPort("Martinique", False)
    br = ts.world.ships["BR1SL"].location
    assert isinstance(br, AtSea) and br.area == "SOC"
    assert events_of(ts, "pursuit_abandoned")[0].data["reason"] == "port"


@pytest.mark.parametrize(
    ("pursuer_harbor", "pursued_harbor", "pursues"),
    [(True, False, False), (False, False, True), (True, True, True)],
)
def test_rule_6_10_harbor_and_coastal_waters_are_different_tactical_locations(
    pursuer_harbor: bool, pursued_harbor: bool, pursues: bool
) -> None:
    """6.10: "... sees an enemy ship or transport group in the same tactical
    location sail ..." and 1.2: "A port is divided into two tactical areas, the
    harbor and the coastal waters." A pursuer in Dominica's harbor lets a
    French frigate sail from the coastal waters, but follows one sailing from
    the harbor (a pursuer in the coastal waters never sees a harbor departure:
    6.4 keeps the harbor shut while it lies off the coast)."""
    w = world(
        [ship("FR1FR", port("Dominica", pursued_harbor)), ship("BR1SL", port("Dominica", pursuer_harbor))]
    )
    ts = run(w, [order("FR1FR", go("NOC")), order("BR1SL", contact=pursue())], ctx=CALM)
    assert isinstance(ts.world.ships["FR1FR"].location, AtSea)
    assert bool(events_of(ts, "pursued")) is pursues
    br = ts.world.ships["BR1SL"].location
    assert br == (ts.world.ships["FR1FR"].location if pursues else InPort("Dominica", pursuer_harbor))


@pytest.mark.parametrize("mode", ["accept", "not hostile"])
def test_rule_6_10_only_pursuers_of_enemies_follow(mode: str) -> None:
    """4.6: "Accept means the ship will accept contact if enemy ships remain,
    but will not follow if they leave." Pursuit concerns enemy ships only."""
    sid = "BR1SL" if mode == "accept" else "PO1SL"
    contact = Contact() if mode == "accept" else pursue()
    w = world([ship("FR1FR", sea("SOC")), ship(sid, sea("SOC"))], winds(Wind(E, MODERATE)))
    ts = run(w, [order("FR1FR", go("NOC")), order(sid, contact=contact)], ctx=CALM)
    assert ts.world.ships[sid].location == sea("SOC")


CASES_4_6 = [
    # (minimum, maximum, enemy ships sailing, pursues?) -- the examples of 4.6
    (2, 10, 1, False),
    (2, 10, 2, True),
    (2, 10, 3, True),
    (2, 10, 9, True),
    (2, 10, 10, True),
    (2, 10, 11, False),
    (10, 2, 1, True),
    (10, 2, 2, True),
    (10, 2, 3, False),
    (10, 2, 9, False),
    (10, 2, 10, True),
    (10, 2, 11, True),
    (3, None, 2, False),
    (3, None, 3, True),
    (None, 3, 3, True),
    (None, 3, 4, False),
    (None, None, 11, True),
]


@pytest.mark.parametrize(("minimum", "maximum", "n", "pursues"), CASES_4_6)
def test_rule_4_6_pursuit_minimum_and_maximum(
    minimum: int | None, maximum: int | None, n: int, pursues: bool
) -> None:
    """4.6: "If a ship specifies a mininum of 2 and a maximum of 10, it will
    pursue 2 ships or 3 ships, or 9 ships or 10 ships, but not 1 ship or 11
    ships. If it specifies a minimum of 10 and a maximum of 2, then it will
    pursue 1 ship or 2 ships, or 10 ships or 11 ships, but not 3 ships or 9
    ships." The number is that of the enemy ships sailing away together."""
    french = [ship(f"FR{i + 1}FR", sea("SOC")) for i in range(n)]
    w = world([*french, ship("BR1SL", sea("SOC"))], winds(Wind(E, MODERATE)))
    orders = [order(s.id, go("NOC")) for s in french] + [order("BR1SL", contact=pursue(minimum, maximum))]
    ts = run(w, orders, ctx=CALM)
    followed = ts.world.ships["BR1SL"].location == ts.world.ships["FR1FR"].location
    assert followed is pursues
    assert N is not W


def test_rule_6_6_a_ship_stopped_after_her_first_move_does_not_pursue() -> None:
    """6.6: "Ships that move in the first movement phase have a chance of ending their movement
    and being unable to move again in the second phase." A ship of the line that sailed upwind
    first always stops; the enemy frigate she met sails on in the second move, and she stays,
    though her contact order is Pursue (6.10). In about a third of the seeds they meet."""
    met = 0
    for seed in range(60):
        w = world([ship("BR1SL", sea("SOC")), ship("FR1FR", sea("BAH"))], winds(Wind(N, MODERATE)))
        orders = [order("BR1SL", go("NOC", "BAH"), contact=pursue()), order("FR1FR", go("NOC", "SOC"))]
        ts = run(w, orders, seed=seed, ctx=CALM)
        assert [e.ships for e in events_of(ts, "stopped")] == [("BR1SL",)]
        assert not events_of(ts, "pursued")
        loc = ts.world.ships["BR1SL"].location
        assert isinstance(loc, AtSea) and loc.area == "NOC"
        met += bool(events_of(ts, "met_enemy"))
    assert met > 0  # the frigate sailed away from her tactical area in some seeds
