"""Rule cases for rule 3.4's ships that run out of stores: where they sail
"to replenish", what they lose in a friendly harbor, and what a ship that
got no stores is told (decisions: docs/rules/turn.md, "Supply (3.4)").

The English Channel's British harbors on the real map: Guernsey (40 stores,
yard 1: 2 ships reprovisioned a turn), Plymouth (500 stores, yard 8) and
Portsmouth (700, yard 10), all reached from the Channel in one move."""

from __future__ import annotations

from pate.core.events import Phase
from pate.core.orders.model import ShipOrder
from pate.core.world.ships import InPort
from tests.cases.turn.turn_world import CTX, events, harbor, only, run, sea, ship, world


def test_rule_3_4_a_ship_that_ran_out_sails_for_the_nearest_harbor_that_can_replenish_it() -> None:
    """3.4: "They will automatically sail to the nearest same-side or actively allied harbor to
    replenish." Guernsey, as near as Plymouth and first by name, has 20 stores: not the 24 a
    ship loads and the one it eats there, so BR1SL makes for Plymouth."""
    w = world([ship("BR1SL", sea("ECH"), stores=0)], ports={"Guernsey": {"stores": 20}})
    r = run(w)
    assert r.state.ships["BR1SL"].location == InPort("Plymouth", True)


def test_rule_3_4_a_harbor_whose_yard_places_are_taken_cannot_replenish() -> None:
    """3.4: "A port cannot reprovision more ships than 2 times its yard capacity." Four empty
    ships in Guernsey harbor (200 stores): two load, two wait for next turn's two places, so
    BR9SL, out of stores in the Channel, is sent to Plymouth instead."""
    waiting = [ship(f"BR{n}SL", harbor("Guernsey"), stores=0) for n in (1, 2, 3, 4)]
    w = world([*waiting, ship("BR9SL", sea("ECH"), stores=0)], ports={"Guernsey": {"stores": 200}})
    r = run(w)
    assert len(events(r, "loaded_stores")) == 2
    assert r.state.ships["BR9SL"].location == InPort("Plymouth", True)


def test_rule_3_4_ships_that_ran_out_together_keep_together() -> None:
    """3.4 (decision): the play-test's squadron, four ships empty in the Channel. Guernsey can
    replenish one of them (40 stores), Plymouth all four: they all sail for Plymouth rather
    than be split between the two, and load there the next turn."""
    squadron = [ship(sid, sea("ECH"), stores=0) for sid in ("BR5FL", "BR6FL", "BR8SL", "BR9SL")]
    r = run(world(squadron))
    assert {r.state.ships[s.id].location for s in squadron} == {InPort("Plymouth", True)}
    after = run(r.state)
    assert {e.ships[0]: e.data["stores"] for e in events(after, "loaded_stores")} == {
        s.id: 24 for s in squadron
    }


def test_rule_3_4_a_ship_in_a_friendly_harbor_loses_no_crew_for_running_out() -> None:
    """3.4: "Ships that run out of stores suffer crew loss ... They will automatically sail to
    the nearest same-side or actively allied harbor to replenish." (decision: the loss is for
    ships away from stores; the harbor is the remedy) BR8SL, empty in Guernsey harbor after the
    city's stores are gone, keeps its 600 crew and sails on for a harbor that can feed it."""
    w = world([ship("BR8SL", harbor("Guernsey"), stores=0, crew=600)], ports={"Guernsey": {"stores": 0}})
    r = run(w)
    starving = only(r, "out_of_stores", Phase.SUPPLY)
    assert starving.data == {"crew_lost": 0, "crew": 600, "homing": True}
    assert r.state.ships["BR8SL"].crew == 600
    assert r.state.ships["BR8SL"].location != InPort("Guernsey", True)


def test_rule_3_4_a_ship_no_harbor_can_replenish_waits_in_its_friendly_harbor() -> None:
    """3.4 (decision): with no store in any British or allied port city, BR8SL, empty in
    Guernsey harbor, has nowhere better "to replenish": it stays, and loses no crew."""
    empty = {n: {"stores": 0} for n, p in CTX.map.ports.items() if p.controller == "BR"}
    r = run(world([ship("BR8SL", harbor("Guernsey"), stores=0, crew=600)], ports=empty))
    assert only(r, "out_of_stores").data == {"crew_lost": 0, "crew": 600, "homing": False}
    assert r.state.ships["BR8SL"].location == InPort("Guernsey", True)


def test_rule_3_4_a_ship_that_wanted_stores_and_got_none_is_told_why() -> None:
    """3.4: "A port cannot reprovision more ships than 2 times its yard capacity" and ships
    load "if the port city has stores available to load". Dominica (yard 1) loads BR1SL and
    BR2SL, the fewest stores first; BR3SL is told the yard's two places were taken. In
    Guernsey, emptied, BR4SL is told the city had no stores left."""
    ships = [
        ship("BR1SL", harbor("Dominica"), stores=5),
        ship("BR2SL", harbor("Dominica"), stores=1),
        ship("BR3SL", harbor("Dominica"), stores=9),
        ship("BR4SL", harbor("Guernsey"), stores=9),
    ]
    w = world(ships, ports={"Dominica": {"stores": 200}, "Guernsey": {"stores": 0}})
    r = run(w, *(ShipOrder(s.id, stores=24) for s in ships))
    told = {e.ships[0]: e.data for e in events(r, "not_reprovisioned", Phase.SUPPLY)}
    assert told == {
        "BR3SL": {"reason": "yard_full", "places": 2},
        "BR4SL": {"reason": "no_stores", "places": 2},
    }
