"""Sentences a headless play-test read wrong (rule 3.11: the reports tell
what happened, in the rule book's language): Marines lost in battle left
out, another group's refused loading told as "lay in harbor", counts of one
in the plural, "the Russian" for the Russians, a broken sentence for a
stranded ship, and a scattered ship called out of contact among others."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest
from intel_world import MAP, harbor, sea, ship, turn_knowledge, world

from pate.core.events import Event, Phase
from pate.core.orders.model import CombatStance, Range
from pate.datafiles import data_dir
from pate.reports.events import event_lines
from tests.unit.combat.combat_world import order as combat_order
from tests.unit.combat.combat_world import run_phase as combat_run
from tests.unit.combat.combat_world import ship as combat_ship
from tests.unit.combat.combat_world import world as combat_world
from tests.unit.movement.maps import events_of, variant
from tests.unit.movement.maps import run as movement_run
from tests.unit.movement.maps import sea as toy_sea
from tests.unit.movement.maps import ship as toy_ship
from tests.unit.movement.maps import world as toy_world

WHERE = "NOC (tactical area 1)"


def told(player: str, ships: list[Any], events: list[Event]) -> str:
    return "\n".join(event_lines(turn_knowledge(player, world(ships), world(ships), events), MAP))


def happened(phase: Phase, kind: str, about: list[str], witnesses: list[str], **data: Any) -> Event:
    return Event(phase, kind, tuple(about), WHERE, tuple(witnesses), data)


# -- A. Marines lost in battle ------------------------------------------------
def _battle(marines_lost: int | None) -> Event:
    entry: dict[str, Any] = {
        "id": "BR4SL",
        "side": 0,
        "outcome": "fought",
        "strength": 189,
        "close_quarters": True,
        "hull": [0, 1],
        "rigging": [0, 2],
        "crew_lost": 66,
        "experience_gained": 3,
    }
    if marines_lost is not None:
        entry["marines_lost"] = marines_lost
    enemy = {"id": "FR1SL", "side": 1, "outcome": "fought", "close_quarters": True}
    sides = [
        {"states": ["BR"], "strength": 189, "windward": False, "line": "none"},
        {"states": ["FR"], "strength": 150, "windward": True, "line": "none"},
    ]
    return happened(
        Phase.COMBAT,
        "battle",
        ["BR4SL", "FR1SL"],
        ["BR4SL", "FR1SL"],
        where="sea",
        winner=["BR"],
        shore_battery=None,
        sides=sides,
        ships=[entry, enemy],
    )


BATTLE_SHIPS = [ship("BR4SL", sea("NOC", 1), name="Tonnant"), ship("FR1SL", sea("NOC", 1))]


def test_rule_3_11_battle_report_gives_marines_lost() -> None:
    """3.11: the event report gives "the damage taken by the player's ships";
    rule 2.2 rates each ship for "number of crew and Marines", so Marines
    lost are damage taken, told beside the crew lost (a play-test's Tonnant
    went from 150 Marines to 134 and her report said only "66 crew lost")."""
    text = told("nelson", BATTLE_SHIPS, [_battle(16)])
    assert "2 rigging damage (now 2 of 5), 66 crew lost and 16 Marines lost; 3 experience gained." in text
    assert "66 crew lost and 1 Marine lost;" in told("nelson", BATTLE_SHIPS, [_battle(1)])
    assert "Marine" not in told("villeneuve", BATTLE_SHIPS, [_battle(16)])  # the enemy's are not seen


def test_battle_stored_without_marines_lost_still_renders() -> None:
    """Battles stored before the key was added read as before."""
    text = told("nelson", BATTLE_SHIPS, [_battle(None)])
    assert "2 rigging damage (now 2 of 5) and 66 crew lost; 3 experience gained." in text


def test_rule_7_7_battle_event_records_the_marines_each_ship_lost() -> None:
    """7.7: crew and Marines are lost in battle; the battle event records the
    Marines each ship lost, exactly what her report's Marines went down by."""
    ids = ["BR1SL", "BR2SL", "BR3SL", "FR1SL", "FR2SL", "FR3SL"]
    w = combat_world(*(combat_ship(s) for s in ids))
    orders = {s: combat_order(s, stance=CombatStance.ENGAGE, range=Range.CLOSE) for s in ids}
    lost_any = False
    for seed in (1, 2, 4):
        ts = combat_run(w, orders, seed)
        (fought,) = [e for e in ts.events if e.kind == "battle"]
        for entry in fought.data["ships"]:
            after = ts.world.ships.get(entry["id"])
            if after is not None:  # a prize changes her id and takes a new crew
                assert entry["marines_lost"] == w.ships[entry["id"]].marines - after.marines
                lost_any = lost_any or entry["marines_lost"] > 0
    assert lost_any


