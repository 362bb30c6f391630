"""Rule 2.2: experience gained at sea (docs/rules/movement.md,
"Experience at sea")."""

from __future__ import annotations

from pate.core.world.ships import AtSea
from tests.cases.turn.turn_world import coastal, harbor, move, run, sea, ship, world


def test_rule_2_2_ships_gain_one_point_each_turn_at_sea_or_in_coastal_waters() -> None:
    """2.2: "Ships gain one point of experience each turn spent in a sea area
    or coastal waters of a port".  A ship in harbor all turn gains nothing; a
    ship that sails out of the harbor spent part of the turn at sea."""
    w = world(
        [
            ship("BR1SL", sea("BIS"), experience=3),
            ship("BR2SL", coastal("Plymouth"), experience=3),
            ship("FR1SL", harbor("Brest"), experience=3),
            ship("FR2SL", harbor("Brest"), experience=3),
        ]
    )
    r = run(w, move("FR2SL", "ECH"))
    exp = {sid: s.experience for sid, s in r.state.ships.items()}
    assert exp["BR1SL"] == 4 and exp["BR2SL"] == 4
    assert exp["FR1SL"] == 3
    assert isinstance(r.state.ships["FR2SL"].location, AtSea)  # east wind: out of Brest downwind
    assert exp["FR2SL"] == 4


def test_rule_2_2_sea_time_teaches_up_to_sixteen() -> None:
    """2.2 as above, with the decision's cap: sea time alone takes a ship to
    16 points and no further (battle experience, 7.7, is not capped)."""
    w = world([ship("BR1SL", sea("BIS"), experience=15), ship("BR2SL", sea("BIS"), experience=20)])
    r = run(w)
    assert r.state.ships["BR1SL"].experience == 16
    assert r.state.ships["BR2SL"].experience == 20
    r2 = run(r.state)
    assert r2.state.ships["BR1SL"].experience == 16
