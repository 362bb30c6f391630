"""Why each of the player's ships in a battle came out as she did (rules
4.7, 7.1, 7.4, 7.8): her combat order, the gauge she fought from, whether
she got away, and the day's outcome for her fight.

Read from the battle as the player judged it: her own entry (her stance is
kept for her own player only), each side's gauge and each ship's outcome as
seen.  No side's strength, judged or not: docs/rules/intel.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pate.core.rules.detection import ship_sort_key
from pate.core.world.ships import ShipType, parse_ship_id
from pate.reports.telling import Telling
from pate.reports.words import and_list

STANCE = {
    "engage": "her combat order was Engage: she sought battle (rules 4.7, 7.1)",
    "run_past": "her combat order was Run Past: she sought battle on her way (rules 4.7, 7.1)",
    "accept": "her combat order was Accept: she fought when battle was brought to her (rules 4.7, 7.1)",
}
FATE = {
    "escaped": "her side lost the day and she got away (rule 7.8)",
    "captured": "her side lost the day; she did not get away and was taken as a prize (rule 7.8)",
    "sunk": "her hull was shot through and she sank (rules 2.2, 7.7)",
}


def _entry_sides(t: Telling) -> list[Mapping[str, Any]]:
    return [s for s in t.get("sides", ()) if isinstance(s, Mapping)]


def _windward(t: Telling, side: Any) -> bool | None:
    sides = _entry_sides(t)
    if t.get("where") == "harbor" or not isinstance(side, int) or not 0 <= side < len(sides):
        return None
    if not any(s.get("windward") for s in sides):
        return None
    return bool(sides[side].get("windward"))


def _winner_for(t: Telling, sid: str) -> Any:
    """The winner of her fight: away from a harbor frigates fight apart (7.1)."""
    for fight in t.get("fights", ()):
        if isinstance(fight, Mapping) and sid in fight.get("ships", ()):
            return fight.get("winner")
    return t.get("winner")


def _day(t: Telling, sid: str) -> str:
    winner = _winner_for(t, sid)
    if not winner:
        return "neither side won the day"
    states = [winner] if isinstance(winner, str) else [str(s) for s in winner]
    friends = {*t.k.allies, *([t.k.state] if t.k.state else [])}
    return "the day was ours" if set(states) & friends else "her side lost the day (rule 7.8)"


def _evaded(t: Telling, e: Mapping[str, Any], stance: str) -> str:
    if stance != "evade":
        parsed = parse_ship_id(str(e.get("id")))
        if parsed is not None and parsed[2] is ShipType.FR:
            return "she took shelter among her side's ships of the line and kept out of the fight (rule 7.1)"
        return "she kept out of the fight (rule 7.4)"
    gauge = _windward(t, e.get("side"))
    where = (
        "" if gauge is None else " from windward, where evasion seldom succeeds" if gauge else " from leeward"
    )
    return f"her combat order was Evade, and she got away{where} (rule 7.4)"


def _caught(t: Telling, e: Mapping[str, Any]) -> str:
    if t.get("where") == "harbor":
        return "her combat order was Evade, but no ship evades a battle in a harbor (rule 7.4)"
    gauge = _windward(t, e.get("side"))
    where = " from windward, where evasion seldom succeeds," if gauge else ""
    return (
        f"her combat order was Evade, but she could not get away{where} and was forced into battle (rule 7.4)"
    )


def ship_why(t: Telling, e: Mapping[str, Any]) -> str:
    sid = str(e.get("id"))
    outcome = str(e.get("outcome"))
    stance = str(e.get("stance", ""))
    if outcome == "evaded":
        return _evaded(t, e, stance)
    said = [_caught(t, e) if stance == "evade" else STANCE.get(stance, "")]
    said.append(FATE.get(outcome) or _day(t, sid))
    return "; ".join(s for s in said if s)


SEEKS = frozenset({"engage", "run_past"})  # the stances that bring battle (mechanics "Joining battle")


def _fought(t: Telling) -> list[Mapping[str, Any]]:
    return [e for e in t.get("ships", ()) if isinstance(e, Mapping) and e.get("outcome") != "idle"]


def why_the_battle(t: Telling) -> str:
    """Who sought the battle, as far as the player can tell (rule 7.1 and the
    mechanics: a battle is fought only when a ship on either side seeks it):
    his own ships' stances, and the enemy's only as their outcomes showed it."""
    ours = t.get("our_side")
    if not isinstance(ours, int):
        return ""
    side = [e for e in _fought(t) if e.get("side") == ours]
    seekers = sorted((str(e.get("id")) for e in side if e.get("stance") in SEEKS), key=ship_sort_key)
    said = []
    if seekers:
        who = and_list(seekers) if len(seekers) <= 3 else f"{len(seekers)} of our ships"
        said.append(f"{who} sought it (combat order Engage or Run Past, rules 4.7, 7.1)")
    elif side and all(str(e.get("id")) in t.own and "stance" in e for e in side):
        said.append("none of our ships sought it, so the enemy did (rule 7.1: fought when a ship seeks it)")
    gone = sorted(
        (str(e.get("id")) for e in _fought(t) if e.get("side") != ours and e.get("outcome") == "evaded"),
        key=ship_sort_key,
    )
    if gone:
        said.append(f"{t.ships_phrase(gone)} evaded it (rule 7.4)")
    return f"Why the battle: {'; '.join(said)}" if said else ""


def battle_whys(
    t: Telling, notes: Mapping[str, Mapping[str, Any]], whose: Callable[[Mapping[str, Any], bool], str]
) -> list[str]:
    """Who sought the battle, then one line for each of the player's ships
    that took part.  A battle under the EiA rules has its own words (eia.py)."""
    if t.get("rules") == "eia-advanced":
        return []
    head = why_the_battle(t)
    mine = [
        e
        for e in t.get("ships", ())
        if isinstance(e, Mapping) and str(e.get("id")) in t.own and e.get("outcome") != "idle"
    ]
    out = []
    for e in sorted(mine, key=lambda e: ship_sort_key(str(e.get("id")))):
        sid = str(e.get("id"))
        said = [ship_why(t, e)]
        if sid in notes:
            said.append(whose(notes[sid], True))
        out.append(f"Why {t.ship_words(sid)}: {'; '.join(said)}")
    return [head, *out] if head else out
