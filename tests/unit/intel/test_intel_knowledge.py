"""Unit tests of the knowledge builder (rules 2.3, 3.11)."""

from __future__ import annotations

from dataclasses import replace

from intel_world import MAP, PLAYERS, event, sea, ship, turn_knowledge, world

from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.intel.knowledge import knowledge_for, own_ships
from pate.core.intel.model import PlayerKnowledge
from pate.core.world.state import Player, Role


def test_own_ships_commander_deputy_and_naval_minister() -> None:
    w = world(
        [
            ship("FR3FL", sea("NOC"), commander="villeneuve"),
            ship("FR4SL", sea("NOC"), commander="ganteaume", deputy="villeneuve"),
            ship("FR5SL", sea("SOC"), commander="ganteaume"),
            ship("BR2FL", sea("SOC"), commander="nelson"),
        ]
    )
    assert own_ships(PLAYERS["villeneuve"], w) == ("FR3FL", "FR4SL")
    assert own_ships(PLAYERS["decres"], w) == ("FR3FL", "FR4SL", "FR5SL")
    admin = Player("root", "Admin", None, frozenset({Role.ADMIN}))
    assert own_ships(admin, w) == ()


def test_events_are_renumbered_and_show_only_own_observers() -> None:
    w = world([ship("FR3FL", sea("NOC")), ship("FR4SL", sea("SOC"), commander="ganteaume")])
    events = [
        event("sailed", ["FR4SL"], "SOC"),
        event("met_enemy", ["BR2FL"], "NOC", witnesses=["FR3FL", "FR4SL", "BR5SL"]),
    ]
    k = turn_knowledge("villeneuve", w, w, events)
    (e,) = k.events
    assert (e.index, e.kind, e.seen_by) == (1, "met_enemy", ("FR3FL",))


def test_lost_ships_still_see_their_last_events() -> None:
    start = world([ship("FR3FL", sea("NOC")), ship("FR4SL", sea("NOC"))])
    end = world([ship("FR3FL", sea("NOC"))])
    k = turn_knowledge("villeneuve", start, end, [event("sunk", ["FR4SL"], "NOC")])
    assert k.lost == ("FR4SL",)
    assert [e.kind for e in k.events] == ["sunk"]


def test_knowledge_round_trips_through_json() -> None:
    w = world([ship("FR3FL", sea("NOC", 1)), ship("FR2FR", sea("NOC", 2)), ship("BR2FL", sea("NOC", 1))])
    k = turn_knowledge("villeneuve", w, w, [event("sailed", ["FR3FL"], "NOC", to=["NOC", "SOC"])])
    plain = to_plain(k)
    assert from_plain(PlayerKnowledge, plain) == k
    assert canonical_json(to_plain(from_plain(PlayerKnowledge, plain))) == canonical_json(plain)


def test_first_report_has_turn_zero_and_winds_of_own_areas() -> None:
    w = world([ship("FR3FL", sea("NOC", 1)), ship("FR7SL", sea("ECH", 1))], turn=1)
    k = knowledge_for("villeneuve", w, w, (), MAP)
    assert (k.turn, k.next_turn, k.initial) == (0, 1, True)
    assert [a.sea_area for a in k.winds] == ["ECH", "NOC"]
    assert (k.allies, k.enemies) == (("FR", "SP"), ("BR",))


def test_player_known_only_before_the_turn() -> None:
    """A player removed from the campaign during the turn still gets a report."""
    w = world([ship("FR3FL", sea("NOC"))])
    after = replace(w, turn=4, players={p: v for p, v in w.players.items() if p != "ganteaume"})
    assert knowledge_for("ganteaume", w, after, (), MAP).ships == ()
