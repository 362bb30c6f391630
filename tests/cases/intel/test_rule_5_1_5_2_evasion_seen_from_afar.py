"""Rules 5.1 and 5.2 for an evasion (6.9, 4.6): ships that avoided each other
were never in contact, so neither side learns the other's identities; the
ships avoided learn only that some ships came in sight and bore away, and how
many roughly.  Played through ``resolve_turn`` (the engine of the services)
on the hand-built world, then read as each player's knowledge and report.
Decision: docs/rules/intel.md, "Evasion seen from afar"."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from intel_world import MAP, coastal, sea, ship, world

from pate.core.codec import canonical_json, to_plain
from pate.core.events import Event
from pate.core.intel.knowledge import knowledge_for
from pate.core.intel.model import ObservedEvent, PlayerKnowledge
from pate.core.orders.model import Contact, ContactMode, Movement, ShipOrder
from pate.core.ruledata import parse_rules
from pate.core.rules.context import TurnContext
from pate.core.rules.turn import TurnResult, resolve_turn
from pate.core.world.ships import AtSea, Ship
from pate.core.world.state import WorldState
from pate.datafiles import load_rule_data
from pate.reports.events import event_lines


def _calm() -> TurnContext:
    """The project's rules with winds that hold and no storms, so that where
    ships end up is decided by the arrival alone."""
    sections = {k: dict(v) for k, v in load_rule_data().sections.items()}
    sections["storms"] = {**sections["storms"], "chance": {"light": 0, "moderate": 0, "heavy": 0}}
    sections["winds"] = {**sections["winds"], "shift": {"direction_percent": 0, "strength_percent": 0}}
    return TurnContext(map=MAP, rules=parse_rules(sections))


CTX = _calm()
EVADE = Contact(mode=ContactMode.EVADE)


def _evasions(ships: list[Ship], orders: list[ShipOrder]) -> Iterator[tuple[WorldState, TurnResult]]:
    """The turns, over campaign seeds, in which an evasion at sea happened."""
    for seed in range(60):
        w = replace(world(ships, turn=3), seed=seed)
        result = resolve_turn(CTX, w, {o.ship_id: o for o in orders})
        if any(e.kind == "evaded" and isinstance(e.data.get("avoided"), int) for e in result.events):
            yield w, result


def _knowledge(player: str, w: WorldState, result: TurnResult) -> PlayerKnowledge:
    return knowledge_for(player, w, result.state, result.events, MAP, CTX.rules)


def _evaded(k: PlayerKnowledge) -> list[ObservedEvent]:
    return [e for e in k.events if e.kind == "evaded"]


def _engine_evasion(result: TurnResult) -> Event:
    return next(e for e in result.events if e.kind == "evaded")


def _frigate_sails_in_to_evade() -> tuple[list[Ship], list[ShipOrder]]:
    """A British frigate (Nelson's) sails into the Northern Caribbean, ordered
    to evade; a French ship (Villeneuve's) lies in tactical area 1."""
    ships = [ship("BR1FR", sea("SOC", 1)), ship("FR3SL", sea("NOC", 1))]
    return ships, [ShipOrder("BR1FR", movement=Movement(sea_areas=("NOC",)), contact=EVADE)]


def test_rule_5_1_ships_avoided_learn_no_identity_of_the_evaders() -> None:
    """5.1: "A ship or transport group will detect an enemy ship or transport
    group if it is contact with it. ... Ships and transport groups in the same
    sea area but different tactical locations are not in contact." The French
    ship saw sails come and bear away to another tactical area: no id, no
    flag, no class anywhere in what Villeneuve learns, only a rough size."""
    ships, orders = _frigate_sails_in_to_evade()
    seen = 0
    for w, result in _evasions(ships, orders):
        engine = _engine_evasion(result)
        assert engine.witnesses == ("FR3SL",) and engine.data["afar"] == ["FR3SL"]  # 6.9: they saw it
        k = _knowledge("villeneuve", w, result)
        (ev,) = _evaded(k)
        assert ev.ships == () and ev.data == {"sighted": "few"} and ev.seen_by == ("FR3SL",)
        assert ev.location == "NOC"  # the sea area, not where the evaders went
        assert "BR1FR" not in canonical_json(to_plain(k))
        text = "\n".join(event_lines(k, MAP))
        assert "A few ships came in sight in the Northern Caribbean and bore away, avoiding contact" in text
        assert "British" not in text and "frigate" not in text
        seen += 1
    assert seen >= 5


def test_rule_4_6_the_evaders_count_the_enemy_they_avoid_but_learn_no_identity() -> None:
    """4.6: "Evade means you will avoid contact with enemy ships if sighted",
    and an evade order acts on the number of enemy ships encountered, so the
    evaders know that number; they never came into contact (5.1), so they
    learn no id of the ships they avoided."""
    ships, orders = _frigate_sails_in_to_evade()
    seen = 0
    for w, result in _evasions(ships, orders):
        k = _knowledge("nelson", w, result)
        (ev,) = _evaded(k)
        assert ev.ships == ("BR1FR",) and ev.data["enemies_avoided"] == 1 and "afar" not in ev.data
        assert "FR3SL" not in canonical_json(to_plain(ev))
        assert "sighted 1 enemy ship on arrival and kept clear of" in "\n".join(event_lines(k, MAP))
        seen += 1
    assert seen >= 5


def test_rule_5_2_a_frigate_avoided_learns_no_exact_number_nor_identity() -> None:
    """5.2: "Frigates detecting enemy ships in this way do not report the exact
    number and identity of the enemy ships/transports they detect at sea".
    Four British ships of the line evade a French frigate: it reports
    "several" ships, not four, and none of their ids."""
    ids = [f"BR{n}SL" for n in (1, 2, 3, 4)]
    ships = [*(ship(s, sea("SOC", 1)) for s in ids), ship("FR2FR", sea("NOC", 1))]
    orders = [ShipOrder(s, movement=Movement(sea_areas=("NOC",)), contact=EVADE) for s in ids]
    seen = 0
    for w, result in _evasions(ships, orders):
        k = _knowledge("villeneuve", w, result)
        (ev,) = _evaded(k)
        assert ev.ships == () and ev.data == {"sighted": "several"}
        plain = canonical_json(to_plain(k.events))
        assert not any(s in plain for s in ids) and "4" not in plain
        seen += 1
    assert seen >= 3


def test_rule_5_1_ships_in_contact_where_the_evaders_went_see_who_they_are() -> None:
    """5.1: "Two ships are in contact if they are ... in the same tactical
    location of the same sea area." Every other tactical area holds Calder's
    British ships, so the evader goes among them: they are in contact and see
    her id, while the French ship she avoided still learns none."""
    ships, orders = _frigate_sails_in_to_evade()
    ships += [ship(f"BR{n}SL", sea("NOC", n), commander="calder") for n in (2, 3, 4)]
    seen = 0
    for w, result in _evasions(ships, orders):
        where = result.state.ships["BR1FR"].location
        assert isinstance(where, AtSea) and where.tactical != 1
        (ev,) = _evaded(_knowledge("calder", w, result))
        assert ev.ships == ("BR1FR",) and ev.seen_by == (f"BR{where.tactical}SL",)
        (theirs,) = _evaded(_knowledge("villeneuve", w, result))
        assert theirs.ships == ()
        seen += 1
    assert seen >= 5


def test_rule_5_2_a_port_not_entered_is_judged_not_counted() -> None:
    """5.2: a frigate at sea "may also detect enemy ships in ports connected
    to that sea area", never their exact number.  A British frigate ordered
    into Dominica to evade, with twelve French ships of the line off it, does
    not enter the port (1.2: a port is its own area, not in contact with the
    sea area): Nelson learns that "many" enemy ships lay there, not twelve."""
    french = [ship(f"FR{n}SL", coastal("Dominica")) for n in range(1, 13)]
    w = world([ship("BR1FR", sea("NOC", 2)), *french], turn=3)
    order = ShipOrder("BR1FR", movement=Movement(port="Dominica"), contact=EVADE)
    result = resolve_turn(CTX, w, {"BR1FR": order})
    assert _engine_evasion(result).data["enemies"] == 12
    k = _knowledge("nelson", w, result)
    (ev,) = _evaded(k)
    assert ev.data == {"avoided": "Dominica", "sighted": "many"}
    assert "would not enter Dominica, where many enemy ships lay (rule 6.9)" in "\n".join(event_lines(k, MAP))


def test_rule_5_1_an_ally_that_sailed_in_with_the_evaders_sees_them_go() -> None:
    """5.1 with 6.7: "actively allied ships in the same location move together".  A French
    frigate ordered to evade and Gravina's Spanish ship of the line, not ordered to, sail
    together into the Northern Caribbean, where a British ship lies: the Spanish ship stays and
    meets her, the frigate bears away.  They were in contact until they parted, so Gravina
    learns who evaded, while the British ship still sees only sails bearing away."""
    ships = [ship("FR1FR", sea("SOC", 1)), ship("SP1SL", sea("SOC", 1)), ship("BR3SL", sea("NOC", 1))]
    into = Movement(sea_areas=("NOC",))
    orders = [ShipOrder("FR1FR", movement=into, contact=EVADE), ShipOrder("SP1SL", movement=into)]
    seen = 0
    for w, result in _evasions(ships, orders):
        engine = _engine_evasion(result)
        assert engine.ships == ("FR1FR",) and "SP1SL" in engine.witnesses
        assert engine.data["afar"] == ["BR3SL"]
        (ev,) = _evaded(_knowledge("gravina", w, result))
        assert ev.ships == ("FR1FR",) and "SP1SL" in ev.seen_by
        assert "FR1FR" in "\n".join(event_lines(_knowledge("gravina", w, result), MAP))
        (theirs,) = _evaded(_knowledge("nelson", w, result))
        assert theirs.ships == ()
        seen += 1
    assert seen >= 5
