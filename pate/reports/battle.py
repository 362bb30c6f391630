"""The rule book's words for the combat phase (rules 3.7, 7.1-7.8).

A battle is told as the player could judge it (3.11): each side's ships by
class, the player's own side's strength exactly and the enemy's only as
judged from the ships seen ("judged at about 450"), who held the weather
gauge, who broke the line, who won; then the damage each of the player's own
ships took.  Sinkings, prizes and escapes follow as events of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pate.core.rules.detection import ship_sort_key
from pate.reports.eia import eia_battle
from pate.reports.phrases import Phrase, got_away
from pate.reports.telling import Telling
from pate.reports.words import and_list, capital, counted, fleet_text, in_harbor, port_of, the_peoples

LINE_WORDS = {
    "melee": "in a general melee, every ship breaking the line (rule 7.6)",
    "lost_coordination": "tried to break the line but lost coordination (rule 7.6)",
    "broke_through": "broke through the enemy's line (rule 7.6)",
    "held": "tried to break the line, but the enemy's line held (rule 7.6)",
}


def _entries(t: Telling, side: int | None = None) -> list[Mapping[str, Any]]:
    out = []
    for entry in t.get("ships", ()):
        fought = isinstance(entry, Mapping) and entry.get("outcome") != "idle"
        if fought and (side is None or entry.get("side") == side):
            out.append(entry)
    return out


def _side_label(t: Telling, index: int, side: Mapping[str, Any]) -> str:
    if t.get("our_side") == index:
        return "Our side"
    return capital(the_peoples(t.k, [str(s) for s in side.get("states", ())]))


def _side_text(t: Telling, index: int, side: Mapping[str, Any]) -> str:
    ids = [str(e.get("id")) for e in _entries(t, index)]
    parts = [f"{fleet_text(ids)} ({and_list(sorted(ids, key=ship_sort_key)) or 'none'})"]
    strength = side.get("strength")
    if isinstance(strength, int):
        parts.append(f"strength judged at about {strength}" if side.get("judged") else f"strength {strength}")
    if t.get("shore_battery") == index:
        parts.append("supported by the shore batteries (rule 7.1)")
    if side.get("windward"):
        parts.append("with the weather gauge")
    close = sum(1 for e in _entries(t, index) if e.get("close_quarters"))
    if close:
        parts.append("at close quarters" if close == len(ids) else f"{close} of them at close quarters")
    line = LINE_WORDS.get(str(side.get("line")))
    if line:
        parts.append(line)
    return f"{_side_label(t, index, side)}: {', '.join(parts)}"


def _winner(t: Telling, winner: Any = None) -> str:
    winner = t.get("winner") if winner is None else winner
    if not winner:
        return "Neither side won the day"
    states = [winner] if isinstance(winner, str) else [str(s) for s in winner]
    friends = {*t.k.allies, *([t.k.state] if t.k.state else [])}
    if set(states) & friends:
        return "The day was ours"
    return f"{capital(the_peoples(t.k, states))} won the day"


FIGHT_WORDS = {"line": "Among the ships of the line", "frigates": "Among the frigates"}


def _fights(t: Telling) -> list[str]:
    """Rule 7.1: away from a harbor the frigates fight apart from the ships
    of the line; when both fights were fought, each has its own outcome."""
    fights = [f for f in t.get("fights", ()) if isinstance(f, Mapping)]
    if len(fights) < 2:
        return [_winner(t)]
    out = ["The frigates fought apart from the ships of the line (rule 7.1)"]
    for f in fights:
        who = and_list(sorted((str(s) for s in f.get("ships", ())), key=ship_sort_key))
        result = _winner(t, f.get("winner") or "")
        head = FIGHT_WORDS.get(str(f.get("tier")), "In one fight")
        out.append(f"{head} ({who}): {result[0].lower()}{result[1:]}")
    return out


def _ship_line(t: Telling, e: Mapping[str, Any]) -> str:
    sid = str(e.get("id"))
    how = ["close quarters" if e.get("close_quarters") else "at range"]
    if isinstance(e.get("strength"), int):
        how.insert(0, f"strength {e.get('strength')}")
    if e.get("outcome") == "evaded":
        return f"{t.ship_words(sid)}: evaded the battle"
    hurt = []
    for key in ("hull", "rigging"):
        pair = e.get(key)
        if isinstance(pair, list | tuple) and len(pair) == 2 and pair[1] != pair[0]:
            hurt.append(f"{pair[1] - pair[0]} {key} damage (now {pair[1]} of 5)")
    hurt += _people_lost(e)
    gained = e.get("experience_gained")
    exp = f"; {gained} experience gained" if isinstance(gained, int) and gained else ""
    return f"{t.ship_words(sid)} ({', '.join(how)}): {and_list(hurt) if hurt else 'unhurt'}{exp}"


def _people_lost(e: Mapping[str, Any]) -> list[str]:
    """Rule 3.11 "damage taken": crew and Marines lost (7.7).  Battles
    stored before Marines were recorded carry no ``marines_lost``."""
    out = []
    crew, marines = e.get("crew_lost"), e.get("marines_lost")
    if isinstance(crew, int) and crew:
        out.append(f"{crew} crew lost")
    if isinstance(marines, int) and marines:
        out.append(f"{counted(marines, 'Marine')} lost")
    return out


def own_ship_lines(t: Telling) -> list[str]:
    """The strength and damage of each of the player's ships in the battle."""
    mine = [e for e in _entries(t) if str(e.get("id")) in t.own and "hull" in e]
    return [_ship_line(t, e) for e in sorted(mine, key=lambda e: ship_sort_key(str(e.get("id"))))]


