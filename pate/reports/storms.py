"""The rule book's words for winds and storms: shifts of the wind, storm
damage, foundering, scattering, ships blown out to sea, driven into port or
ashore, wrecked, stranded and refloated (rules 3.8, 6.5, the lost section 8).
"""

from __future__ import annotations

from pate.core.world.ships import parse_ship_id
from pate.reports.phrases import Phrase
from pate.reports.telling import Telling
from pate.reports.words import port_of


# -- winds and storms (rules 3.8, 6.5, lost section 8) ----------------------
def wind_shifted(t: Telling) -> str:
    area = t.at(str(t.get("area") or t.location))
    before, after = t.get("before"), t.get("after")
    if before and after:
        return f"The wind {area} shifted: it was {before}, it is now {after}"
    return f"The wind {area} shifted" + (f": it is now {after}" if after else "")


def storm(t: Telling) -> str:
    area = t.place(str(t.get("area") or t.location))
    wind = f" (winds {t.get('wind')})" if t.get("wind") else ""
    caught = f"; {t.subject} {t.was} caught in it" if t.ships else ""
    return f"A storm struck {area}{wind}{caught}"


def _damage(t: Telling) -> str:
    """ "1 hull damage (now 2 of 5) and 1 rigging damage (now 1 of 5)"."""
    parts = []
    for part in ("hull", "rigging"):
        n = t.number(part)
        if n:
            total = t.get(f"total_{part}")
            parts.append(f"{n} {part} damage" + (f" (now {total} of 5)" if isinstance(total, int) else ""))
    return f": {' and '.join(parts)}" if parts else ""


def storm_damage(t: Telling) -> str:
    detail = _damage(t) if t.ours else ""
    return f"{t.subject} {t.was} damaged by the storm {t.at()}{detail}"


def foundered(t: Telling) -> str:
    if t.get("ashore"):
        return f"{t.subject} broke up on the shore {t.at()} and {t.was} lost"
    return f"{t.subject} foundered in the storm {t.at()} and {t.was} lost (rule 2.2)"


def scattered(t: Telling) -> str:
    if t.ours and t.get("to_tactical"):
        to = f"{t.subject} {t.was} scattered by the storm to tactical area {t.get('to_tactical')}"
        found = _found_there(t)
        return to + found + _leeward(t, named=not found)
    came = _arrived_at(t)
    if came:  # seen going and coming (3.11): where she came, not "lost to sight"
        lee = _leeward(t, named=True)
        return f"{t.subject} {t.was} scattered by the storm {t.at()} and driven into {came}{lee}"
    return f"{t.subject} {t.was} scattered by the storm {t.at()} and lost to sight"


def _arrived_at(t: Telling) -> str:
    arrival = t.get("arrival")
    at = arrival.get("at") if isinstance(arrival, dict) else None
    return t.place(str(at)) if at else ""


def _leeward(t: Telling, *, named: bool) -> str:
    """Where the storm set her down among enemies, to leeward of them (6.9), as her arrival
    there was seen (``arrival``: the report tells the move and the arrival as one line)."""
    arrival = t.get("arrival")
    if not isinstance(arrival, dict) or arrival.get("side") != "leeward":
        return ""
    enemies = [str(s) for s in arrival.get("enemies", ())]
    if not enemies:
        return ""
    whom = t.ships_phrase(enemies) if named else ("her" if len(enemies) == 1 else "them")
    return f", to leeward of {whom}: {_held(enemies)}"


def _held(enemies: list[str]) -> str:
    """Whose the weather gauge was, said with "to leeward of" so the side is never in doubt."""
    return f"{'she' if len(enemies) == 1 else 'they'} held the weather gauge"


def _state_of(sid: str) -> str | None:
    parsed = parse_ship_id(sid)
    return parsed[0] if parsed else None


def _found_there(t: Telling) -> str:
    """Whom a scattered ship came upon (5.1: the same tactical area is
    contact); events stored before ``met`` was recorded say nothing of it."""
    met = t.get("met")
    if not isinstance(met, list | tuple):
        return ""
    if not met:  # as she came there: a ship the storm set down later is told on its own line
        return ", where no other ship lay"
    ids = [str(s) for s in met]
    friends = set(t.k.allies)  # the player's own state and its active allies
    others = [s for s in ids if s not in t.own]
    groups = [
        [s for s in ids if s in t.own],
        [s for s in others if _state_of(s) in friends],
        [s for s in others if _state_of(s) not in friends],
    ]
    found = " and with ".join(t.ships_phrase(g) for g in groups if g)
    return f", where {t.they} fell in with {found}"


def blown_out_to_sea(t: Telling) -> str:
    to = t.place(str(t.get("to"))) if t.get("to") else "the open sea"
    tactical = f" (tactical area {t.get('to_tactical')})" if t.ours and t.get("to_tactical") else ""
    came = "" if tactical else _arrived_at(t)
    into = came or f"{to}{tactical}"
    return (
        f"{t.subject} {t.was} blown out to sea {t.came_from(t.location)} into {into}{_leeward(t, named=True)}"
    )


def storm_arrived(t: Telling) -> str:
    """Seen where the storm set her down (5.1: the ships there are in contact)."""
    enemies = [str(s) for s in t.get("enemies", ())]
    among = ""
    if enemies:
        among = f", among {t.ships_phrase(enemies)}"
        if t.get("side") == "leeward":
            among = f", to leeward of {t.ships_phrase(enemies)}: {_held(enemies)}"
    return f"{t.subject} {t.was} driven by the storm into {t.place()}{among} (section 8)"


def driven_into_port(t: Telling) -> str:
    port = t.get("port") or port_of(t.location)
    return f"{t.subject} {t.was} driven by the storm into {port} harbor"


def driven_ashore(t: Telling) -> str:
    detail = _damage(t) if t.ours else ""
    return f"{t.subject} {t.was} driven ashore {t.at()} by the storm{detail}"


def wrecked(t: Telling) -> str:
    crew = f"; {t.number('crew_lost')} of her people drowned" if t.ours and t.number("crew_lost") else ""
    return f"{t.subject} {t.was} wrecked on the shore {t.at()} and lost{crew} (section 8)"


def stranded(t: Telling) -> str:
    detail = _damage(t) if t.ours else ""
    crew = t.number("crew_lost") if t.ours else 0
    if crew:
        detail = f"{detail}; {crew} crew lost" if detail else f": {crew} crew lost"
    return f"{t.subject} {t.was} stranded {t.at()} and can move no further this turn{detail} (section 8)"


def refloated(t: Telling) -> str:
    detail = _damage(t) if t.ours else ""
    return f"{t.subject} {t.was} towed off the shore {t.at()}{detail} (section 8)"


PHRASES: dict[str, Phrase] = {
    "wind_shifted": wind_shifted,
    "storm": storm,
    "storm_damage": storm_damage,
    "foundered": foundered,
    "scattered": scattered,
    "blown_out_to_sea": blown_out_to_sea,
    "storm_arrived": storm_arrived,
    "driven_into_port": driven_into_port,
    "driven_ashore": driven_ashore,
    "wrecked": wrecked,
    "stranded": stranded,
    "refloated": refloated,
}