# -- B. another group's refused loading ---------------------------------------
def _refusal_world() -> list[Any]:
    return [
        ship("FR1SL", harbor("Brest"), commander="ganteaume", name="Ajax"),
        ship("FR5TR", harbor("Brest"), name="Boulogne transports"),
    ]


def _refusal() -> list[Event]:
    data = {
        "direction": "load",
        "port": "Brest",
        "refused": [{"item": "FR2IN", "reason": "another transport group takes it"}],
        "units": [],
        "supplies": 0,
    }
    return [
        Event(Phase.INITIAL_AMPHIBIOUS, "transfer_refused", ("FR5TR",), "Brest (harbor)", ("FR1SL",), data),
        Event(Phase.MOVEMENT, "shifted", ("FR1SL",), "Brest (coastal waters)", (), {"harbor": False}),
    ]


def test_rule_5_1_another_groups_refused_loading_is_not_told() -> None:
    """5.1: a player learns what his ships saw.  Ganteaume's ship in the
    harbor saw no troops go aboard another commander's transport group: a
    loading refused is an order that came to nothing, and a play-test's
    report told it as "The French transport group FR5TR lay in Boulogne
    harbor".  It is left out, and the events after it keep counting on."""
    k = turn_knowledge("ganteaume", world(_refusal_world()), world(_refusal_world()), _refusal())
    assert [e.kind for e in k.events][:2] == ["transfer_refused", "shifted"]  # the knowledge holds it
    text = "\n".join(event_lines(k, MAP))
    assert "FR5TR" not in text and " lay " not in text
    assert text.startswith("1. [movement] FR1SL Ajax came out of the harbor")


def test_rule_3_11_own_refused_loading_says_why() -> None:
    """3.11: the transport group's own commander and the naval minister read
    the refusal and its reason."""
    for player in ("villeneuve", "decres"):
        text = told(player, _refusal_world(), _refusal())
        assert (
            "1. [initial amphibious] FR5TR Boulogne transports could not carry out all the loading ordered"
            " in Brest harbor: FR2IN: another transport group takes it." in text
        )


# -- C. counts of one, nations' names, a broken sentence ----------------------
MOVERS = [ship("FR1FR", sea("NOC", 1), name="Armide"), ship("BR1SL", sea("NOC", 1))]


def _said(kind: str, **data: Any) -> str:
    return told("villeneuve", MOVERS, [happened(Phase.MOVEMENT, kind, ["FR1FR"], [], **data)])


def test_rule_3_11_one_enemy_ship_avoided_is_her() -> None:
    """3.11 with 6.9: "sighted 1 enemy ship on arrival and kept clear of her"."""
    assert "sighted 1 enemy ship on arrival and kept clear of her," in _said("evaded", enemies_avoided=1)
    assert "sighted 3 enemy ships on arrival and kept clear of them," in _said("evaded", enemies_avoided=3)


def test_rule_3_4_one_store_is_singular() -> None:
    """3.4 counts "each additional store"; a play-test said "took aboard 1 stores"."""
    assert "FR1FR Armide took aboard 1 store in" in _said("loaded_stores", stores=1)
    assert "FR1FR Armide took aboard 4 stores in" in _said("loaded_stores", stores=4)
    assert "returned 1 store ashore" in _said("unloaded_stores", stores=1)


def _trade_lost(**data: Any) -> str:
    event = Event(Phase.FINAL_AMPHIBIOUS, "trade_lost", (), "NOC", (), {"state": "FR", "by": ["BR"], **data})
    return told("decres", MOVERS, [event])


def test_rule_4_8_one_merchant_ship_taken_is_her() -> None:
    """4.8 trade: a play-test read "British raiders took 1 of our 1 merchant
    ships ...; they sailed unescorted"."""
    one = _trade_lost(taken=1, merchants=1, escorts=0)
    assert (
        "British raiders took our only merchant ship in the Northern Caribbean; she sailed unescorted" in one
    )
    assert "took 1 of our 2 merchant ships" in _trade_lost(taken=1, merchants=2, escorts=0)
    assert "took all 2 of our merchant ships" in _trade_lost(taken=2, merchants=2, escorts=0)
    assert "; 1 escort was with her (rule 4.8)" in _trade_lost(taken=1, merchants=1, escorts=1)
    assert "; 2 escorts were with them (rule 4.8)" in _trade_lost(taken=1, merchants=3, escorts=2)
    raided = _said("merchant_prizes", victim="BR", prizes=1, prize_crew=12)
    assert "FR1FR Armide took 1 British merchant ship" in raided and "12 men away in a prize crew" in raided


