"""The rule book's words for the events of the movement phase: sailing,
held in port, contact, pursuit, the straits and the Atlantic (rules 6, 2.8,
4.5).  The other areas' words are in storms.py, cargo.py, supply.py,
battle.py, ashore.py, intel.py and eia.py; pate/reports/events.py joins
them into the one table of every event kind.

Each phrase tells the player's own ships in full and anyone else's only as
far as the knowledge carries (pate/core/intel/judged.py leaves out what a
watching officer could not have seen).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pate.core.intel.judged import out_of_sight
from pate.reports.telling import Telling
from pate.reports.words import counted, in_harbor, port_of

Phrase = Callable[[Telling], str]


# How a ship sails relative to the wind (rule 6.6).
HEADING = {
    "downwind": "running before the wind",
    "across": "with the wind on the beam",
    "upwind": "beating into the wind",
}
AGAINST = {
    "downwind": "even before the wind",
    "across": "with the wind on the beam",
    "upwind": "against the wind",
}
HELD_REASONS = {
    "enemy_off_coast": "enemy ships lay off the coast (rule 6.4)",
    "upwind_heavy": "the course lay upwind into heavy winds (rule 6.6)",
    "upwind_enemy": "the course lay upwind with enemy ships present (rule 6.6)",
}
SHIFT_REASONS = {
    "enemy_present": "enemy ships were in the port (rule 6.6)",
}
ABANDON_REASONS = {
    "atlantic": "the enemy sailed into the Atlantic, where no ships meet (rule 6.11)",
    "port": "the enemy made for a port, and the orders were not to follow into ports (rule 6.10)",
}


def _wind(t: Telling, table: Mapping[str, str]) -> str:
    heading, wind = t.get("heading"), t.get("wind")
    text = f", {table[heading]}" if heading in table else ""
    return f"{text} ({wind})" if text and wind else f", the wind {wind}" if wind else text


def _destination(t: Telling) -> str | None:
    if t.get("to"):
        return t.place(str(t.get("to")))
    if t.get("port"):
        return str(t.get("port"))
    return None


def _because(t: Telling, reasons: Mapping[str, str]) -> str:
    """ ": <the reason in words>", or nothing when the event gives none."""
    reason = t.text("reason", "")
    return f": {reasons.get(reason, reason.replace('_', ' '))}" if reason else ""


def _stayed(t: Telling) -> str:
    return f"{t.subject} stayed {t.at()}"


# -- sailing (rules 6.2-6.7, 6.11, 6.12) -------------------------------------
def sailed(t: Telling) -> str:
    dest = _destination(t)
    if not t.ours or dest is None:
        course = f" to the {t.get('course')}" if t.get("course") else ""
        return f"{t.subject} sailed away{course} {t.came_from(t.location)}{_wind(t, HEADING)}"
    peace = " (a peace-time move, rule 6.12)" if t.get("peace") else ""
    origin = t.came_from(str(t.get("came_from") or t.location))
    return f"{t.subject} sailed {origin} for {dest}{_wind(t, HEADING)}{peace}"


def held_by_wind(t: Telling) -> str:
    dest = _destination(t)
    if not t.ours or dest is None:
        return f"{t.subject} tried to sail {t.at()} but could not make way{_wind(t, AGAINST)}"
    return f"{t.subject} could not sail for {dest}: {t.they} could not make way{_wind(t, AGAINST)} (rule 6.6)"


def held_by_damage(t: Telling) -> str:
    dest = _destination(t)
    if not t.ours or dest is None:
        return f"{t.subject} could not sail {t.at()}: {t.their} damage held {t.them} back"
    return f"{t.subject} could not sail for {dest}: {t.their} damage held {t.them} back (rules 6.6, 6.7)"


def held_in_port(t: Telling) -> str:
    if not t.ours:
        return _stayed(t)
    reason = _because(t, HELD_REASONS)
    if t.get("port"):
        return f"{t.subject} could not enter {t.get('port')}{reason}"
    return f"{t.subject} could not leave {t.place()}{reason}"


def course_impossible(t: Telling) -> str:
    dest = _destination(t)
    if not t.ours:
        return _stayed(t)
    if dest is None:
        return f"{t.subject} could not sail as ordered {t.at()} (rules 6.2, 6.5)"
    return f"{t.subject} could not sail for {dest}: it cannot be reached from {t.place()} (rules 6.2, 6.5)"


def no_enemy_port(t: Telling) -> str:
    if not t.ours:
        return _stayed(t)
    area = t.place(str(t.get("area"))) if t.get("area") else t.place()
    return (
        f"{t.subject} found no port holding an enemy ship within reach of {area} and stayed at sea (rule 4.5)"
    )


def shift_blocked(t: Telling) -> str:
    if not t.ours:
        return _stayed(t)
    port = port_of(t.location)
    move = f"come out of {port} harbor" if in_harbor(t.location) else f"enter {port} harbor"
    return f"{t.subject} could not {move}{_because(t, SHIFT_REASONS)}"


def stopped(t: Telling) -> str:
    if not t.ours:
        return f"{t.subject} went no further {t.at()}"
    return f"{t.subject} could not move again after the first move and stayed {t.at()} (rule 6.6)"


def shifted(t: Telling) -> str:
    port = port_of(t.location)
    if t.get("harbor"):
        return f"{t.subject} moved into {port} harbor (rule 6.1)"
    return f"{t.subject} came out of the harbor into the coastal waters off {port} (rule 6.1)"


def arrived(t: Telling) -> str:
    origin = t.get("came_from")
    where = f" {t.came_from(out_of_sight(str(origin)))}" if t.ours and origin else ""
    return f"{t.subject} arrived {t.at()}{where}"


def entered_port(t: Telling) -> str:
    port = port_of(t.location)
    if in_harbor(t.location):
        return f"{t.subject} entered {port} harbor"
    return f"{t.subject} came to anchor in the coastal waters off {port} (rule 6.8)"


def got_away(t: Telling) -> str:
    """Where ships leaving a battle went: within the same sea area only the
    player's own are followed to their tactical area (5.1)."""
    to = str(t.get("to") or "")
    if not to:
        return ""
    if not t.ours and t.get("seen_arriving"):
        return f" and came among our ships in {t.place(to)}"
    if not t.ours and out_of_sight(to) == out_of_sight(t.location):
        return " and sailed out of sight"
    return f" and got away to {t.place(to)}"


