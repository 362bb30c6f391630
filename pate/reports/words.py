"""The words of the reports: places, flags, ship classes and contact phrases,
in the style of the rule book's samples (rules 1.6, 2.3, 2.4)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pate.core.intel.model import PlayerKnowledge, ShipReport
from pate.core.rules.detection import Bearing, Category, Place, Seen, Side, ship_sort_key
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InAtlantic, InPort, Location, ShipType, parse_ship_id

# Adjectives of the NWOL states' flags; a state not listed is named as itself.
ADJECTIVES = {
    "AU": "Austrian",
    "BF": "Bourbon French",
    "BR": "British",
    "DE": "Danish",
    "DK": "Danish",
    "FR": "French",
    "GE": "German",
    "HO": "Dutch",
    "IT": "Italian",
    "NE": "Neapolitan",
    "PO": "Portuguese",
    "PL": "Polish",
    "PR": "Prussian",
    "RU": "Russian",
    "SP": "Spanish",
    "SW": "Swedish",
    "TU": "Ottoman",
    "US": "American",
}

# What the people of each state are called together, after "the": "the
# British", "the French", "the Russians" ("the Russian" is one man).  Names
# ending -ish, -ch, -ese or -ss are already collective; most others take an "s".
PEOPLES = {
    "AU": "Austrians",
    "BF": "Bourbon French",
    "BR": "British",
    "DE": "Danes",
    "DK": "Danes",
    "FR": "French",
    "GE": "Germans",
    "HO": "Dutch",
    "IT": "Italians",
    "MO": "Moroccans",
    "NE": "Neapolitans",
    "PO": "Portuguese",
    "PL": "Poles",
    "PR": "Prussians",
    "RU": "Russians",
    "SP": "Spanish",
    "SW": "Swedes",
    "TU": "Ottomans",
    "US": "Americans",
}
_COLLECTIVE_ENDINGS = ("ish", "ch", "ese", "ss")

CATEGORY_PLURAL = {
    Category.LINE: "ships of the line",
    Category.FRIGATES: "frigates",
    Category.TRANSPORTS: "transport groups",
}
CATEGORY_SINGULAR = {
    Category.LINE: "ship of the line",
    Category.FRIGATES: "frigate",
    Category.TRANSPORTS: "transport group",
}
TYPE_WORDS = {
    ShipType.FL: ("flagship", "flagships"),
    ShipType.SL: ("ship of the line", "ships of the line"),
    ShipType.FR: ("frigate", "frigates"),
    ShipType.TR: ("transport group", "transport groups"),
}
PLACE_PHRASE = {
    Place.SEA: "at sea",
    Place.HARBOR: "in harbor",
    Place.COASTAL: "in coastal waters",
    Place.ATLANTIC: "",
}
SIDE_HEADING = {Side.ALLIED: "Allied ships", Side.ENEMY: "Enemy ships", Side.NEUTRAL: "Other ships"}


def adjective(k: PlayerKnowledge, state: str) -> str:
    if state in ADJECTIVES:
        return ADJECTIVES[state]
    for s in k.states:
        if s.code == state:
            return s.name
    return state


def people(k: PlayerKnowledge, state: str) -> str:
    """The state's people together ("Russians"), for "the Russians won the day"."""
    if state in PEOPLES:
        return PEOPLES[state]
    name = adjective(k, state)
    return name if name.endswith(_COLLECTIVE_ENDINGS) else f"{name}s"


def the_peoples(k: PlayerKnowledge, states: Iterable[str]) -> str:
    """ "the British", "the French and the Russians"; "the enemy" for none."""
    return and_list(f"the {people(k, s)}" for s in states) or "the enemy"


PEACE_TURN = (
    "a peace or truce turn: nobody fights, and each ship sails where she was ordered "
    "or to her base (rule 6.12)"
)
NEXT_PEACE = (
    "is a peace or truce turn (rule 6.12): order each ship to any sea area or port, however far; "
    "at its end she is there or in her base port's harbor"
)


