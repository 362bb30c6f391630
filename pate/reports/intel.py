"""The words of the intelligence phase (rules 3.10, 5.2-5.4).

The knowledge turns the intelligence events into sightings, reports and
port watches; each is told here through the phrase of the event kind it came
from, so that every kind the resolver emits has its words in one table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pate.core.intel.model import PlayerKnowledge
from pate.core.rules.detection import Category, ship_sort_key
from pate.core.rules.gathering import GARRISON, INTELLIGENCE, LAND_UNITS, SCOUTING, SHORE
from pate.core.world.geography import WorldMap
from pate.reports.phrases import Phrase
from pate.reports.sightings import age_text, earlier, merged_sightings, sighted_words, source_text
from pate.reports.telling import Telling, known_names
from pate.reports.words import CATEGORY_PLURAL, CATEGORY_SINGULAR, and_list


def _about(t: Telling) -> str:
    """An approximate number: "about 6", but "a" for one; "3 to 4" when
    frigates together estimated the same group differently."""
    n, high = t.number("estimate"), t.number("estimate_high")
    if high > n:
        return f"{n} to {high}"
    return "a" if n == 1 else f"about {n}" if n > 1 else "some"


def _noun(t: Telling) -> str:
    n = max(t.number("estimate"), t.number("estimate_high"))
    cat = Category(str(t.get("category", "line")))
    return CATEGORY_SINGULAR[cat] if n == 1 else CATEGORY_PLURAL[cat]


def scouting_report(t: Telling) -> str:
    """Rule 5.2: approximate numbers and no identities."""
    port, place = t.get("port"), t.get("place")
    if port and place == "coastal":
        where = f"off {port}"
    elif port:
        where = f"in {port} harbor"
    else:
        tactical = f" (tactical area {t.get('tactical')})" if t.get("tactical") else ""
        where = f"{t.at(t.text('sea_area', t.location))}{tactical}"
    flag = t.flag()
    frigates = t.get("by_all") or [t.text("by", t.ships[0] if t.ships else "our frigates")]
    by = and_list(t.ship_words(str(f)) for f in frigates)
    return f"{by} sighted {_about(t)} {flag} {_noun(t)} {where} (rule 5.2)"


def intelligence_report(t: Telling) -> str:
    """Rule 5.4: possibly wrong in flag, class and number."""
    n = t.number("estimate")
    return (
        f"Reports say {_about(t)} {t.flag()} {_noun(t)} {'was' if n == 1 else 'were'}"
        f" {t.at(t.text('place', t.location))} at the start of the turn (rule 5.4)"
    )


def _ships(t: Telling) -> str:
    return and_list(sorted((str(s) for s in t.get("ships", ())), key=ship_sort_key)) or "ships"


def garrison_report(t: Telling) -> str:
    when = f"turn {t.get('as_of_turn')}" if t.get("as_of_turn") else "the turn"
    return (
        f"The garrison of {t.text('port', t.location)} reported {_ships(t)} in the port"
        f" at the start of {when} (rule 5.3)"
    )


def shore_report(t: Telling) -> str:
    return f"Our land units near {t.text('port', t.location)} reported {_ships(t)} in the port (rule 5.3)"


def land_units_sighted(t: Telling) -> str:
    units = and_list(str(u) for u in t.get("units", ())) or "land units"
    by = t.ships_phrase(str(s) for s in t.get("by", t.ships))
    return f"From {t.text('port', t.location)}, {by} saw {units} (rule 5.3)"


# The picture's sightings of earlier turns (docs/rules/intel.md): told among the intelligence,
# but no event of the engine, so not in PHRASES (the table of the kinds it emits).
EARLIER = "earlier_sighting"

PHRASES: dict[str, Phrase] = {
    SCOUTING: scouting_report,
    INTELLIGENCE: intelligence_report,
    GARRISON: garrison_report,
    SHORE: shore_report,
    LAND_UNITS: land_units_sighted,
}


def intelligence_items(k: PlayerKnowledge, world_map: WorldMap | None) -> Iterator[tuple[str, str]]:
    """(kind, sentence) for every piece of intelligence the player holds."""
    names = known_names(k)
    own = frozenset(names) | frozenset(k.lost)

    def tell(kind: str, location: str, data: dict[str, Any]) -> tuple[str, str]:
        t = Telling(k, world_map, kind, "intelligence", location, (), data, names, own)
        phrase: Callable[[Telling], str] = PHRASES[kind]
        text = phrase(t)
        return kind, f"{text[0].upper()}{text[1:]}."

    for g in merged_sightings(k.sightings):
        data = {**_plain(g), "place": g.place.value, "category": g.category.value}
        data |= {"estimate": g.low, "estimate_high": g.high, "by": g.by[0], "by_all": list(g.by)}
        yield tell(SCOUTING, g.sea_area, data)
    for i in k.intelligence:
        yield tell(INTELLIGENCE, i.place, {**_plain(i), "category": i.category.value})
    for w in k.port_watch:
        yield tell(GARRISON if w.source == "garrison" else SHORE, w.port, _plain(w))
    by_port: dict[str, tuple[set[str], list[str]]] = {}
    for r in k.ships:
        loc = r.location
        port = getattr(loc, "port", None)
        if r.land_units and isinstance(port, str):
            units, by = by_port.setdefault(port, (set(), []))
            units.update(r.land_units)
            by.append(r.id)
    for port, (units, by) in sorted(by_port.items()):
        yield tell(LAND_UNITS, port, {"port": port, "units": sorted(units), "by": by})
    for sd in earlier(k):  # the picture's sightings not seen since, oldest last
        text = f"{age_text(sd, k)}: {sighted_words(k, sd)} ({source_text(sd)})"
        yield EARLIER, f"{text[0].upper()}{text[1:]}."


def _plain(value: Any) -> dict[str, Any]:
    return {name: getattr(value, name) for name in value.__slots__}
