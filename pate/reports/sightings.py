"""What one player's frigates saw of the same enemy group, told once (rule
5.2): two frigates sailing together each make their own estimate of the
group, and a report that listed both would count it twice with different
numbers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pate.core.intel.model import PlayerKnowledge, Sighted, Sighting, Source
from pate.core.rules.detection import Category, Place, ship_sort_key
from pate.reports.words import CATEGORY_PLURAL, CATEGORY_SINGULAR, adjective, and_list


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


def earlier(k: PlayerKnowledge) -> list[Sighted]:
    """The sightings of the picture not confirmed this turn: never drawn as current.  A
    garrison's report of this turn speaks of the turn before (5.3) and is told as itself."""
    told = {(sid, w.as_of_turn) for w in k.port_watch for sid in w.ships}
    return [s for s in k.picture if s.turn < k.turn and (s.key, s.turn) not in told]


def shown_now_elsewhere(s: Sighted, k: PlayerKnowledge) -> bool:
    """This turn's contacts and frigates' counts are drawn from the contact lists
    and sightings themselves; the picture adds only what those do not show."""
    return s.turn == k.turn and s.source in (Source.CONTACT, Source.FRIGATE, Source.REPORTS)


def source_text(s: Sighted) -> str:
    """Who saw it and how near: "in contact with FR3FL", "counted by FR2FR"."""
    by = and_list(s.by)
    if s.source is Source.CONTACT:
        return f"named by {by}, in contact"
    if s.source is Source.FRIGATE:
        return f"counted by {by}, no names (5.2)"
    if s.source is Source.REPORTS:
        return "sails reported (5.4): flag, class and number may be wrong"
    return f"named by the {s.source.value} at {s.port}"


def age_text(s: Sighted, k: PlayerKnowledge) -> str:
    age = k.turn - s.turn
    if age <= 0:
        return f"seen in turn {s.turn}"
    when = "the starting positions" if s.turn == 0 else f"turn {s.turn}"
    return f"last seen at {when}, {age} turn{'s' if age != 1 else ''} ago, not seen since"


def sighted_words(k: PlayerKnowledge, s: Sighted) -> str:
    """ "BR2FL (British) at sea", "about 3 British ships of the line at sea"."""
    where = f"off {s.port}" if s.port else f"at sea in {s.sea_area}"
    if s.ids:
        return f"{s.key} ({adjective(k, s.state)}) {where}"
    low, high = s.estimate or 1, s.estimate_high or s.estimate or 1
    about = f"{low} to {high}" if high > low else f"about {low}"
    noun = CATEGORY_SINGULAR[s.category] if high == 1 else CATEGORY_PLURAL[s.category]
    return f"{about} {adjective(k, s.state)} {noun} {where}"
