"""Fog of war for the "why" of each order (docs/rules/intel.md, "What an
explanation may say"): two worlds differing only in what the player cannot
know - an enemy's crew, experience, stores and morale, the strength a battle
gave each side, an enemy's and another player's orders, stances and sailing
chances, the dice - give his explanations byte for byte the same; and his
knowledge never carries anyone else's orders, stances or chances."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from intel_world import MAP, sea, ship, world

from pate.core.codec import canonical_json, to_plain
from pate.core.events import Event, Phase
from pate.core.intel.knowledge import knowledge_for
from pate.reports.events import told_events

WHERE = "NOC (tactical area 1)"
SEEN = ("FR3FL", "FR4SL", "BR2FL", "BR5SL")


def ships(secret: dict[str, Any]) -> list:
    """Villeneuve's FR3FL, Ganteaume's FR4SL in company, the British BR2FL and
    BR5SL; the British crews, experience, stores and morale are the secret."""
    hidden = {k: secret[k] for k in ("crew", "experience", "stores", "morale")}
    return [
        ship("FR3FL", sea("NOC", 1), name="Bucentaure"),
        ship("FR4SL", sea("NOC", 1), commander="ganteaume"),
        ship("BR2FL", sea("NOC", 1), **hidden),
        ship("BR5SL", sea("NOC", 1), **{**hidden, "crew": max(1, hidden["crew"] // 2)}),
    ]


def note(by: str, contact: str, stance: str) -> dict[str, str]:
    return {"by": by, "contact": contact, "stance": stance}


MINE = note("deputy", "evade", "evade")


def events(secret: dict[str, Any]) -> list[Event]:
    """What FR3FL saw and did, every number she could not know from the secret."""
    other = note(secret["by"], secret["contact"], secret["stance"])
    orders = {"FR3FL": MINE, "FR4SL": other, "BR2FL": other, "BR5SL": other}
    sail = {"to": "BAH", "course": "north", "heading": "upwind", "wind": "moderate from the west", "step": 3}
    entries = [
        {"id": "FR3FL", "side": 0, "outcome": "escaped", "stance": "evade", "strength": 160,
         "close_quarters": False, "hull": [0, 2], "rigging": [1, 3], "crew_lost": 40, "experience_gained": 2},
        {"id": "FR4SL", "side": 0, "outcome": secret["ally_outcome"], "stance": secret["stance"],
         "strength": secret["strength"], "close_quarters": True, "hull": [0, 1], "rigging": [0, 1],
         "crew_lost": secret["crew_lost"], "experience_gained": secret["gained"]},
        *({"id": sid, "side": 1, "outcome": "fought", "stance": secret["stance"],
           "strength": secret["strength"], "close_quarters": True, "hull": [0, secret["hull"]],
           "rigging": [0, 1], "crew_lost": secret["crew_lost"], "experience_gained": secret["gained"]}
          for sid in ("BR2FL", "BR5SL")),
    ]  # fmt: skip
    sides = [
        {"states": ["FR"], "strength": 160 + secret["strength"], "windward": True, "line": "none"},
        {"states": ["BR"], "strength": 2 * secret["strength"], "windward": False, "line": "broke_through"},
    ]
    battle = {"where": "sea", "winner": ["BR"], "shore_battery": None, "sides": sides, "ships": entries,
              "orders": orders}  # fmt: skip
    return [
        Event(Phase.COMBAT, "battle", SEEN, WHERE, (), battle),
        Event(Phase.COMBAT, "escaped", ("FR3FL",), WHERE, SEEN,
              {"to": "NOC (tactical area 2)", "orders": orders}),
        Event(Phase.MOVEMENT, "met_enemy", ("FR3FL", "FR4SL"), WHERE, SEEN,
              {"enemies": ["BR2FL", "BR5SL"], "side": "leeward", "orders": orders}),
        Event(Phase.MOVEMENT, "held_by_wind", ("FR3FL", "FR4SL"), WHERE, SEEN,
              {**sail, "chance": min(35, secret["chance"]), "roll": secret["roll"], "orders": orders,
               "ship_chances": {"FR3FL": 35, "FR4SL": secret["chance"]}}),
        Event(Phase.MOVEMENT, "sailed", ("BR2FL",), WHERE, SEEN,
              {**sail, "chance": secret["chance"], "roll": secret["roll"], "orders": orders,
               "ship_chances": {"BR2FL": secret["chance"]}}),
    ]  # fmt: skip


def told(secret: dict[str, Any]) -> tuple[list[str], str]:
    """Villeneuve's explanations, and his knowledge as JSON."""
    w = world(ships(secret))
    k = knowledge_for("villeneuve", w, replace(w, turn=w.turn + 1), events(secret), MAP)
    whys = [d for t in told_events(k, MAP) for d in t.details if d.startswith("Why")]
    return whys, canonical_json(to_plain(k))


BASE = {"crew": 800, "experience": 10, "stores": 20, "morale": 5, "strength": 150, "crew_lost": 30,
        "gained": 2, "hull": 1, "chance": 60, "roll": 50, "by": "commander", "contact": "accept",
        "stance": "engage", "ally_outcome": "fought"}  # fmt: skip
SECRETS = st.fixed_dictionaries(
    {
        "crew": st.integers(1, 900),
        "experience": st.integers(0, 50),
        "stores": st.integers(0, 24),
        "morale": st.integers(0, 10),
        "strength": st.integers(0, 3000),
        "crew_lost": st.integers(0, 400),
        "gained": st.integers(0, 9),
        "hull": st.integers(0, 5),
        "chance": st.integers(-50, 250),
        "roll": st.integers(0, 99),
        "by": st.sampled_from(["commander", "deputy", "minister", "admin", "default"]),
        "contact": st.sampled_from(["accept", "pursue", "evade"]),
        "stance": st.sampled_from(["accept", "engage", "evade", "run_past"]),
        "ally_outcome": st.sampled_from(["fought", "escaped", "captured", "sunk"]),
    }
)


@settings(max_examples=60, deadline=None)
@given(secret=SECRETS)
def test_explanations_are_byte_identical_whatever_the_hidden_state(secret: dict[str, Any]) -> None:
    expected, _ = told(BASE)
    assert told(secret)[0] == expected


def test_knowledge_keeps_only_the_player_s_own_orders_chances_and_stances() -> None:
    """Whose order another ship obeyed, her contact order, stance and chance
    never reach the player: with all else equal, his knowledge is the same bytes."""
    _, expected = told(BASE)
    varied = {**BASE, "by": "default", "contact": "evade", "stance": "run_past", "chance": 5}
    _, got = told(varied)
    assert got == expected
    assert '"FR4SL":{"by"' not in expected and '"BR2FL":{"by"' not in expected
    assert '"FR3FL":{"by":"deputy"' in expected


def test_the_why_fog_test_can_fail() -> None:
    """The player's own ship's chance and orders do show in her why."""
    expected, _ = told(BASE)
    assert len(expected) == 4  # the battle (FR3FL), the escape, the meeting, the wind
    assert any("her deputy's order" in line for line in expected)
    assert any("FR3FL's chance to make way was 35%" in line for line in expected)
    w = world(ships(BASE))
    changed = [
        replace(e, data={**e.data, "ship_chances": {"FR3FL": 55}}) if e.kind == "held_by_wind" else e
        for e in events(BASE)
    ]
    k = knowledge_for("villeneuve", w, replace(w, turn=w.turn + 1), changed, MAP)
    assert [d for t in told_events(k, MAP) for d in t.details if d.startswith("Why")] != expected