def evaded(t: Telling) -> str:
    """Rule 6.9 on arrival, or 7.4 at the start of a battle."""
    if t.phase == "combat":
        return f"{t.subject} evaded the battle {t.at()}{got_away(t)} (rule 7.4)"
    avoided = t.get("avoided")
    if isinstance(avoided, str):
        return f"{t.subject} would not enter {avoided}, where {_sighted(t, 'enemies')} lay (rule 6.9)"
    if not t.ships:  # seen from another tactical area: neither ids nor flags (5.1, 5.2)
        return f"{_sighted(t, '', 'ship')} came in sight {t.at()} and bore away, avoiding contact (rule 6.9)"
    if not t.ours:
        return f"{t.subject} avoided contact {t.at()} (rule 6.9)"
    n = t.number("enemies_avoided")
    return (
        f"{t.subject} sighted {counted(n, 'enemy ship')} on arrival and kept clear of {_them(n)},"
        f" going to {t.place()} instead (rule 6.9)"
    )


# Ships seen out of contact, by the judge's vague size (docs/rules/intel.md).
SIGHTED = {"few": "a few", "several": "several", "many": "many"}


def _sighted(t: Telling, count: str, noun: str = "enemy ship") -> str:
    """Ships an evasion showed out of contact; knowledge stored before the
    judge gave a vague size still tells its count."""
    word = SIGHTED.get(str(t.get("sighted")))
    if word is not None:
        return f"{word} {noun}s"
    n = t.number(count)
    return counted(n, noun) if n else f"{noun}s"