ONE_IN_THE_PLURAL = re.compile(
    r"\b1 (stores|supplies|ships|raiders|escorts|prizes|steps|columns|ports|rounds|political points"
    r"|merchant ships|trade ships|Marines)\b|\(s\)"
)


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("convoy_covered", {"merchants": 1, "lost": 0, "raiders": 1}),
        ("convoy_covered", {"merchants": 3, "lost": 1, "raiders": 1}),
        ("trade_summary", {"merchants": 1, "taken": 0, "prizes": 1}),
        ("stores_moved", {"amount": 1, "origin": "Brest", "destination": "Martinique", "state": "FR"}),
        ("transfer_begun", {"direction": "load", "port": "Brest", "units": [], "supplies": 1}),
        ("contest", {"joined": True, "steps": 1, "against": "BR1FL"}),
        ("contest", {"joined": False, "reach": 1, "against": "BR1FL"}),
        ("column_battle", {"columns": [["FR1FR"], ["BR1SL"]], "disabled": [], "winner": 0}),
        ("trade_route", {"route": "Brest", "ports": ["Brest"], "ships": {"FR": 1}, "left": {}}),
        ("trade_ships_taken", {"taken": 1, "route": "Brest", "state": "BR", "by": "FR"}),
        ("treasury", {"ships": 1, "taken": 0, "arrived": 1, "prizes": 1, "income": 2, "money": 3}),
    ],
)
def test_rule_3_11_counts_of_one_are_singular(kind: str, data: dict[str, Any]) -> None:
    """3.11 and the project's rule that counts of one are singular
    (docs/rules/intel.md): no "1 raiders", "1 supplies", "column(s)"."""
    text = _said(kind, **data)
    assert not ONE_IN_THE_PLURAL.search(text), text


def test_the_peoples_of_every_nation_are_named_together() -> None:
    """Rule 1.4's nations: "the British", "the French", "the Spanish", and
    so "the Russians", "the Swedes" (a play-test wrote "The Russian: 6 ships
    of the line"); every state of data/nations.toml has its word."""
    from pate.reports.words import PEOPLES, people, the_peoples

    nations = tomllib.loads((data_dir() / "nations.toml").read_text(encoding="utf-8"))["nations"]
    states = {code for nation in nations.values() for code in nation["states"]}
    assert states <= set(PEOPLES)
    k = turn_knowledge("nelson", world(MOVERS), world(MOVERS))
    assert [people(k, s) for s in ("BR", "FR", "SP", "RU", "SW", "HO")] == [
        "British",
        "French",
        "Spanish",
        "Russians",
        "Swedes",
        "Dutch",
    ]
    assert the_peoples(k, ["FR", "RU"]) == "the French and the Russians"


def test_rule_7_8_a_russian_captor_is_the_russians() -> None:
    """3.11 with 7.8: "taken as a prize by the Russians (RU11FR)"; the battle
    names the side "The Russians" and "The Russians won the day"."""
    ships = [ship("BR1FR", sea("NOC", 1), name="Naiad"), ship("RU11FR", sea("NOC", 1))]
    prize = happened(
        Phase.COMBAT,
        "captured",
        ["BR1FR", "RU12FR", "RU11FR"],
        [],
        prize="RU12FR",
        captor="RU11FR",
        state="RU",
    )
    sides = [{"states": ["RU"], "strength": 150, "line": "none"}, {"states": ["BR"], "strength": 27}]
    fought = [
        {"id": "RU11FR", "side": 0, "outcome": "fought"},
        {"id": "BR1FR", "side": 1, "outcome": "captured"},
    ]
    battle = happened(
        Phase.COMBAT, "battle", ["BR1FR", "RU11FR"], [], where="sea", winner=["RU"], sides=sides, ships=fought
    )
    text = told("nelson", ships, [battle, prize])
    assert "The Russians: 1 frigate (RU11FR)" in text and "The Russians won the day." in text
    assert "was taken as a prize by the Russians (RU11FR)" in text
    assert "The Russian:" not in text and "the Russian " not in text


