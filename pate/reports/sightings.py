"""What one player's frigates saw of the same enemy group, told once (rule
5.2): two frigates sailing together each make their own estimate of the
group, and a report that listed both would count it twice with different
numbers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pate.core.intel.model import Sighting
from pate.core.rules.detection import Category, Place, ship_sort_key


@dataclass(frozen=True, slots=True)
class GroupSighted:
    """One enemy group, as every frigate that sighted it estimated it."""

    sea_area: str
    place: Place
    state: str
    category: Category
    low: int  # the lowest estimate
    high: int  # the highest
    by: tuple[str, ...]  # the frigates, in id order
    port: str | None = None
    tactical: int | None = None


def merged_sightings(sightings: Iterable[Sighting]) -> list[GroupSighted]:
    """One entry per group seen (sea area, place, tactical area or port,
    flag and class), in a stable order."""
    groups: dict[tuple[str, str, int, str, str, str], list[Sighting]] = {}
    for s in sightings:
        key = (s.sea_area, s.place.value, s.tactical or 0, s.port or "", s.state, s.category.value)
        groups.setdefault(key, []).append(s)
    out = []
    for key in sorted(groups):
        seen = groups[key]
        first = seen[0]
        estimates = [s.estimate for s in seen]
        out.append(
            GroupSighted(
                sea_area=first.sea_area,
                place=first.place,
                state=first.state,
                category=first.category,
                low=min(estimates),
                high=max(estimates),
                by=tuple(sorted({s.by for s in seen}, key=ship_sort_key)),
                port=first.port,
                tactical=first.tactical,
            )
        )
    return out