def capital(text: str) -> str:
    """The first letter capitalised, the rest kept ("The Bourbon French";
    str.capitalize would write "The bourbon french")."""
    return text[:1].upper() + text[1:]


def counted(n: int, one: str, many: str | None = None) -> str:
    """A count and its noun, singular for one (docs/rules/intel.md: counts of
    one are singular): "1 store", "3 stores", "1 ship of the line"."""
    return f"{n} {one if n == 1 else (many or f'{one}s')}"


def stores_text(n: int) -> str:
    """Naval stores: "each additional store uses 20 spaces" (rule 3.4)."""
    return counted(n, "store")


def supplies_text(n: int) -> str:
    """GITM supplies ("20 per supply it carries", recovered details)."""
    return counted(n, "supply", "supplies")


def state_name(k: PlayerKnowledge, state: str | None) -> str:
    for s in k.states:
        if s.code == state:
            return s.name
    return state or "no state"


def area_name(world_map: WorldMap, code: str) -> str:
    area = world_map.sea_areas.get(code)
    return area.name if area else code


# Sea areas named after an island or a province take no article in English
# ("off Bermuda", not "in the Bermuda"): found in a play-test's battle report.
def the_area(world_map: WorldMap, code: str) -> str:
    area = world_map.sea_areas.get(code)
    return area.called if area is not None else area_name(world_map, code)


def place_title(world_map: WorldMap, place: str) -> str:
    """A sea area code or a port name, as a reader wants it."""
    if place in world_map.sea_areas:
        return the_area(world_map, place)
    return place


def location_text(world_map: WorldMap, loc: Location) -> str:
    """Rule 2.3 sample: "Off Martinique"; 2.4: "Atlantic Ocean (sailing to ...)"."""
    if isinstance(loc, AtSea):
        return f"{area_name(world_map, loc.area)} ({loc.area})"
    if isinstance(loc, InPort):
        return f"{loc.port} harbor" if loc.harbor else f"Off {loc.port}"
    assert isinstance(loc, InAtlantic)
    return f"Atlantic Ocean (sailing to {area_name(world_map, loc.destination)})"


def map_area(world_map: WorldMap, loc: Location) -> str | None:
    """The sea area whose map shows this location (ports: their connected one)."""
    if isinstance(loc, AtSea):
        return loc.area
    if isinstance(loc, InPort) and loc.port in world_map.ports:
        return world_map.ports[loc.port].sea_area
    return None


def ids_text(ids: Iterable[str]) -> str:
    return ", ".join(sorted(ids, key=ship_sort_key))


def count_text(n: int, category: Category, *, about: bool = False) -> str:
    noun = CATEGORY_SINGULAR[category] if n == 1 else CATEGORY_PLURAL[category]
    return f"{'about ' if about else ''}{n} {noun}"


def fleet_text(ids: Iterable[str]) -> str:
    """How a squadron looks to an observer: counts by type (3.11 "strength")."""
    counts: dict[ShipType, int] = {}
    for sid in ids:
        parsed = parse_ship_id(sid)
        if parsed:
            counts[parsed[2]] = counts.get(parsed[2], 0) + 1
    parts = [
        f"{n} {TYPE_WORDS[t][n != 1]}"
        for t, n in sorted(counts.items(), key=lambda kv: list(ShipType).index(kv[0]))
    ]
    return and_list(parts) if parts else "no ships"


def seen_phrase(seen: Seen) -> str:
    phrase = PLACE_PHRASE[seen.place]
    # whose side: the reporting ship's ("of us"), as the events say whom the gauge was with
    if seen.bearing is Bearing.WINDWARD:
        phrase += " to windward of us"
    elif seen.bearing is Bearing.LEEWARD:
        phrase += " to leeward of us"
    return phrase.strip()


