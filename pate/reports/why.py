"""Why each of the player's orders came out as it did: a line under the event.

Told only from what the player may know (docs/rules/intel.md, "What an
explanation may say"): the knowledge's event detail about his own ships (his
ships' own sailing chances, whose order each carried out, his contact and
combat orders), the wind and the rules; of the enemy only what his ships
saw: their ships, which side held the weather gauge, who broke the line, who
evaded, who won.  Never an enemy's crew, experience, stores or strength, not
even as judged: the same seen events give the same words whatever those are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pate.reports.battle_why import battle_whys
from pate.reports.telling import Telling
from pate.reports.words import and_list

WHOSE = {
    "commander": "{her} commander's order",
    "deputy": "{her} deputy's order (rule 4.1: the commander sent none)",
    "minister": "the naval minister's order (rule 4.1)",
    "admin": "a game administrator's order (rule 4.1)",
    "default": "the default order (rule 4.11: no order was sent)",
}
CONTACT = {
    "accept": "Accept: {they} stay in contact with the enemy {they} meet",
    "pursue": "Pursue: {they} follow the enemy {they} meet",
    "evade": "Evade",
}
HEADING = {"downwind": "before the wind", "across": "with the wind on the beam", "upwind": "into the wind"}
SURE = 100  # a chance of 100% or more is no chance at all: the move is sure (rule 6.6 tables)


def own_notes(t: Telling) -> dict[str, Mapping[str, Any]]:
    """Whose order each of the player's ships in the event carried out."""
    notes = t.get("orders", {})
    if not isinstance(notes, Mapping):
        return {}
    return {str(s): n for s, n in notes.items() if str(s) in t.own and isinstance(n, Mapping)}


def whose(note: Mapping[str, Any], single: bool = True) -> str:
    """ "on her commander's order", "on the order of BR1FL, to which she is
    attached (rule 4.2): BR1FL's commander's order"."""
    by = str(note.get("by"))
    her = "her" if single else "their"
    lead = note.get("copied_from")
    if lead:
        given = WHOSE.get(by, "").format(her=f"{lead}'s")
        who = "she is" if single else "they are"
        return f"on the order of {lead}, to which {who} attached (rule 4.2): {given}".removesuffix(": ")
    return f"on {WHOSE.get(by, '{her} order').format(her=her)}"


def sent_home(t: Telling, sid: str) -> bool:
    """Rule 3.4: she ran out of stores this turn and sails home on her own (the
    event says so; events stored before ``sent_home`` are read off the turn's
    ``out_of_stores``)."""
    if own_notes(t).get(sid, {}).get("sent_home"):
        return True
    return any(e.kind == "out_of_stores" and sid in e.ships and e.data.get("homing") for e in t.k.events)


HOMING = {
    True: "with no orders of her own: out of stores, she makes for the nearest friendly harbor"
    " that can replenish her (rules 3.4, 4.11)",
    False: "with no orders of their own: out of stores, they make for the nearest friendly harbor"
    " that can replenish them (rules 3.4, 4.11)",
}


LISTED_AT_MOST = 3  # more ships than this sharing a clause are counted, not listed


def _who(ids: list[str]) -> str:
    return and_list(ids) if len(ids) <= LISTED_AT_MOST else f"{len(ids)} ships"


def _orders_said(t: Telling) -> str:
    """Whose orders the player's ships in the event obeyed, one clause for
    ships that share it (their own orders first); out of stores, no one's
    (rule 3.4)."""
    notes = own_notes(t)
    said: dict[str, list[str]] = {}
    for sid in sorted(notes):
        whose_key = repr((notes[sid].get("by"), notes[sid].get("copied_from")))
        said.setdefault("home" if sent_home(t, sid) else whose_key, []).append(sid)
    parts = []
    for key, ids in sorted(said.items(), key=lambda kv: "None)" not in kv[0]):
        single = len(ids) == 1
        text = HOMING[single] if key == "home" else whose(notes[ids[0]], single)
        parts.append(text if len(said) == 1 else f"{_who(ids)} {text}")
    return "; ".join(parts)


def _own_chances(t: Telling) -> dict[str, int]:
    """The player's ships' own chances, of the ships the event is about (a
    group's event holds the whole group's: those held and those that sailed)."""
    chances = t.get("ship_chances", {})
    if not isinstance(chances, Mapping):
        return {}
    mine = set(t.ships) & t.own
    return {str(s): int(c) for s, c in chances.items() if str(s) in mine and isinstance(c, int)}


def _percent(c: int) -> str:
    return "certain" if c >= SURE else f"{max(0, c)}%"


def _odds(t: Telling, what: str = "chance to make way") -> str:
    """ "her chance to make way was 45%", "FR1FL's chance ... was 45%", or
    "the chances ... were 45% for FR1FL and certain for 7 ships"; "" when none is known."""
    own = _own_chances(t)
    by: dict[str, list[str]] = {}
    for sid, c in sorted(own.items()):
        by.setdefault(_percent(c), []).append(sid)
    if len(by) == 1 and set(own) >= set(t.ships):
        return f"{t.their} {what} was {next(iter(by))}"
    if len(own) == 1:
        ((sid, c),) = own.items()
        return f"{sid}'s {what} was {_percent(c)}"
    if not own:
        return ""
    return f"the {what.replace('chance', 'chances')} were " + and_list(
        f"{p} for {_who(ids)}" for p, ids in by.items()
    )


