"""The picture of the enemy (docs/rules/intel.md, "The picture"): every enemy
or neutral ship the player's knowledge tells of is tied to the sighting it
comes from, and a sighting not seen since is carried forward with the turn it
was seen in until it is older than the documented maximum age."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from intel_world import MAP, harbor, intel_events, rules, sea, ship, world

from pate.core.codec import canonical_json, from_plain, parse_json, to_plain
from pate.core.intel.knowledge import knowledge_for
from pate.core.intel.model import Nearness, PlayerKnowledge, Sighted, Source
from pate.core.intel.picture import MAX_AGE, carried, max_age
from pate.core.rules.detection import Category, Place
from pate.engine.pipeline import previous_pictures
from pate.reports import render_reports

RULES = rules()


def _turn(start_ships, end_ships, previous=(), *, turn=3, player="villeneuve"):
    start = world(start_ships, turn=turn)
    end = replace(world(end_ships, turn=turn), turn=turn + 1)
    events = intel_events(start, world(end_ships, turn=turn), seed=3)
    return knowledge_for(player, start, end, events, MAP, RULES, previous=previous)


SEEN = [ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1))]
GONE = [ship("FR3FL", sea("SOC", 2)), ship("BR2FL", sea("NOC", 1))]


def _of(k: PlayerKnowledge, key: str) -> Sighted:
    return next(s for s in k.picture if s.key == key)


def test_a_ship_in_contact_is_on_the_picture_with_its_source() -> None:
    """Rule 5.1: the ship is identified by name, by the ship that saw it, this turn."""
    k = _turn(SEEN, SEEN)
    s = _of(k, "BR2FL")
    assert (s.nearness, s.source, s.by, s.turn) == (Nearness.IDENTIFIED, Source.CONTACT, ("FR3FL",), 3)
    assert (s.sea_area, s.place, s.tactical) == ("NOC", Place.SEA, 1)
    assert all(x.state != "FR" for x in k.picture)  # own ships are not sightings


def test_a_sighting_not_seen_since_is_carried_with_its_turn() -> None:
    """A sighting the player has not confirmed keeps the turn it was seen in."""
    first = _turn(SEEN, SEEN)
    second = _turn(GONE, GONE, first.picture, turn=4)
    assert not any(v.id == "BR2FL" for r in second.ships for v in r.visible)
    s = _of(second, "BR2FL")
    assert s.turn == 3 and second.turn - s.turn == 1
    assert s.by == ("FR3FL",)


def test_a_ship_seen_again_elsewhere_leaves_its_old_place() -> None:
    first = _turn(SEEN, SEEN)
    moved = [ship("FR3FL", sea("SOC", 2)), ship("BR2FL", sea("SOC", 2))]
    second = _turn(moved, moved, first.picture, turn=4)
    assert [(s.sea_area, s.turn) for s in second.picture if s.key == "BR2FL"] == [("SOC", 4)]


def test_a_sighting_older_than_the_maximum_age_is_dropped() -> None:
    """data/rules/intel.toml [picture] max_age_turns: kept while its age is at most that."""
    oldest = max_age(RULES)
    assert oldest == MAX_AGE == 3
    first = _turn(SEEN, SEEN)
    k = first
    ages = []
    for turn in range(4, 4 + oldest + 2):
        k = _turn(GONE, GONE, k.picture, turn=turn)
        ages.append(any(s.key == "BR2FL" for s in k.picture))
    assert ages == [True] * oldest + [False, False]


def test_a_counted_group_gives_way_to_a_nearer_look_in_its_sea_area() -> None:
    counted = Sighted(
        key="NOC/sea/2/BR/line/counted",
        state="BR",
        category=Category.LINE,
        nearness=Nearness.COUNTED,
        source=Source.FRIGATE,
        sea_area="NOC",
        place=Place.SEA,
        turn=2,
        by=("FR2FR",),
        estimate=2,
        tactical=2,
    )
    elsewhere = replace(counted, key="ECH/sea/1/BR/line/counted", sea_area="ECH", tactical=1)
    k = _turn(SEEN, SEEN, (counted, elsewhere))
    assert counted not in k.picture  # BR ships of the line named in NOC this turn
    assert elsewhere in k.picture


def test_a_flag_that_became_a_friend_is_dropped() -> None:
    k = _turn(SEEN, SEEN)
    spanish = replace(_of(k, "BR2FL"), key="SP5SL", state="SP")
    assert spanish not in carried((spanish,), (), k, 3)


def test_a_shore_report_names_its_port_and_source() -> None:
    """Rule 5.3: the minister hears of ships in his state's port from the shore."""
    ships = [ship("FR7SL", harbor("Martinique")), ship("BR8SL", harbor("Martinique"))]
    k = _turn(ships, ships, player="decres")
    s = _of(k, "BR8SL")
    assert s.nearness is Nearness.IDENTIFIED and s.port == "Martinique"


def test_knowledge_stored_before_the_picture_still_decodes() -> None:
    """Old stored knowledge has no "picture": it reads as an empty one."""
    k = _turn(SEEN, SEEN)
    plain = to_plain(k)
    del plain["picture"]
    old = from_plain(PlayerKnowledge, parse_json(canonical_json(plain)))
    assert old.picture == () and old.version == k.version
    assert previous_pictures({"villeneuve": canonical_json(plain)}) == {"villeneuve": ()}
    assert previous_pictures({"villeneuve": canonical_json(to_plain(k))})["villeneuve"] == k.picture


HIDDEN = [sea(a, t) for a in ("BAH", "WCA", "ECH") for t in (1, 2, 3)] + [harbor("London")]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["BR", "SP", "PO"]), st.sampled_from(HIDDEN), st.sampled_from(HIDDEN)),
        max_size=5,
    )
)
def test_hidden_ships_change_no_byte_of_the_picture_over_two_turns(hidden) -> None:
    """Fog of war (3.11, 5): two worlds that differ only in ships the player
    never saw give the same knowledge, picture and all, turn after turn."""
    extra = [
        (ship(f"{st_}{70 + i}SL", a), ship(f"{st_}{70 + i}SL", b)) for i, (st_, a, b) in enumerate(hidden)
    ]

    def two_turns(more):
        first = _turn([*SEEN, *(a for a, _ in more)], [*SEEN, *(a for a, _ in more)])
        second = _turn([*GONE, *(b for _, b in more)], [*GONE, *(b for _, b in more)], first.picture, turn=4)
        # the knowledge of both turns and the second turn's reports, where the old sighting is drawn
        return canonical_json(to_plain(first)), canonical_json(to_plain(second)), render_reports(second, MAP)

    assert two_turns(extra) == two_turns([])


def test_the_fog_test_can_fail() -> None:
    """A ship the player's ship did see changes the picture."""
    seen = [ship("SP9SL", sea("NOC", 1))]
    first = _turn([*SEEN, *seen], [*SEEN, *seen])
    assert any(s.key == "SP9SL" for s in first.picture) is False  # Spain is France's ally
    enemy = [ship("BR9SL", sea("NOC", 1))]
    assert canonical_json(to_plain(_turn([*SEEN, *enemy], [*SEEN, *enemy]))) != canonical_json(
        to_plain(_turn(SEEN, SEEN))
    )