def visible_text(report: ShipReport) -> str:
    """Rule 2.3 sample: "Allied ships: FR1FL, FR6SL at sea Enemy ships: ..."."""
    parts: list[str] = []
    for side in (Side.ALLIED, Side.ENEMY, Side.NEUTRAL):
        seen = [s for s in report.visible if s.side is side]
        if not seen:
            continue
        by_phrase: dict[str, list[str]] = {}
        for s in seen:
            by_phrase.setdefault(seen_phrase(s), []).append(s.id)
        groups = [f"{ids_text(ids)} {phrase}".strip() for phrase, ids in by_phrase.items()]
        parts.append(f"{SIDE_HEADING[side]}: {'; '.join(groups)}")
    return " ".join(parts)


def report_title(report: ShipReport) -> str:
    if report.type is ShipType.TR:
        return f"Transport Group Report - {report.id}"
    return f"Ship Report - {report.name} ({report.id})"


def wind_text(k: PlayerKnowledge, area: str) -> str | None:
    """Rule 1.6 sample: "Winds are moderate from the west"."""
    for w in k.winds:
        if w.sea_area == area:
            return f"Winds are {w.strength.value} from the {w.direction.value}"
    return None


# -- places as the resolver's events name them (pate.core.world.ships.describe) --
_TACTICAL = re.compile(r"(?P<area>[A-Z]{3}) \(tactical area (?P<t>\d+)\)")
_PORT_PART = re.compile(r"(?P<port>.+) \((?P<part>harbor|coastal waters)\)")


def _parse_place(world_map: WorldMap | None, text: str) -> tuple[str, str, str]:
    """(kind, name, detail): kind is sea, harbor, coastal, atlantic, port or other."""
    if m := _TACTICAL.fullmatch(text):
        return "sea", _area_title(world_map, m["area"]), f" (tactical area {m['t']})"
    if m := _PORT_PART.fullmatch(text):
        return ("harbor" if m["part"] == "harbor" else "coastal"), m["port"], ""
    if text.startswith("Atlantic Ocean"):
        return "atlantic", "the Atlantic Ocean", ""
    if world_map is not None and text in world_map.sea_areas:
        return "sea", _area_title(world_map, text), ""
    if world_map is not None and text in world_map.ports:
        return "port", text, ""
    if world_map is None and re.fullmatch(r"[A-Z]{3}", text):
        return "sea", text, ""
    return "other", text, ""


def _area_title(world_map: WorldMap | None, code: str) -> str:
    return the_area(world_map, code) if world_map is not None else code


def place_words(world_map: WorldMap | None, text: str) -> str:
    """ "ECH (tactical area 1)" -> "the English Channel (tactical area 1)";
    "Brest (harbor)" -> "Brest harbor"; "Brest (coastal waters)" -> "the
    coastal waters off Brest"."""
    kind, name, detail = _parse_place(world_map, text)
    if kind == "harbor":
        return f"{name} harbor"
    if kind == "coastal":
        return f"the coastal waters off {name}"
    return f"{name}{detail}"


def at_place(world_map: WorldMap | None, text: str) -> str:
    """Where something happened: "in the English Channel", "off Brest"."""
    kind, name, detail = _parse_place(world_map, text)
    if kind == "harbor":
        return f"in {name} harbor"
    if kind == "coastal":
        return f"off {name}"
    if kind == "port":
        return f"at {name}"
    return f"in {name}{detail}"


def from_place(world_map: WorldMap | None, text: str) -> str:
    kind, name, _ = _parse_place(world_map, text)
    if kind == "atlantic":
        return "from across the Atlantic"
    if kind == "coastal":
        return f"from the coastal waters off {name}"
    return f"from {place_words(world_map, text)}"


def port_of(text: str) -> str:
    """The port of "Brest (harbor)" or "Brest (coastal waters)"."""
    m = _PORT_PART.fullmatch(text)
    return m["port"] if m else text


def in_harbor(text: str) -> bool:
    m = _PORT_PART.fullmatch(text)
    return bool(m and m["part"] == "harbor")


def and_list(items: Iterable[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