def _course(t: Telling) -> str:
    way = HEADING.get(str(t.get("heading")), "")
    course = f"{t.their} course to the {t.get('course')}" if t.get("course") else f"{t.their} course"
    wind = f" ({t.get('wind')})" if t.get("wind") else ""
    return f"{course} lay {way}{wind}" if way else ""


def _company(t: Telling) -> str:
    if len(t.ships) < 2:
        return ""
    return "; in company, one roll for all at the chance of the slowest sound ship (rule 6.7)"


def held_by_wind(t: Telling) -> str:
    odds = _odds(t)
    again = f"; {t.they} {'tries' if t.single else 'try'} again in the second move (rule 6.5)"
    course = ", and ".join(part for part in (_course(t), odds) if part)
    return f"{course} (rule 6.6){_company(t)}{again if t.get('step') == 3 else ''}"


def held_by_damage(t: Telling) -> str:
    own = _own_chances(t)
    if own and all(c >= SURE for c in own.values()):  # no roll held her: she is dismasted
        return (
            f"the ships in company sailed, but {t.their} rigging was too damaged to go with them"
            " (rule 6.7: the damaged ones may not move)"
        )
    odds = _odds(t, "own chance")
    return (
        f"the ships in company sailed, but {t.their} damage held {t.them} back{': ' + odds if odds else ''}"
        " (rules 6.6, 6.7: the damaged ones may not move)"
    )


def sailed(t: Telling) -> str:
    own = _own_chances(t)
    if not own:
        return ""
    if all(c >= SURE for c in own.values()):
        return "with this wind the move was certain (rule 6.6)"
    return f"{_odds(t)} (rule 6.6){_company(t)}"


def stopped(t: Telling) -> str:
    ships = "a ship that made her" if t.single else "ships that made their"
    return f"{ships} first move may be unable to make the second (rule 6.6)"


def _mine(t: Telling) -> tuple[str, str, bool]:
    """Whose contact order is told: the event's ships when all are the
    player's; else his own among them by id (the others' orders are theirs)."""
    mine = [s for s in t.ships if s in t.own]
    if len(mine) == len(t.ships):
        return t.their, t.they, t.single
    return f"{and_list(mine)}'s", "she" if len(mine) == 1 else "they", len(mine) == 1


def _contact(t: Telling, note: Mapping[str, Any]) -> str:
    mode = str(note.get("contact", "accept"))
    lo, hi = note.get("minimum"), note.get("maximum")
    numbers = ""
    if lo is not None or hi is not None:
        numbers = (
            f" (from {lo if lo is not None else 1} to {hi if hi is not None else 'any number of'} ships)"
        )
    their, they, single = _mine(t)
    order = CONTACT.get(mode, mode).format(they=they)
    if single:
        order = order.replace("she stay ", "she stays ").replace("she follow ", "she follows ")
        order = order.replace("she meet", "she meets")
    return f"{their} contact order was {order}{numbers}"


def _first_note(t: Telling) -> Mapping[str, Any] | None:
    notes = own_notes(t)
    return notes[min(notes)] if notes else None


def met_enemy(t: Telling) -> str:
    note = _first_note(t)
    if note is None:
        return ""
    said = _contact(t, note)
    if note.get("contact") == "evade":
        n = len(t.get("enemies", ()))
        return (
            f"{said}, but the order did not cover the {n} met, or every other tactical area"
            " held enemies too (rules 4.6, 6.8, 6.9)"
        )
    return f"{said} (rules 4.6, 6.9)"


def evaded(t: Telling) -> str:
    note = _first_note(t)
    if t.phase == "combat":
        stance = str(note.get("stance")) if note is not None else ""
        return f"{t.their} combat order was Evade (rule 7.4)" if stance == "evade" else ""
    said = _contact(t, note) if note is not None else f"{_mine(t)[0]} contact order was Evade"
    n = t.number("enemies_avoided")
    met = f" {n} enemy ship{'s' if n != 1 else ''}" if n else " the enemy"
    return f"{said}, and {t.they} came upon{met} (rules 4.6, 6.9)"


def pursued(t: Telling) -> str:
    their, they, _ = _mine(t)
    return f"{their} contact order was Pursue: the enemy sailed, and {they} followed (rules 4.6, 6.10)"


def course_impossible(t: Telling) -> str:
    return "a ship sails only to an adjacent sea area or a connected port (rules 6.2, 6.5)"


def escaped(t: Telling) -> str:
    return f"{t.their} side lost the day, and {t.they} got away (rule 7.8)"


def out_of_stores(t: Telling) -> str:
    """The sentence says what running out does; the why, how it came to it."""
    return (
        f"{t.their} stores were gone: ships use one store a turn at sea or in coastal waters,"
        " and in harbor when the port has none to give (rule 3.4)"
    )


MOVES = {
    "sailed": sailed,
    "held_by_wind": held_by_wind,
    "held_by_damage": held_by_damage,
    "stopped": stopped,
    "met_enemy": met_enemy,
    "evaded": evaded,
    "pursued": pursued,
    "course_impossible": course_impossible,
    "escaped": escaped,
    "out_of_stores": out_of_stores,
}


def why_lines(t: Telling) -> list[str]:
    """The why lines under an event about the player's ships (none for
    anyone else's: their orders and chances are not his to know)."""
    if not t.ours:
        return []
    if t.kind == "battle":
        return battle_whys(t, own_notes(t), whose)
    reason = MOVES.get(t.kind, _nothing)(t)
    said = [part for part in (reason, _orders_said(t)) if part]
    return [f"Why: {'; '.join(said)}"] if said else []


def _nothing(t: Telling) -> str:
    return ""
