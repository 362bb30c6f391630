"""Previews (docs/rules/intel.md, "Previews"): the player's draft orders
played by the turn's own resolution against the world of his knowledge.

Rule 3.11: a player's reports hold "events ... observed by the player's
ships"; a preview built from them must show nothing more."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pate.core.codec import canonical_json, to_plain
from pate.core.intel.knowledge import knowledge_for
from pate.core.intel.model import PlayerKnowledge, Sighting
from pate.core.orders.model import Movement, ShipOrder
from pate.core.preview.model import MAX_RUNS
from pate.core.preview.picture import Setting, picture_world
from pate.core.preview.run import preview
from pate.core.ruledata import RuleData
from pate.core.rules.context import TurnContext
from pate.core.rules.detection import Category, Place
from pate.core.rules.movement.chances import sail_chance
from pate.core.rules.movement.params import MovementRules
from pate.core.rules.winds import Heading
from pate.core.world.geography import Direction, WindStrength
from pate.core.world.ships import Quality
from pate.core.world.state import Player, Role, Wind, WorldState
from pate.reports.preview_text import preview_text
from tests.support.orders_world import MAP, RULES, sea, ship, world

CTX = TurnContext(map=MAP, rules=RULES)
BR = Player("br_cmd", "John Jervis", "BR", frozenset({Role.COMMANDER}))
WEST_LIGHT = Wind(Direction.WEST, WindStrength.LIGHT)


def _world(*ships_: object, seed: int = 1, winds: dict[str, Wind] | None = None) -> WorldState:
    w = world(ships_)  # type: ignore[arg-type]
    return replace(w, players={BR.id: BR}, seed=seed, winds=winds or {"ECH": WEST_LIGHT})


def _knowledge(w: WorldState) -> PlayerKnowledge:
    return knowledge_for(BR.id, w, w, (), MAP, RULES)


def _bytes(k: PlayerKnowledge, orders: list[ShipOrder], ctx: TurnContext = CTX, runs: int = 10) -> str:
    return canonical_json(to_plain(preview(ctx, k, orders, Setting(), runs)))


def test_two_worlds_differing_only_in_what_he_cannot_see_give_the_same_preview() -> None:
    """Rule 5.1: he sees the ships in contact with his, their identity, side and
    place, no more; what differs here is beyond that: the seen enemy's crew,
    quality, stores and damage, an enemy he has not seen, the campaign seed,
    the winds where he has no ship and the stores of the enemy's ports."""
    mine = ship("BR1SL", sea("ECH", 1))
    seen = ship("FR1SL", sea("ECH", 1))
    one = _world(mine, seen, ship("FR2SL", sea("BIS", 2)), seed=1)
    other = _world(
        mine,
        replace(seen, crew=310, quality=Quality.EXCELLENT, stores=3, hull=2, experience=9),
        ship("FR7SL", sea("ECH", 3)),
        ship("FR8FR", sea("NOS", 1)),
        seed=987654321,
        winds={"ECH": WEST_LIGHT, "BIS": Wind(Direction.NORTH, WindStrength.HEAVY)},
    )
    other = replace(other, ports={**other.ports, "Brest": replace(other.ports["Brest"], stores=1)})
    assert one.ships != other.ships and one.seed != other.seed
    orders = [ShipOrder("BR1SL")]  # he stays where the Frenchman is: they meet
    first = _bytes(_knowledge(one), orders)
    assert first == _bytes(_knowledge(other), orders)
    # not an empty answer: the seen Frenchman is in the picture, the unseen ones are not
    pictured = picture_world(_knowledge(one), MAP, RULES, Setting())
    assert sorted(pictured.ships) == ["BR1SL", "FR1SL"]
    assert "FR1SL" in first and "FR2SL" not in first and "FR7SL" not in first


def _calm(rules: RuleData) -> RuleData:
    """No wind shift (3.8) and no storm (6.5): the move has one known chance."""
    sections = dict(rules.sections)
    sections["winds"] = {
        **sections.get("winds", {}),
        "shift": {"direction_percent": 0, "strength_percent": 0},
    }
    sections["storms"] = {**sections.get("storms", {}), "chance": {"light": 0, "moderate": 0, "heavy": 0}}
    return replace(rules, sections=sections)


def test_a_move_to_an_adjacent_area_reaches_it_about_as_often_as_its_chance() -> None:
    """Rule 6.6: a ship of the line sailing upwind makes its first move with the
    table's chance, less 10 per hull point (hull is not repaired at sea, 3.3);
    its second move upwind has none.  ECH's wind blows from the south, where
    BIS lies."""
    rules = _calm(RULES)
    damaged = ship("BR1SL", sea("ECH", 1), hull=4)
    w = _world(damaged, winds={"ECH": Wind(Direction.SOUTH, WindStrength.MODERATE)})
    order = ShipOrder("BR1SL", movement=Movement(sea_areas=("BIS",)))
    params = MovementRules.of(rules)
    chance = sail_chance(damaged, order, Heading.UPWIND, False, params)
    assert chance == 70 and sail_chance(damaged, order, Heading.UPWIND, True, params) <= 0
    p = preview(TurnContext(map=MAP, rules=rules), _knowledge(w), [order], Setting(), MAX_RUNS)
    got = p.ship("BR1SL")
    assert got.destination == "BIS" and p.runs == MAX_RUNS
    assert abs(got.reached / p.runs - chance / 100) <= 0.15
    assert sum(e.runs for e in got.ends) == MAX_RUNS
    assert {e.sea_area for e in got.ends} == {"BIS", "ECH"}


