"""Fog of war (rules 3.11, 5): a player's knowledge and reports depend only on
what their ships could detect.  Changing anything else - ships elsewhere,
their orders, events nobody of theirs witnessed, names of other players,
winds and garrisons of places they are not, and in the events they did see
the dice, an enemy's orders, crew, damage and exact strength, and the ships a
storm caught out of their sight - never changes a byte."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from intel_world import MAP, PLAYERS, PortState, coastal, event, harbor, intel_events, sea, ship, world

from pate.core.codec import canonical_json, to_plain
from pate.core.events import Event, Phase
from pate.core.intel.knowledge import knowledge_for
from pate.core.orders.model import Commerce, ShipOrder
from pate.core.world.geography import Direction, WindStrength
from pate.core.world.state import Player, Wind
from pate.reports import render_reports

BASE_START = [
    ship("FR3FL", sea("SOC", 2), deputy="ganteaume"),
    ship("FR2FR", sea("SOC", 1)),
    ship("FR7SL", harbor("Martinique")),
    ship("BR2FL", sea("NOC", 1), station=1),
    ship("BR4SL", sea("SOC", 3)),
    ship("BR8SL", coastal("Martinique")),
]
BASE_END = [
    ship("FR3FL", sea("NOC", 1), deputy="ganteaume"),
    ship("FR2FR", sea("SOC", 1)),
    ship("FR7SL", harbor("Martinique")),
    ship("BR2FL", sea("NOC", 1), station=1),
    ship("BR4SL", sea("SOC", 3)),
    ship("BR8SL", coastal("Martinique")),
]
BASE_EVENTS = [
    event("sailed", ["FR3FL"], "SOC", to="NOC"),
    event("met_enemy", ["FR3FL", "BR2FL"], "NOC (tactical area 1)"),
    event("storm_damage", ["BR4SL"], "SOC (tactical area 3)", witnesses=["FR2FR"], rigging=[0, 1]),
]
ORDERS = {"FR2FR": ShipOrder("FR2FR", commerce=Commerce.RAID)}

HIDDEN_PLACES = [
    *(sea(a, t) for a in ("BAH", "WCA", "SWA", "ECH", "NOS") for t in (1, 2, 3, 4)),
    *(f(p) for p in ("Dominica", "Port au Prince", "Brest", "London") for f in (harbor, coastal)),
]


@st.composite
def hidden_ships(draw):
    n = draw(st.integers(0, 8))
    out = []
    for i in range(n):
        state = draw(st.sampled_from(["BR", "SP", "PO", "FR"]))
        kind = draw(st.sampled_from(["FL", "SL", "FR", "TR"]))
        sid = f"{state}{60 + i}{kind}"
        commander = draw(st.sampled_from([None, "nelson", "ganteaume", "gravina", "calder"]))
        kw = {"commander": commander, "station": draw(st.integers(0, 3)), "active": draw(st.booleans())}
        a, b = draw(st.sampled_from(HIDDEN_PLACES)), draw(st.sampled_from(HIDDEN_PLACES))
        commerce = draw(st.sampled_from(list(Commerce)))
        out.append((ship(sid, a, **kw), ship(sid, b, **kw), ShipOrder(sid, commerce=commerce)))
    return out


WHERE = "NOC (tactical area 1)"


def seen_events(secret: dict | None = None) -> list[Event]:
    """Events FR3FL saw at NOC 1 with BR2FL, whose hidden side varies."""
    s = {"to": "BAH", "roll": 50, "chance": 70, "crew": 40, "hull": 1, "rigging": 2, "strength": 0, "exp": 2}
    s |= secret or {}
    ships = [
        {"id": "FR3FL", "side": 0, "outcome": "fought", "strength": 160, "close_quarters": True,
         "hull": [0, 1], "rigging": [0, 1], "crew_lost": 30, "experience_gained": 3},
        {"id": "BR2FL", "side": 1, "outcome": "fought", "strength": 140 + s["strength"],
         "close_quarters": True, "hull": [0, s["hull"]], "rigging": [0, s["rigging"]],
         "crew_lost": s["crew"], "experience_gained": s["exp"]},
    ]  # fmt: skip
    sides = [
        {"states": ["FR"], "strength": 160, "windward": True, "line": "none"},
        {"states": ["BR"], "strength": 1000 + s["strength"], "windward": False, "line": "none"},
    ]
    battle = {"where": "sea", "winner": ["FR"], "shore_battery": None, "sides": sides, "ships": ships}
    caught = ["FR3FL", *s.get("caught", [])]
    return [
        Event(Phase.COMBAT, "battle", ("BR2FL", "FR3FL"), WHERE, (), battle),
        event("sailed", ["BR2FL"], WHERE, witnesses=["FR3FL"], to=s["to"], roll=s["roll"], chance=s["chance"],
              course="north", heading="across", wind="moderate from the west"),
        event("storm", caught, "NOC", area="NOC", wind="heavy from the west"),
        event("storm_damage", ["BR2FL"], WHERE, witnesses=["FR3FL"], rigging=s["rigging"], hull=s["hull"],
              roll=s["roll"], total_rigging=s["rigging"], total_hull=s["hull"]),
    ]  # fmt: skip


def _knowledge_bytes(start, end, events, orders):
    after = replace(end, turn=start.turn + 1)
    evs = (*events, *intel_events(start, end, orders, seed=11))
    k = knowledge_for("villeneuve", start, after, evs, MAP)
    return canonical_json(to_plain(k)), render_reports(k, MAP)


def _base():
    return world(BASE_START), world(BASE_END)


SECRETS = st.fixed_dictionaries(
    {
        "to": st.sampled_from(["BAH", "SOC", "WCA"]),
        "roll": st.integers(0, 99),
        "chance": st.integers(0, 250),
        "crew": st.integers(0, 400),
        "hull": st.integers(0, 4),
        "rigging": st.integers(0, 5),
        "strength": st.integers(-25, 24),  # the enemy side stays judged at about 1000
        "exp": st.integers(0, 5),
    }
)


@settings(max_examples=60, deadline=None)
@given(
    hidden=hidden_ships(),
    positions=st.lists(st.integers(0, 3), max_size=4),
    rename=st.booleans(),
    wind=st.sampled_from(list(Direction)),
    garrison=st.lists(st.sampled_from(["BR1IN", "BR2CA", "FR5IN"]), max_size=3),
    secret=SECRETS,
)
def test_nothing_undetectable_changes_a_byte(hidden, positions, rename, wind, garrison, secret) -> None:
    start, end = _base()
    expected = _knowledge_bytes(start, end, [*BASE_EVENTS, *seen_events()], ORDERS)

    start2 = world([*BASE_START, *(a for a, _, _ in hidden)])
    end2 = world([*BASE_END, *(b for _, b, _ in hidden)])
    orders = {**ORDERS, **{o.ship_id: o for _, _, o in hidden}}
    events = list(BASE_EVENTS)
    ids = [b.id for _, b, _ in hidden]
    for i, pos in enumerate(positions):
        if ids:
            events.insert(
                min(pos, len(events)), event("sailed", [ids[i % len(ids)]], "ECH", witnesses=ids[:1])
            )
    if rename:
        players = {**PLAYERS, "nelson": Player("nelson", "Someone Else", "BR")}
        start2, end2 = replace(start2, players=players), replace(end2, players=players)
    end2 = replace(end2, winds={**end2.winds, "BAH": Wind(wind, WindStrength.HEAVY)})
    ports = {**end2.ports, "London": PortState("London", "BR", 9, garrison=tuple(garrison))}
    end2 = replace(end2, ports=ports)
    events += seen_events({**secret, "caught": [b.id for _, b, _ in hidden]})

    assert _knowledge_bytes(start2, end2, events, orders) == expected


def test_fog_test_can_fail_on_what_was_seen() -> None:
    """What the player's ships could judge does show: the enemy's strength
    judged to another step, the course of the enemy sailing away."""
    start, end = _base()
    expected = _knowledge_bytes(start, end, seen_events(), ORDERS)
    assert _knowledge_bytes(start, end, seen_events({"strength": 26}), ORDERS) != expected
    course = [
        e if e.kind != "sailed" else replace(e, data={**e.data, "course": "south"}) for e in seen_events()
    ]
    assert _knowledge_bytes(start, end, course, ORDERS) != expected


def test_fog_test_can_fail() -> None:
    """The property above compares real bytes: a ship in contact does show."""
    start, end = _base()
    expected = _knowledge_bytes(start, end, BASE_EVENTS, ORDERS)
    end2 = world([*BASE_END, ship("BR60SL", sea("NOC", 1))])
    assert _knowledge_bytes(start, end2, BASE_EVENTS, ORDERS) != expected
