"""One event being told to one player: who it is about, in their words.

The player's own ships are named ("BR1FL Ville de Paris"); anyone else's by
flag and class, as a lookout would call them ("the French frigate FR2FR").
Verbs and pronouns agree with the subject (one ship is "she", 2.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pate.core.intel.model import PlayerKnowledge
from pate.core.rules.detection import ship_sort_key
from pate.core.world.geography import WorldMap
from pate.core.world.ships import ShipType, parse_ship_id
from pate.reports.words import TYPE_WORDS, adjective, and_list, at_place, from_place, place_words

NAMED_AT_MOST = 3  # more of the player's ships than this are listed by id only


def known_names(k: PlayerKnowledge) -> dict[str, str]:
    """Names the player knows: their ships now, and those lost in the turn
    (the knowledge carries the latter in the events' ``names``)."""
    names: dict[str, str] = {}
    for ev in k.events:
        gone = ev.data.get("names")
        if isinstance(gone, Mapping):
            names.update({str(a): str(b) for a, b in gone.items()})
    names.update({r.id: r.name for r in k.ships})
    return names


@dataclass(frozen=True, slots=True)
class Telling:
    k: PlayerKnowledge
    world_map: WorldMap | None
    kind: str
    phase: str
    location: str
    ships: tuple[str, ...]
    data: Mapping[str, Any]
    names: Mapping[str, str] = field(default_factory=dict)
    own: frozenset[str] = frozenset()

    # -- the subject ------------------------------------------------------------
    @property
    def ours(self) -> bool:
        return bool(set(self.ships) & self.own)

    @property
    def single(self) -> bool:
        return len(self.ships) == 1

    @property
    def subject(self) -> str:
        return self.ships_phrase(self.ships)

    @property
    def was(self) -> str:
        return "was" if self.single else "were"

    @property
    def they(self) -> str:
        return "she" if self.single else "they"

    @property
    def them(self) -> str:
        return "her" if self.single else "them"

    @property
    def their(self) -> str:
        return "her" if self.single else "their"

    def ship_words(self, sid: str) -> str:
        """One of the player's ships: "BR1FL Ville de Paris"."""
        name = self.names.get(sid, "")
        return f"{sid} {name}" if name and name != sid else sid

    def ships_phrase(self, ids: Iterable[str]) -> str:
        """Own ships by id and name, the others by flag and class."""
        ordered = sorted(set(ids), key=ship_sort_key)
        mine = [s for s in ordered if s in self.own]
        others = [s for s in ordered if s not in self.own]
        parts: list[str] = []
        if mine:
            named = len(mine) <= NAMED_AT_MOST
            parts.append(and_list(self.ship_words(s) if named else s for s in mine))
        if others:
            parts.append(self.foreign(others))
        return " with ".join(parts) if parts else "our ships"

    def foreign(self, ids: list[str]) -> str:
        """ "the French frigate FR2FR", "the French and Spanish ships FR1FL and SP2SL"."""
        parsed = [p for s in ids if (p := parse_ship_id(s)) is not None]
        states = sorted({p[0] for p in parsed})
        types = {p[2] for p in parsed}
        flag = and_list(adjective(self.k, s) for s in states)
        if len(types) == 1:
            (only,) = types
            noun = TYPE_WORDS[only][len(ids) != 1]
        else:
            noun = "ship" if len(ids) == 1 else "ships"
        return f"the {flag} {noun} {and_list(ids)}".replace("  ", " ")

    # -- places -----------------------------------------------------------------
    def place(self, text: str | None = None) -> str:
        return place_words(self.world_map, self.location if text is None else text)

    def at(self, text: str | None = None) -> str:
        return at_place(self.world_map, self.location if text is None else text)

    def came_from(self, text: str) -> str:
        return from_place(self.world_map, text)

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def text(self, key: str, default: str) -> str:
        """A detail as text, or ``default`` when the event does not carry it."""
        value = self.data.get(key)
        return default if value is None or value == "" else str(value)

    def flag(self, key: str = "state") -> str:
        """The adjective of the state named by ``key`` ("French"), else "enemy"."""
        value = self.data.get(key)
        return adjective(self.k, str(value)) if value else "enemy"

    def number(self, key: str) -> int:
        value = self.data.get(key, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0


def type_noun(sid: str, plural: bool = False) -> str:
    parsed = parse_ship_id(sid)
    return TYPE_WORDS[parsed[2] if parsed else ShipType.SL][plural]


def sentence(text: str) -> str:
    """Capital first letter, one full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."
