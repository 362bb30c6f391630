"""Lost section 9 and rules 2.2, 7.8: what becomes of the land units and
supplies aboard a transport group that is sunk, founders or is taken
(docs/rules/turn.md, "Cargo of lost transports")."""

from __future__ import annotations

from dataclasses import replace

from pate.core.orders.model import Combat, CombatStance, Range, ShipOrder
from pate.core.world.ships import Cargo
from pate.core.world.state import LandUnit
from tests.cases.turn.turn_world import CTX, events, run, sea, ship, world
from tests.unit.movement.maps import variant

UNIT = LandUnit("FR1IN", "FR", infantry=3000)
LOADED = Cargo(("FR1IN",), 4, 3000 + 4 * 20)


def _convoy_against(n: int, **transport: object) -> object:
    fleet = [ship(f"BR{k}SL", sea("BIS"), quality=4, experience=25) for k in range(1, n + 1)]
    tr = ship("FR1TR", sea("BIS"), cargo=LOADED, **transport)
    return world([*fleet, tr], units=[UNIT])


def _engage(n: int) -> list[ShipOrder]:
    return [
        ShipOrder(f"BR{k}SL", combat=Combat(stance=CombatStance.ENGAGE, range=Range.CLOSE))
        for k in range(1, n + 1)
    ]


def test_section_9_troops_taken_with_their_transport_are_prisoners() -> None:
    """7.8: "Those that do not escape are taken as prizes by the winning side."
    Decision: the troops aboard a taken transport are prisoners (gone from the
    world's land units), its supplies the captor's, aboard the prize; the
    event ``cargo_captured`` tells the owner and the captor."""
    w = _convoy_against(4)
    for seed in range(1, 60):
        r = run(replace(w, seed=seed), *_engage(4))
        taken = events(r, "cargo_captured")
        if not taken:
            continue
        e = taken[0]
        assert e.ships == ("FR1TR",)
        assert dict(e.data) == {"transport": "FR1TR", "units": ["FR1IN"], "supplies": 4, "captor": "BR"}
        prize = next(x for x in events(r, "captured") if x.ships[0] == "FR1TR").data["prize"]
        assert set(e.witnesses) >= {prize}
        assert "FR1IN" not in r.state.land_units
        assert r.state.ships[prize].cargo == Cargo((), 4, 80)
        assert not any("FR1IN" in s.cargo.units for s in r.state.ships.values())
        return
    raise AssertionError("no transport taken in 59 turns")


def test_rule_2_2_troops_sunk_with_their_transport_are_lost() -> None:
    """2.2: "Ships sink if hull damage reaches 5."  Decision: the units and
    supplies aboard go down with her: ``cargo_lost``, and the units are gone
    from the world."""
    w = _convoy_against(6, hull=4)
    for seed in range(1, 80):
        r = run(replace(w, seed=seed), *_engage(6))
        lost = events(r, "cargo_lost")
        if not lost:
            continue
        assert any(e.kind == "sunk" and e.ships == ("FR1TR",) for e in r.events)
        assert dict(lost[0].data) == {"transport": "FR1TR", "units": ["FR1IN"], "supplies": 4, "captor": ""}
        assert "FR1IN" not in r.state.land_units
        return
    raise AssertionError("no transport sunk in 79 turns")


def test_section_8_troops_foundered_with_their_transport_are_lost() -> None:
    """Lost section 8 (docs/rules/movement.md): a storm may founder a ship.
    The units aboard are lost with her, and her owner reads of it."""
    ctx = variant(
        CTX,
        storms={
            "chance": {"light": 100, "moderate": 100, "heavy": 100},
            "damage": {"founder_roll": 0, "founder_min_damage": 0},
        },
    )
    w = world([ship("FR1TR", sea("BIS"), cargo=LOADED)], units=[UNIT])
    r = run(w, ctx=ctx)
    assert any(e.kind == "foundered" for e in r.events)
    (e,) = events(r, "cargo_lost")
    assert e.data["units"] == ["FR1IN"] and e.data["captor"] == ""
    assert "FR1IN" not in r.state.land_units and "FR1TR" not in r.state.ships


def test_rule_3_11_the_owner_reads_of_the_troops_lost_with_his_transport() -> None:
    """3.11: each player receives "a report of the events ... observed by the
    player's ships".  The transport was his at the start of the turn, so the
    owner's report tells of the troops and supplies taken with her."""
    from pate.core.intel.knowledge import knowledge_for
    from pate.core.world.state import Player, Role
    from pate.reports import render_reports

    fr = Player("fr_cmd", "Pierre Villeneuve", "FR", frozenset({Role.COMMANDER}))
    w = replace(_convoy_against(4), players={"fr_cmd": fr})
    for seed in range(1, 60):
        start = replace(w, seed=seed)
        r = run(start, *_engage(4))
        if not events(r, "cargo_captured"):
            continue
        k = knowledge_for("fr_cmd", start, r.state, r.events, CTX.map, CTX.rules)
        assert "cargo_captured" in {e.kind for e in k.events}
        text = render_reports(k, CTX.map)["text"]
        assert "FR1IN and 4 supplies aboard" in text and "prisoners" in text
        return
    raise AssertionError("no transport taken in 59 turns")