# Whose side of the wind each is, said outright: the position report says where the enemy lay
# from us ("to windward of us"), so "to leeward of her" alone read as the opposite.
GAUGE = {
    "windward": ", to windward of {them}, holding the weather gauge",
    "leeward": ", to leeward of {them}: {they} held the weather gauge",
}


def _them(n: int) -> str:
    """A ship is "she" (one ship met, joined or avoided: "her"; more: "them")."""
    return "her" if n == 1 else "them"


def _they(n: int) -> str:
    return "she" if n == 1 else "they"


def met_enemy(t: Telling) -> str:
    enemies = [str(s) for s in t.get("enemies", ())]
    met = t.ships_phrase(enemies) if enemies else "enemy ships"
    n = len(enemies)
    gauge = GAUGE.get(str(t.get("side")), "").format(them=_them(n), they=_they(n))
    return f"{t.subject} met {met} {t.at()}{gauge} (rule 6.9)"


def joined_allies(t: Telling) -> str:
    allies = [str(s) for s in t.get("allies", ())]
    joined = t.ships_phrase(allies) if allies else "allied ships"
    # in company now; whether they sail on together is up to their orders (4.5, 6.7)
    lie = "lies" if t.single else "lie"
    return f"{t.subject} joined {joined} {t.at()} and {lie} in company with {_them(len(allies))} (rule 6.9)"


def pursued(t: Telling) -> str:
    chased = [str(s) for s in t.get("pursued", ())]
    them = t.ships_phrase(chased) if chased else "the enemy"
    return f"{t.subject} pursued {them} to {t.place()} (rule 6.10)"


def pursuit_abandoned(t: Telling) -> str:
    reason = ABANDON_REASONS.get(str(t.get("reason")))
    return f"{t.subject} gave up the pursuit {t.at()}" + (f": {reason}" if t.ours and reason else "")


def passed_strait(t: Telling) -> str:
    to = f" into {t.place(str(t.get('to')))}" if t.get("to") else ""
    chasers = [str(s) for s in t.get("pursuers", ())]
    chase = f", pursued by {t.ships_phrase(chasers)}" if chasers else ""
    return f"{t.subject} passed through the strait off {port_of(t.location)}{to}{chase} (rule 6.3)"


def entered_atlantic(t: Telling) -> str:
    if t.ours and t.get("destination"):
        dest = t.place(str(t.get("destination")))
        return (
            f"{t.subject} sailed into the Atlantic Ocean, bound for {dest}; no reports come"
            f" from the crossing until {t.they} arrive{'s' if t.single else ''} (rule 6.11)"
        )
    return f"{t.subject} sailed out into the Atlantic Ocean (rule 6.11)"


def returned_to_base(t: Telling) -> str:
    base = f" at {t.get('base')}" if t.get("base") else ""
    return f"{t.subject} returned to {t.their} base{base} to replenish (rule 2.8)"


PHRASES: dict[str, Phrase] = {
    "sailed": sailed,
    "held_by_wind": held_by_wind,
    "held_by_damage": held_by_damage,
    "held_in_port": held_in_port,
    "course_impossible": course_impossible,
    "no_enemy_port": no_enemy_port,
    "shift_blocked": shift_blocked,
    "stopped": stopped,
    "shifted": shifted,
    "arrived": arrived,
    "entered_port": entered_port,
    "evaded": evaded,
    "met_enemy": met_enemy,
    "joined_allies": joined_allies,
    "pursued": pursued,
    "pursuit_abandoned": pursuit_abandoned,
    "passed_strait": passed_strait,
    "entered_atlantic": entered_atlantic,
    "returned_to_base": returned_to_base,
}