def _sides_seen(t: Telling) -> list[str]:
    """A battle known only by the ships in it: each side's ships by class."""
    friends = {*t.k.allies, *([t.k.state] if t.k.state else [])}
    ours = [s for s in t.ships if s[:2] in friends]
    theirs = [s for s in t.ships if s[:2] not in friends]
    said = [f"Our side: {fleet_text(ours)} ({and_list(sorted(ours, key=ship_sort_key))})"] if ours else []
    if theirs:
        said.append(f"The enemy: {fleet_text(theirs)} ({and_list(sorted(theirs, key=ship_sort_key))})")
    return said


def battle(t: Telling) -> str:
    if t.get("rules") == "eia-advanced":  # the campaign's rule set decided it
        return eia_battle(t)
    sides = [s for s in t.get("sides", ()) if isinstance(s, Mapping)]
    head = f"Battle {t.at()} (rule 7)"
    said = [_side_text(t, i, s) for i, s in enumerate(sides)] if sides else _sides_seen(t)
    return ". ".join([head, *said, *_fights(t)])


def sunk(t: Telling) -> str:
    return f"{t.subject} {t.was} sunk {t.at()} (rule 2.2)"


def captured(t: Telling) -> str:
    """Rule 7.8: the prize takes a new id of the captor's state."""
    prize = str(t.get("prize") or (t.ships[1] if len(t.ships) > 1 else ""))
    captor = str(t.get("captor") or (t.ships[2] if len(t.ships) > 2 else ""))
    old = next((s for s in t.ships if s not in (prize, captor)), None)
    taken = t.ships_phrase([old]) if old else "A ship"
    state = t.text("state", captor[:2])
    if captor in t.own:
        by = f"by our {t.ship_words(captor)}"
    else:
        by = f"by {the_peoples(t.k, [state] if state else [])}" + (f" ({captor})" if captor else "")
    now = ""
    if prize:
        now = f" and is now {t.ship_words(prize) if old not in t.own else prize}"
    return f"{taken} was taken as a prize {by} {t.at()}{now} (rule 7.8)"


def escaped(t: Telling) -> str:
    return f"{t.subject} escaped from the battle {t.at()}{got_away(t)} (rule 7.8)"


def joined_battle(t: Telling) -> str:
    port = port_of(str(t.get("to") or t.location))
    if in_harbor(str(t.get("to") or t.location)):
        return f"{t.subject} sailed into {port} harbor to join the battle (rule 7.1)"
    return f"{t.subject} came out of {port} harbor to join the battle in the coastal waters (rule 7.1)"


PHRASES: dict[str, Phrase] = {
    "battle": battle,
    "sunk": sunk,
    "captured": captured,
    "escaped": escaped,
    "joined_battle": joined_battle,
}