def test_orders_for_ships_he_does_not_know_are_refused_as_for_no_ship() -> None:
    """Rule 4.3 and the fog of war: a ship he has not seen is refused as a ship
    that does not exist; an enemy he sees, as a ship he does not command
    (2.3); nothing is run."""
    w = _world(ship("BR1SL", sea("ECH", 1)), ship("FR1SL", sea("ECH", 1)), ship("FR2SL", sea("BIS", 1)))
    k = _knowledge(w)
    hidden = preview(CTX, k, [ShipOrder("FR2SL")], Setting())
    absent = preview(CTX, k, [ShipOrder("FR9SL")], Setting())
    assert [r.message.replace("FR2SL", "X") for r in hidden.refusals] == [
        r.message.replace("FR9SL", "X") for r in absent.refusals
    ]
    assert hidden.refusals[0].field == "orders[0].ship_id" and hidden.ships == ()
    enemy = preview(CTX, k, [ShipOrder("FR1SL")], Setting())
    assert [(r.field, r.rule) for r in enemy.refusals] == [("orders[0].ship_id", "2.3")]
    twice = preview(CTX, k, [ShipOrder("BR1SL"), ShipOrder("BR1SL")], Setting())
    assert [r.field for r in twice.refusals] == ["orders[1].ship_id"]
    with pytest.raises(ValueError, match="runs"):
        preview(CTX, k, [], Setting(), MAX_RUNS + 1)


def test_the_same_orders_give_the_same_preview_and_other_orders_other_seeds() -> None:
    """docs/rules/intel.md: the seed comes from player, turn and draft orders."""
    k = _knowledge(_world(ship("BR1SL", sea("ECH", 1))))
    stay = [ShipOrder("BR1SL")]
    go = [ShipOrder("BR1SL", movement=Movement(sea_areas=("BIS",)))]
    assert _bytes(k, stay) == _bytes(k, stay)
    assert preview(CTX, k, stay, Setting()).seed != preview(CTX, k, go, Setting()).seed


def test_a_frigates_sighting_stands_in_the_picture_as_ships_of_its_class() -> None:
    """Rule 5.2: a frigate reports "an approximate number of ships", by category,
    no identities: so many typical ships of the class, under made-up ids."""
    k = _knowledge(_world(ship("BR1FR", sea("ECH", 1))))
    sighted = Sighting(
        by="BR1FR", sea_area="BIS", place=Place.SEA, state="FR", category=Category.LINE, estimate=3
    )
    pictured = picture_world(replace(k, sightings=(sighted,)), MAP, RULES, Setting())
    made_up = sorted(s for s in pictured.ships if s != "BR1FR")
    assert made_up == ["FR9000SL", "FR9001SL", "FR9002SL"]
    one = pictured.ships["FR9000SL"]
    middle = (MAP.sea_areas["BIS"].tactical_areas + 1) // 2
    assert one.location == sea("BIS", middle) and one.quality is Quality.AVERAGE
    assert one.crew == RULES.ship_class(one.type).max_crew and one.stores == 24 and one.hull == 0


def test_the_summary_says_how_often_each_ship_reaches_its_destination() -> None:
    """docs/rules/intel.md: the summary in words, per ship."""
    w = _world(ship("BR1SL", sea("ECH", 1)), ship("FR1SL", sea("ECH", 1)))
    p = preview(CTX, _knowledge(w), [ShipOrder("BR1SL", movement=Movement(sea_areas=("BIS",)))], Setting(), 4)
    text = preview_text(p)
    got = p.ship("BR1SL")
    assert f"BR1SL Br1Sl, ordered to BIS: reaches it in {got.reached} of 4 runs" in text
    assert text.count("  ends: ") == 1 and all(e.place in text for e in got.ends)


def test_an_attached_ship_is_previewed_sailing_with_its_lead() -> None:
    """Rule 4.2: "ships attached to another ship ... carry out the orders of the
    ship to which they are attached"."""
    lead = ship("BR1SL", sea("ECH", 1))
    w = _world(lead, ship("BR2SL", sea("ECH", 1), attached_to="BR1SL"))
    p = preview(CTX, _knowledge(w), [ShipOrder("BR1SL", movement=Movement(sea_areas=("BIS",)))], Setting(), 3)
    assert p.ship("BR2SL").destination == "BIS"
    assert p.ship("BR2SL").ends == p.ship("BR1SL").ends