def test_section_8_a_stranded_ship_is_one_sentence() -> None:
    """Lost section 8 as rebuilt (docs/rules/movement.md): a stranded ship
    "can move no further this turn"; a play-test read "...; 30 crew lost, and
    can move no further this turn", a verb without its subject."""
    data = {"hull": 1, "rigging": 2, "crew_lost": 30, "total_hull": 2, "total_rigging": 4}
    own = _said("stranded", **data)
    assert (
        "FR1FR Armide was stranded in the Northern Caribbean (tactical area 1) and can move no further"
        " this turn: 1 hull damage (now 2 of 5) and 2 rigging damage (now 4 of 5); 30 crew lost (section 8)."
        in own
    )
    seen = told("nelson", MOVERS, [happened(Phase.MOVEMENT, "stranded", ["FR1FR"], ["BR1SL"], **data)])
    assert (
        "was stranded in the Northern Caribbean (tactical area 1) and can move no further this turn" in seen
    )


# -- D. scattered among others ----------------------------------------------
def _scattered(**data: Any) -> str:
    ships = [*MOVERS, ship("FR2SL", sea("NOC", 3), name="Neptune"), ship("BR2SL", sea("NOC", 3))]
    return told("villeneuve", ships, [happened(Phase.MOVEMENT, "scattered", ["FR1FR"], [], **data)])


def test_rule_5_1_a_scattered_ship_among_others_is_in_contact() -> None:
    """5.1: ships "in the same tactical location of the same sea area" are in
    contact.  A play-test's BR3SL "was scattered by the storm to tactical
    area 1, out of contact" where BR1FR, FR1SL and FR4SL lay."""
    text = _scattered(to_tactical=3, met=["FR2SL", "BR2SL"])
    assert (
        "FR1FR Armide was scattered by the storm to tactical area 3, where she fell in with FR2SL Neptune"
        " and with the British ship of the line BR2SL." in text
    )
    alone = _scattered(to_tactical=4, met=[])
    assert "scattered by the storm to tactical area 4, where no other ship lay." in alone
    old = _scattered(to_tactical=3)  # stored before ``met``: nothing said that may be false
    assert "scattered by the storm to tactical area 3." in old and "contact" not in old


def test_storm_scattering_records_the_ships_found_there() -> None:
    """Lost section 8 as rebuilt: at sea a storm blows a ship to another
    tactical area; the event names the ships already there (her contacts,
    5.1), none when it is empty."""
    ctx = variant(
        storms={
            "chance": {"light": 100, "moderate": 100, "heavy": 100},
            "damage": {"bands": [{"below": 1000, "rigging": 0, "hull": 0}]},
            "scatter": {"at_sea_percent": 100},
        }
    )
    fleet = [toy_ship("BR1SL", toy_sea("SOC", 2)), toy_ship("FR1SL", toy_sea("SOC", 1))]
    fleet.append(toy_ship("SP1SL", toy_sea("SOC", 3)))
    start = {s.id: s.location for s in fleet}
    seen: set[bool] = set()
    for seed in range(1, 30):
        ts = movement_run(toy_world(fleet), seed=seed, ctx=ctx)
        (first,) = [e for e in events_of(ts, "scattered") if e.ships == ("BR1SL",)]
        there = toy_sea("SOC", first.data["to_tactical"])
        assert first.data["met"] == sorted(s for s, loc in start.items() if loc == there)
        seen.add(bool(first.data["met"]))
    assert seen == {True, False}


def test_rule_5_1_a_scattered_ship_meets_allies_and_enemies_named_apart() -> None:
    """The ships a scattered ship falls in with are named side by side: an ally's apart from
    the enemy's, never "the Spanish and British ships"."""
    ships = [*MOVERS, ship("SP1SL", sea("NOC", 3)), ship("BR2SL", sea("NOC", 3))]
    text = told(
        "villeneuve",
        ships,
        [happened(Phase.MOVEMENT, "scattered", ["FR1FR"], [], to_tactical=3, met=["SP1SL", "BR2SL"])],
    )
    assert "Spanish and British" not in text and "British and Spanish" not in text
    assert (
        "fell in with the Spanish ship of the line SP1SL and with the British ship of the line BR2SL" in text
    )


def test_a_column_battle_tells_what_our_columns_chose_and_why() -> None:
    """EiA new naval rules, "The players then take turns choosing actions for their
    columns": the report says what each of our columns did, by its plan's step or by
    default (docs/rules/eia-operations.md, "Column orders"); theirs are not listed."""
    actions = [[0, 1, "protect", 0, 1], [1, 0, "attack", 0, 0], [0, 0, "attack", 0, 0], [0, 0, "evade", 0, 2]]
    columns = [[["FR1FR"], ["FR2FR"]], [["BR1SL"]]]
    text = _said("column_battle", columns=columns, disabled=[], winner=None, actions=actions)
    assert "column 2 protected our column 1 by step 1 of its plan" in text
    assert "column 1 attacked their column 1 by default" in text
    assert "column 1 evaded their column 1 by step 2 of its plan" in text
    assert text.count("attacked") == 1
