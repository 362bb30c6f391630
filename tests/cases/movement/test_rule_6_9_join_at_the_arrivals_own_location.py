"""Rule 6.9 with 1.2: arrivals in a port join the allied group met in their
own part of the port (harbor or coastal waters), never ships in the other."""

from __future__ import annotations

import pytest

from pate.core.world.ships import InPort
from tests.unit.movement.maps import CALM, events_of, go, order, port, run, sea, ship, world


@pytest.mark.parametrize(("harbor", "ally"), [(False, "BR2SL"), (True, "BR3TR")])
def test_rule_6_9_arrivals_join_only_the_allies_in_their_own_tactical_area(harbor: bool, ally: str) -> None:
    """6.9: "If the ships encountered are allied, then the moving ships will
    join them if the Join Allies box on the order form is checked ... When two
    allied groups of ships join, they will sail together." 1.2: "A port is
    divided into two tactical areas, the harbor and the coastal waters."
    A British ship sails into Dominica with one British ship in the coastal
    waters and a British transport group in the harbor: she joins the one
    where she comes to anchor, and the whole port sees it (5.1)."""
    w = world(
        [ship("BR1SL", sea("NOC")), ship("BR2SL", port("Dominica")), ship("BR3TR", port("Dominica", True))]
    )
    ts = run(w, [order("BR1SL", go(port_="Dominica", harbor=harbor))], ctx=CALM)
    assert ts.world.ships["BR1SL"].location == InPort("Dominica", harbor)
    (joined,) = events_of(ts, "joined_allies")
    assert joined.data["allies"] == [ally]
    assert joined.witnesses == ("BR2SL", "BR3TR")
    assert ts.world.ships["BR1SL"].station == ts.world.ships[ally].station
