"""The fog of war in the order desk's refusals (rules 3.11 and 5.1).

A player knows of other ships only through his reports: his own ships and what
their contact lists show.  A refusal naming a ship he does not know of must
read exactly as one naming an id no ship has: field, rule, code and words,
the id aside; otherwise sending candidate ids to the desk would map the
enemy's fleet.  Each test sends one order twice, naming an existing ship the
player cannot see and an id of no ship (run through the core and through the
order service's own code, tests/cases/orders/conftest.py).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pate.core.orders.model import AdminKind, AdminOrder, ShipOrder, StoresMove
from pate.core.orders.refusal import Refusal
from pate.core.rules.stores import check_stores_move
from pate.core.rules.validation.assign import Assignment, check_assignment
from tests.support.orders_world import (
    MAP,
    RULES,
    atlantic,
    check,
    commander,
    harbor,
    minister,
    refusal,
    sea,
    ship,
    world,
)

NOBODY = {"SL": "FR8SL", "FR": "FR8FR", "TR": "BR8TR", "FL": "FR8FL"}  # ids no ship has

W = world(
    [
        ship("BR1FL", sea("SOC")),
        ship("BR2SL", sea("SOC")),
        ship("BR1TR", harbor("Portsmouth")),
        ship("FR3FR", sea("SOC")),  # alongside the British: seen
        ship("FR2FR", sea("NOC")),  # elsewhere, active
        ship("FR5SL", harbor("Brest"), active=False),  # laid up
        ship("FR6SL", atlantic()),  # crossing
        ship("FR1FL", sea("SOC", 2)),  # the same sea area, another tactical area
        ship("BR4TR", harbor("Portsmouth"), commander="calder", deputy=None),  # another British commander's
        ship("BR5TR", harbor("Plymouth"), commander="calder", deputy=None),  # ...and elsewhere
    ]
)
BRITISH = commander("BR")


def same_words(unseen: Refusal, nobody: Refusal, unseen_id: str, nobody_id: str) -> bool:
    return (unseen.field, unseen.rule, unseen.code) == (nobody.field, nobody.rule, nobody.code) and (
        unseen.message.replace(unseen_id, "<id>") == nobody.message.replace(nobody_id, "<id>")
    )


def nobody_for(sid: str) -> str:
    return NOBODY[sid[-2:]]


@pytest.mark.parametrize("target", ["FR2FR", "FR5SL", "FR6SL", "FR1FL"])
def test_an_unseen_ship_to_attach_to_reads_as_no_ship(target: str) -> None:
    """4.4 "enter a valid ship ID": elsewhere, inactive, crossing the Atlantic or in
    another tactical area of the same sea area, an unseen ship reads as none."""
    unseen = refusal(check(ShipOrder("BR1FL", attach_to=target), W, BRITISH), "attach_to")
    nobody = refusal(check(ShipOrder("BR1FL", attach_to=nobody_for(target)), W, BRITISH), "attach_to")
    assert same_words(unseen, nobody, target, nobody_for(target))
    assert unseen.code == "not_found" and target not in nobody.message


def test_a_seen_ship_is_refused_for_what_it_is() -> None:
    """4.4: the enemy frigate alongside is in BR1FL's contact list, so the refusal says why."""
    r = refusal(check(ShipOrder("BR1FL", attach_to="FR3FR"), W, BRITISH), "attach_to")
    assert r.message == "FR3FR is an enemy ship"


def test_a_ship_of_another_player_unseen_is_refused_as_no_ship() -> None:
    """2.3/4.3: an order for a ship the player neither commands nor sees."""
    unseen = refusal(check(ShipOrder("FR2FR"), W, BRITISH), "ship_id")
    nobody = refusal(check(ShipOrder("FR8FR"), W, BRITISH), "ship_id")
    assert same_words(unseen, nobody, "FR2FR", "FR8FR")
    seen = refusal(check(ShipOrder("FR3FR"), W, BRITISH), "ship_id")
    assert (seen.code, seen.rule) == ("permission_denied", "2.3")


@pytest.mark.parametrize("target", ["FR2FR", "FR5SL", "FR6SL", "FR1FL"])
def test_an_unseen_ship_to_transfer_crew_to_reads_as_no_ship(target: str) -> None:
    """2.7: the ships "must be in the same location"; of an unseen one nothing is said."""

    def transfer(to: str) -> Refusal:
        order = ShipOrder("BR1FL", admin=(AdminOrder(AdminKind.TRANSFER_CREW, to, 50),))
        return refusal(check(order, W, BRITISH), "admin[0].target")

    assert same_words(transfer(target), transfer(nobody_for(target)), target, nobody_for(target))


def test_an_unseen_transport_group_to_combine_with_reads_as_no_ship() -> None:
    """2.5: another commander's group in another port is not known to this one;
    the group alongside in Portsmouth is, and is combined with."""
    actor = replace(BRITISH, player="br_cmd")

    def combine(to: str) -> list[Refusal]:
        return check(ShipOrder("BR1TR", admin=(AdminOrder(AdminKind.COMBINE, to),)), W, actor)

    unseen, nobody = (
        refusal(combine("BR5TR"), "admin[0].target"),
        refusal(combine("BR8TR"), "admin[0].target"),
    )
    assert same_words(unseen, nobody, "BR5TR", "BR8TR")
    assert combine("BR4TR") == []


def test_an_unseen_ship_in_an_officer_assignment_reads_as_no_ship() -> None:
    """2.3: the French minister assigning officers to a British group in Portsmouth,
    which no French ship sees; BR2SL, alongside FR3FR in SOC, he does see."""
    french = minister("FR")
    unseen = check_assignment(Assignment("BR1TR", None, None), french, W)
    nobody = check_assignment(Assignment("BR8TR", None, None), french, W)
    assert len(unseen) == len(nobody) == 1
    assert same_words(unseen[0], nobody[0], "BR1TR", "BR8TR")
    seen = check_assignment(Assignment("BR2SL", None, None), french, W)
    assert [r.code for r in seen] == ["permission_denied"]


def test_an_unseen_player_of_another_state_reads_as_no_player() -> None:
    """2.3: officers are players of the ship's state; the desk does not say who plays elsewhere."""
    w = replace(W, players={})
    british = minister("BR")
    other = check_assignment(Assignment("BR1FL", "fr_cmd", None), british, w)
    nobody = check_assignment(Assignment("BR1FL", "no_one", None), british, w)
    assert other[0].message.replace("fr_cmd", "<p>") == nobody[0].message.replace("no_one", "<p>")


def test_unseen_hostile_ships_do_not_stop_a_store_move_at_the_desk() -> None:
    """3.5 "no hostile ships in either port or in the connected sea area(s)": the desk
    judges by what the minister knows; British ships in the Channel that no French
    ship sees give the same answer as no ships at all."""
    move = StoresMove("FR", "Brest", "Cherbourg", 10)
    empty = world([])
    watched = world([ship("BR1FL", sea("ECH")), ship("BR2SL", harbor("Cherbourg"))])
    assert check_stores_move(move, watched, MAP, RULES) == check_stores_move(move, empty, MAP, RULES)
    seen = world([ship("BR1FL", sea("ECH")), ship("FR1FR", sea("ECH"))])
    assert [r.message for r in check_stores_move(move, seen, MAP, RULES)] == [
        "hostile ships are in Brest, Cherbourg or their sea areas"
    ]
