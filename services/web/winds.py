"""What a commander knows of the wind when he orders (docs/rules/movement.md,
"What a commander knows of the wind"): the wind his own report of the last
turn gave for the sea areas his ships were in, which blows for the coming
turn's first move (rules 1.4, 6.5), the chance that step four shifts it
before the second move (3.8, data/rules/winds.toml), and every sea area's
table of chances, which the map data publishes to all (1.4).  Nothing of a
sea area where he had no ship: his report holds no wind there."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from pate.core.intel.model import AreaWind
from pate.core.rules.winds import WindRules
from pate.datafiles import load_rule_data, load_world_map
from pate.v1 import desk_pb2


@dataclass(frozen=True, slots=True)
class WindNow:
    sea_area: str
    words: str  # "moderate from the west"


@dataclass(frozen=True, slots=True)
class ShipWeather:
    """The winds the order panel shows for a ship (or a squadron's lead)."""

    here: str  # the sea area whose wind the first move sails in (a port's: its sea area, 1.4)
    now: str  # that wind as his report gave it, or "" when the report holds none
    report_turn: int  # the turn of that report
    here_chances: str  # the sea area's table (1.4)
    shift: str  # step four's chance of a change before the second move (3.8)
    onward: tuple[tuple[str, str], ...]  # (first sea area offered, its table): the second move's wind


@cache
def _rules() -> WindRules:
    return WindRules.of(load_rule_data())


def wind_words(wind: AreaWind) -> str:
    return f"{wind.strength.value} from the {wind.direction.value}"


def reported(winds: Iterable[AreaWind]) -> dict[str, str]:
    return {w.sea_area: wind_words(w) for w in winds}


def chances(area: str) -> str:
    """A sea area's table, the commonest first ("from the west 40%, ...;
    moderate 50%, ...")."""
    sea = load_world_map().sea_areas.get(area)
    if sea is None:
        return ""
    blows = sorted(((d.value, p) for d, p in sea.winds.direction if p), key=lambda dp: (-dp[1], dp[0]))
    strong = sorted(((w.value, p) for w, p in sea.winds.strength if p), key=lambda sp: (-sp[1], sp[0]))
    if not blows or not strong:  # an empty table uses the default one (winds.toml)
        rules = _rules()
        blows = [(d.value, p) for d, p in rules.default_direction]
        strong = [(w.value, p) for w, p in rules.default_strength]
    return (
        ", ".join(f"from the {d} {p}%" for d, p in blows) + "; " + ", ".join(f"{w} {p}%" for w, p in strong)
    )


def shift_words() -> str:
    r = _rules()
    return (
        f"Before the second move the wind may shift (rule 3.8): {r.direction_shift_percent}% a new "
        f"direction, {r.strength_shift_percent}% a new strength, each drawn from the sea area's table"
    )


def ship_weather(ship: desk_pb2.MyShip, known: Mapping[str, str], report_turn: int) -> ShipWeather | None:
    """None for a ship that takes no movement orders (crossing the Atlantic, 6.11)."""
    here = ship.sea_area
    if not here:
        return None
    onward = tuple((a, chances(a)) for a in ship.reachable_sea_areas if a != here)
    return ShipWeather(here, known.get(here, ""), report_turn, chances(here), shift_words(), onward)


def winds_line(ships: Sequence[desk_pb2.MyShip], known: Mapping[str, str]) -> tuple[WindNow, ...]:
    """The reported winds of the sea areas his ships are in now, for the
    campaign page: those of his report only."""
    areas = sorted({s.sea_area for s in ships if s.sea_area and s.sea_area in known})
    return tuple(WindNow(a, known[a]) for a in areas)
