"""What the maps look like: colours, sizes, the controllers' colours and the
markers a report places.  Shared by :mod:`pate.render.svg_map` and
:mod:`pate.render.legend` (which therefore need not import each other)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pate.core.world.geography import MapName

NATION_COLOURS: Mapping[str, str] = {
    "BR": "#c0392b",
    "FR": "#2e4bb5",
    "SP": "#d4a017",
    "PO": "#1e8449",
    "HO": "#e67e22",
    "NE": "#8e44ad",
    "SW": "#2874a6",
    "DK": "#b03a2e",
    "RU": "#17a589",
    "PR": "#212f3d",
    "AU": "#f4d03f",
    "GE": "#7f8c8d",
    "IT": "#27ae60",
    "TU": "#a04000",
    "MO": "#9a7d0a",
    "US": "#5d6d7e",
}

TOP = 30  # room for a map's heading above it

MAP_TITLES: Mapping[MapName, str] = {MapName.EUROPE: "European waters", MapName.AMERICA: "American waters"}


@dataclass(frozen=True, slots=True)
class MapStyle:
    width: int = 1200
    margin: int = 40
    sea: str = "#dbe9f6"  # water outside every sea area
    land: str = "#efe6d2"
    coast: str = "#9c8f6e"
    link: str = "#7a9cc6"
    area_fill: str = "#cfe2f3"
    area_stroke: str = "#5b7fa6"
    highlight_fill: str = "#f9e79f"
    edge_stroke: str = "#1f618d"  # sea areas on the Atlantic edge (rule 6.11)
    port_size: float = 7.0
    port_labels: bool = True
    font: str = "Georgia, serif"


def fade(age: int) -> float:
    """How opaque a sighting ``age`` turns old is drawn: current ones whole, older
    ones paler each turn, never so pale as to vanish before they are dropped."""
    return 1.0 if age <= 0 else max(0.3, round(0.75 - 0.15 * age, 2))


@dataclass(frozen=True, slots=True)
class Icon:
    """A marker drawn next to a sea area or port (``at`` is a code or a port name)."""

    at: str
    label: str
    colour: str = "#000000"
    title: str = ""
    ships: tuple[str, ...] = ()  # the player's own ships it stands for: a click opens their orders
    short: str = ""  # the words where the map is too crowded for ``label`` (its tooltip then tells it)
    age: int = 0  # a sighting's turns since it was seen: drawn faded (``fade``)
