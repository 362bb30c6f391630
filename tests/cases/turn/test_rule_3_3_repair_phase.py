"""Rule cases for rule 3.3: the repair phase."""

from __future__ import annotations

from pate.core.events import Phase
from tests.cases.turn.turn_world import coastal, events, harbor, move, run, sea, ship, world


def _repairs(result: object) -> dict[str, dict[str, object]]:
    return {e.ships[0]: dict(e.data) for e in events(result, "repaired", Phase.REPAIR)}  # type: ignore[arg-type]


def test_rule_3_3_friendly_harbor_repairs_one_hull_point_and_all_rigging() -> None:
    """3.3: "Ships in same-side or actively allied ports that do not have orders to sail out will
    repair one point of hull damage and all rigging damage in the repair phase of each turn." """
    w = world([ship("FR1SL", harbor("Brest"), hull=3, rigging=4)])
    after = run(w).state.ships["FR1SL"]
    assert (after.hull, after.rigging) == (2, 0)


def test_rule_3_3_actively_allied_port_repairs_too_a_neutral_one_does_not() -> None:
    """3.3: "same-side or actively allied ports": a Spanish ship in French Brest is in the yard;
    a British ship in neutral Kobenhavn repairs only one point of rigging."""
    w = world(
        [
            ship("SP1SL", harbor("Brest"), hull=2, rigging=2),
            ship("BR1SL", harbor("Kobenhavn"), hull=2, rigging=2),
        ]
    )
    state = run(w).state.ships
    assert (state["SP1SL"].hull, state["SP1SL"].rigging) == (1, 0)
    assert (state["BR1SL"].hull, state["BR1SL"].rigging) == (2, 1)


def test_rule_3_3_a_ship_ordered_to_sail_out_repairs_only_one_rigging_point() -> None:
    """3.3: only ships "that do not have orders to sail out" use the yard; "Other ships will
    repair one point of rigging damage per turn, but will not repair hull damage." """
    w = world([ship("FR1SL", harbor("Brest"), hull=2, rigging=3)])
    repaired = _repairs(run(w, move("FR1SL", "ECH")))["FR1SL"]
    assert repaired == {"yard": False, "hull": [2, 2], "rigging": [3, 2]}


def test_rule_3_3_the_yard_takes_no_more_ships_than_capacity_minus_ships_building() -> None:
    """3.3: "A port cannot repair more ships than its yard capacity, minus the number of ships it
    is building." Cherbourg's yard is 2; building one ship leaves one place, which the most
    damaged ship takes; the other repairs one point of rigging."""
    ships = [
        ship("FR1SL", harbor("Cherbourg"), hull=1, rigging=1),
        ship("FR2SL", harbor("Cherbourg"), hull=3),
    ]
    w = world(ships, ports={"Cherbourg": {"building": 1}})
    repaired = _repairs(run(w))
    assert repaired["FR2SL"]["yard"] is True
    assert repaired["FR1SL"] == {"yard": False, "hull": [1, 1], "rigging": [1, 0]}


def test_rule_3_3_transport_builds_do_not_count_but_transport_repairs_do() -> None:
    """3.3: "Transport builds do not count against this limit (but transport repairs do)." With
    three transports on the stocks Cherbourg still repairs two ships; a damaged transport group
    takes one of the two places."""
    ships = [
        ship("FR1TR", harbor("Cherbourg"), hull=2),
        ship("FR1SL", harbor("Cherbourg"), hull=1),
        ship("FR2SL", harbor("Cherbourg"), hull=1, rigging=0),
    ]
    w = world(ships, ports={"Cherbourg": {"building_transports": 3}})
    in_yard = {sid for sid, d in _repairs(run(w)).items() if d["yard"]}
    assert in_yard == {"FR1TR", "FR1SL"}


def test_rule_3_3_ships_at_sea_and_in_coastal_waters_repair_one_rigging_point_no_hull() -> None:
    """3.3: "Other ships will repair one point of rigging damage per turn, but will not repair
    hull damage." Decision: the coastal waters of a friendly port are not the yard."""
    w = world(
        [ship("FR1SL", sea("BIS"), hull=2, rigging=3), ship("FR2SL", coastal("Brest"), hull=2, rigging=3)]
    )
    repaired = _repairs(run(w))
    for sid in ("FR1SL", "FR2SL"):
        assert repaired[sid] == {"yard": False, "hull": [2, 2], "rigging": [3, 2]}


def test_rule_3_3_inactive_ships_are_not_repaired() -> None:
    """2.6 with 3.3: inactive ships are laid up (decision: the yard does not work on them)."""
    w = world([ship("FR1SL", harbor("Brest"), hull=2, rigging=2, active=False)])
    assert _repairs(run(w)) == {}
