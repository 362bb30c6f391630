"""Rule 2.3: "Commanders and deputy commanders are assigned by the Naval
Minister." (pate.core.rules.validation.assign; decision in docs/rules/orders.md)"""

from __future__ import annotations

import pytest

from pate.core.orders.refusal import Actor
from pate.core.rules.validation.assign import Assignment, apply_assignments, check_assignment
from pate.core.world.state import Role, WorldState
from pate.datafiles import load_scenario

BARHAM = Actor("barham", "BR", frozenset({Role.NAVAL_MINISTER}))
DECRES = Actor("decres", "FR", frozenset({Role.NAVAL_MINISTER}))


@pytest.fixture(scope="module")
def world() -> WorldState:
    return load_scenario("training").world


def test_rule_2_3_the_naval_minister_assigns_commander_and_deputy(world: WorldState) -> None:
    """ "Commanders and deputy commanders are assigned by the Naval Minister": his
    choice, checked, is the ship's commander and deputy from the next turn."""
    a = Assignment("BR1FR", "calder", "cornwallis")
    assert check_assignment(a, BARHAM, world) == []
    after = apply_assignments(world, [a])
    assert (after.ships["BR1FR"].commander, after.ships["BR1FR"].deputy) == ("calder", "cornwallis")
    assert world.ships["BR1FR"].commander == "cornwallis"  # the world given is left as it was


def test_rule_2_3_only_the_minister_of_the_ships_state(world: WorldState) -> None:
    """The minister of another state, or a commander, assigns nobody."""
    refused = check_assignment(Assignment("BR1FR", "calder", None), DECRES, world)
    assert [(r.field, r.rule, r.code) for r in refused] == [("ship_id", "2.3", "permission_denied")]
    commander = Actor("cornwallis", "BR", frozenset({Role.COMMANDER}))
    assert (
        check_assignment(Assignment("BR1FR", "calder", None), commander, world)[0].code == "permission_denied"
    )


def test_rule_2_3_officers_are_players_of_the_ships_state(world: WorldState) -> None:
    """A French player cannot command a British ship; an unknown one cannot either;
    the deputy is another player than the commander."""
    fields = {
        r.field: r.message
        for r in check_assignment(Assignment("BR1FR", "ganteaume", "nobody"), BARHAM, world)
    }
    assert fields["commander"] == "no player 'ganteaume' of BR in this campaign"
    assert (
        fields["deputy"] == "no player 'nobody' of BR in this campaign"
    )  # the same words: who plays elsewhere stays hidden
    same = check_assignment(Assignment("BR1FR", "calder", "calder"), BARHAM, world)
    assert [r.field for r in same] == ["deputy"]
    assert check_assignment(Assignment("XX9SL", "calder", None), BARHAM, world)[0].code == "not_found"


def test_rule_2_3_a_ship_may_be_left_without_commander(world: WorldState) -> None:
    """No commander: the minister orders it himself (rule 4.1)."""
    a = Assignment("BR1FR", None, None)
    assert check_assignment(a, BARHAM, world) == []
    assert apply_assignments(world, [a]).ships["BR1FR"].commander is None


def test_rule_2_3_officers_do_not_follow_a_captured_ship(world: WorldState) -> None:
    """A ship taken during the turn is of another state when the assignment
    would take effect: its new state's minister assigns its officers."""
    from dataclasses import replace

    taken = world.with_ships({"BR1FR": replace(world.ships["BR1FR"], state="FR")})
    after = apply_assignments(taken, [Assignment("BR1FR", "calder", None)])
    assert after.ships["BR1FR"].commander == "cornwallis"
