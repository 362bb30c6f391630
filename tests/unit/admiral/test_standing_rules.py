"""What the bot does with standing instructions (docs/formats/standing.md, "What the bot
does"), one test for each statement, through the pure bot admiral fed with Cornwallis's
report: his squadron BR1FL (BR1SL and BR2SL attached) and the frigate BR1FR, in the Channel
(ECH, bordering BIS, NOS and WAP), the French out of sight.  Left to itself the bot takes
the squadron to blockade Boulogne and keeps the frigate where it is."""

from __future__ import annotations

from typing import Any

from pate.admiral.decide import decide
from pate.admiral.obey import SUPERIOR_RATIO
from pate.admiral.operations import OPERATIONS
from pate.admiral.standing import parse_standing
from pate.core.orders.model import CombatStance, ContactMode, ShipOrder
from pate.core.world.state import TurnKind
from tests.unit.admiral.standing_world import CTX, LEVEL, orders, report, sighted


def own(r: dict[str, Any], ship: str = "BR1FL") -> ShipOrder:
    """The bot's own order for the ship, with no instruction."""
    return orders(r)[ship]


# docs/formats/standing.md, statement 7
def test_without_instructions_the_bot_judges_for_itself() -> None:
    got = orders(report())
    assert got["BR1FL"].movement.port == "Boulogne" and got["BR1FR"].movement.port is None


# docs/formats/standing.md, statement 8
def test_return_sails_for_the_ports_harbor_evading() -> None:
    got = orders(report(), "return Portsmouth")
    o = got["BR1FL"]
    assert o.movement.port == "Portsmouth" and o.movement.harbor
    assert o.contact.mode is ContactMode.EVADE and o.combat.stance is CombatStance.EVADE


# docs/formats/standing.md, statement 9
def test_keep_in_port_at_sea_goes_to_the_nearest_friendly_harbor() -> None:
    got = orders(report(), "keep in port")
    assert got["BR1FL"].movement.port == "Plymouth" and got["BR1FL"].movement.harbor  # his base


# docs/formats/standing.md, statement 10
def test_keep_in_port_in_port_stays_in_its_harbor() -> None:
    r = report()
    for s in r["ships"]:
        s["location"] = {"kind": "InPort", "port": "Falmouth", "harbor": False}
    got = orders(r, "keep in port")
    assert got["BR1FL"].movement.port == "Falmouth" and got["BR1FL"].movement.harbor
    assert not got["BR1FL"].movement.sea_areas  # it does not put to sea


# docs/formats/standing.md, statement 11
def test_keep_blockade_holds_the_ports_coastal_waters_pursuing() -> None:
    o = orders(report(), "keep blockade Brest")["BR1FL"]
    assert o.movement.port == "Brest" and not o.movement.harbor
    assert o.contact.mode is ContactMode.PURSUE and not o.contact.pursue_into_ports


# docs/formats/standing.md, statement 12
def test_a_line_without_a_condition_always_applies() -> None:
    assert orders(sighted(report(), "ECH", 9), "keep blockade Brest")["BR1FL"].movement.port == "Brest"


# docs/formats/standing.md, statement 13
def test_enemy_sighted_holds_for_any_enemy_in_the_area_or_a_bordering_one() -> None:
    text = "if enemy sighted then return Portsmouth"
    assert orders(report(), text)["BR1FL"] == own(report())  # nothing sighted: the bot's own
    assert orders(sighted(report(), "BIS", 1), text)["BR1FL"].movement.port == "Portsmouth"
    far = sighted(report(), "WME", 5)  # the Western Mediterranean does not border the Channel
    assert orders(far, text)["BR1FL"] == own(far)


# docs/formats/standing.md, statement 14
def test_superior_enemy_is_more_weight_than_the_ship_and_those_attached_to_it() -> None:
    """BR1FL leads two ships of the line: 1.3 + 1.0 + 1.0 = 3.3; the frigate alone weighs 0.25."""
    assert SUPERIOR_RATIO == 1.0
    text = "if superior enemy sighted then return Portsmouth"
    three = orders(sighted(report(), "ECH", 3), text)
    assert three["BR1FL"] == own(sighted(report(), "ECH", 3))  # 3.0 is not above 3.3: the bot's
    assert three["BR1FR"].movement.port == "Portsmouth"  # 3.0 is above 0.25
    four = orders(sighted(sighted(report(), "ECH", 2), "NOS", 2), text)  # 2 + 2 = 4.0 > 3.3
    assert four["BR1FL"].movement.port == "Portsmouth"


# docs/formats/standing.md, statement 15
def test_for_names_the_ships_and_the_others_keep_the_bots_judgement() -> None:
    got = orders(report(), "keep blockade Brest for BR1FR")
    assert got["BR1FR"].movement.port == "Brest" and got["BR1FL"] == own(report())
    every = orders(report(), "keep blockade Brest for all")
    assert every["BR1FL"].movement.port == every["BR1FR"].movement.port == "Brest"


# docs/formats/standing.md, statement 16
def test_the_first_line_that_covers_a_ship_and_holds_wins() -> None:
    text = "if superior enemy sighted then return Portsmouth\nkeep blockade Brest"
    assert orders(report(), text)["BR1FL"].movement.port == "Brest"  # the first does not hold
    assert orders(sighted(report(), "ECH", 5), text)["BR1FL"].movement.port == "Portsmouth"
    reverse = "keep blockade Brest\nif superior enemy sighted then return Portsmouth"
    assert orders(sighted(report(), "ECH", 5), reverse)["BR1FL"].movement.port == "Brest"


# docs/formats/standing.md, statement 17
def test_an_attached_ship_sails_with_its_lead() -> None:
    got = orders(report(), "keep blockade Brest for BR1SL")
    assert got == orders(report())


# docs/formats/standing.md, statement 18
def test_lines_that_no_longer_fit_the_report_are_left_out() -> None:
    """Set when BR1FR was his; it is lost since: the line is skipped, the rest followed."""
    standing = parse_standing("keep blockade Brest for BR1FR\nreturn Portsmouth for BR1FL")
    r = report()
    r["ships"] = [s for s in r["ships"] if s["id"] != "BR1FR"]
    d = decide(r, CTX.map, CTX.rules, LEVEL, 7, standing=standing)
    assert {o.ship_id: o.movement.port for o in d.orders} == {"BR1FL": "Portsmouth"}


# docs/formats/standing.md, statement 19
def test_a_return_to_a_port_with_enemy_ships_known_in_it_is_not_followed() -> None:
    text = "return Portsmouth"
    held = sighted(report(), "ECH", 1, port="Portsmouth")
    assert orders(held, text)["BR1FL"] == own(held)


# docs/formats/standing.md, statement 20
def test_remembered_sightings_do_not_trigger_a_condition() -> None:
    r = report()
    r["turn"] = 3
    r["picture"] = [
        {
            "key": "FR1FL",
            "nearness": "identified",
            "state": "FR",
            "sea_area": "ECH",
            "turn": 2,
            "category": "line",
            "estimate": 1,
        }
    ]
    assert orders(r, "if enemy sighted then return Portsmouth")["BR1FL"] == own(r)


# docs/formats/standing.md, statement 21
def test_on_a_peace_turn_the_instructions_move_is_cut_as_the_bots() -> None:
    """Rule 6.12: one sea area or one port; a return into the port's harbor is one port."""
    got = orders(report(), "return Portsmouth", TurnKind.PEACE)["BR1FL"]
    assert got.movement.port == "Portsmouth" and not got.movement.sea_areas


# docs/formats/standing.md, statement 22
def test_under_the_eia_operations_rules_the_bot_plays_its_own_operations() -> None:
    """Fleets move by their operation alone there (docs/rules/eia-operations.md): the
    instructions, which name moves, are not read, rather than half followed."""
    r = report()
    plain = decide(r, CTX.map, CTX.rules, LEVEL, 7, naval_rules=OPERATIONS)
    told = decide(
        r, CTX.map, CTX.rules, LEVEL, 7, naval_rules=OPERATIONS, standing=parse_standing("keep in port")
    )
    assert told == plain and all(
        o.operation is not None for o in told.orders if o.ship_id in ("BR1FL", "BR1FR")
    )
