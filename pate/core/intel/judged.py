"""An event as a player could judge it (rules 3.11 and 5).

The resolver's events carry everything the engine knew: dice, sailing
chances, the exact strength of every ship in a battle, an enemy's crew lost.
A player learns of an event through their own ships, so their knowledge
keeps only what those ships could have seen: every detail of their own
ships; of anyone else's, what a watching officer could make out (which way
they sailed, whether they took the windward gauge, that they were damaged,
sunk or taken), and a side's strength in battle only as it could be judged
from the ships seen, never from their hidden crews, quality or experience.

Decisions (docs/rules/intel.md, "Events as the player could judge them").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pate.core.events import Event, Phase

# Dice and the chances they were rolled against are never shown: a chance
# reveals the quality and damage of everyone sailing in the group.
NEVER = frozenset({"roll", "rolls", "chance", "chances", "seen_there"})

# Detail given ship by ship: whose order each carried out, her contact and
# combat orders (pate/core/orders/whose.py) and her own sailing chance.  Each
# player keeps the entries of his own ships only, in every event, his or not
# (docs/rules/intel.md, "What an explanation may say").
PER_SHIP = ("orders", "ship_chances")

# What anyone watching may see of someone else's ships, per event kind.
# Kinds not listed keep their detail minus the SECRET keys below.
PUBLIC: Mapping[str, frozenset[str]] = {
    "sailed": frozenset({"course", "heading", "wind", "peace"}),
    "held_by_wind": frozenset({"wind", "heading"}),
    "held_by_damage": frozenset({"wind"}),
    "held_in_port": frozenset(),
    "course_impossible": frozenset(),
    "no_enemy_port": frozenset(),
    "shift_blocked": frozenset(),
    "stopped": frozenset(),
    "shifted": frozenset({"harbor"}),
    "arrived": frozenset({"side"}),
    "entered_port": frozenset({"harbor", "side"}),
    "evaded": frozenset({"to"}),
    "met_enemy": frozenset({"enemies", "side"}),
    "joined_allies": frozenset({"allies"}),
    "pursued": frozenset({"pursued", "target", "side"}),
    "pursuit_abandoned": frozenset(),
    "passed_strait": frozenset({"to", "pursuers"}),
    "entered_atlantic": frozenset(),
    "returned_to_base": frozenset(),
    "wind_shifted": frozenset({"area", "before", "after"}),
    "storm": frozenset({"area", "wind"}),
    "storm_damage": frozenset(),
    "foundered": frozenset({"ashore"}),
    "scattered": frozenset(),
    "blown_out_to_sea": frozenset({"to"}),
    "storm_arrived": frozenset({"enemies", "side"}),  # seen where she came, in contact
    "driven_into_port": frozenset({"port"}),
    "driven_ashore": frozenset(),
    "joined_battle": frozenset({"from", "to"}),
    "sunk": frozenset({"state", "type"}),
    "captured": frozenset({"prize", "captor", "state"}),
    "escaped": frozenset({"to"}),
    "repaired": frozenset(),
    "loaded_stores": frozenset(),
    "unloaded_stores": frozenset(),
    "starving": frozenset(),
    "out_of_stores": frozenset(),
    # in port (2.5-2.7, 3.5, 3.6, 3.9, 4.10, section 10): enemies in contact
    # see troops go aboard or ashore, not which units nor how many
    "transfer_begun": frozenset({"direction", "port"}),
    "transfer_completed": frozenset({"direction", "port", "cancelled"}),
    "transfer_refused": frozenset(),
    "transfer_undone": frozenset(),
    "land_event": frozenset(),  # told only to the players whose ships it names (reports.events.UNSEEN)
    "garrison_battle": frozenset({"port", "attackers", "defenders", "attackers_won", "surrendered"}),
    "port_captured": frozenset({"port", "from", "to"}),
    "inactive_captured": frozenset({"prize", "state"}),
    "inactive_destroyed": frozenset({"port"}),
    "stores_moved": frozenset({"state", "origin", "destination", "amount"}),
    "stores_move_refused": frozenset({"state", "origin", "destination", "amount"}),
}

# Details of a ship nobody outside her crew can count (kinds not in PUBLIC).
SECRET = NEVER | frozenset(
    {
        "crew",
        "crew_lost",
        "marines",
        "marines_lost",
        "strength",
        "quality",
        "experience",
        "experience_gained",
        "stores",
        "hull",
        "rigging",
        "total_hull",
        "total_rigging",
        "morale",
    }
)

# Where someone else's ships went once out of sight is told by the sea area,
# not the tactical area (tactical areas are out of contact of each other,
# 5.1): the "to" of an escape or a storm, and the place of a movement-phase
# evasion (that event is located where the evaders went).
_TACTICAL = re.compile(r" \(tactical area \d+\)\Z")

# A battle: per ship, what anyone present sees (her own crew knows the rest).
SHIP_SEEN = ("id", "side", "outcome", "close_quarters")

# Ships seen out of contact (an evasion, 6.9) are told by a vague size, as a
# frigate's sighting at a distance gives no exact number (5.2): up to 3 ships
# are "few", up to 9 "several", more "many".  The bands are wide enough that
# a squadron, a division and a fleet read differently and no count leaks.
SIGHTED = ((3, "few"), (9, "several"))


@dataclass(frozen=True, slots=True)
class Judge:
    """Who is judging: the player's own ships and the states on their side."""

    own: frozenset[str]
    friends: frozenset[str]
    strength_step: int = 50
    names: Mapping[str, str] | None = None  # names of own ships gone during the turn


def judged_strength(strength: int, step: int) -> int:
    """An enemy side's strength as judged from the ships seen: rounded half up
    to the step, and never judged nil while any ship fought."""
    if strength <= 0 or step <= 1:
        return max(0, strength)
    return max(step, (strength + step // 2) // step * step)


def out_of_sight(place: str) -> str:
    """ "ECH (tactical area 3)" -> "ECH"."""
    return _TACTICAL.sub("", place)


def judge(event: Event, j: Judge) -> tuple[tuple[str, ...], str, dict[str, Any]]:
    """The ships, location and detail of ``event`` as this player may know them."""
    ours = bool(set(event.ships) & j.own)
    ships = event.ships
    if event.kind == "storm":  # the storm caught others in other tactical areas: unseen
        ships = tuple(s for s in event.ships if s in j.own)
    location = event.location
    if event.kind == "battle":
        data = battle_as_judged(event.data, j)
    elif event.kind == "evaded" and event.phase is Phase.MOVEMENT:
        ships, location, data = evasion_as_judged(event, j, ours=ours)
    elif ours:
        data = {k: v for k, v in event.data.items() if k not in NEVER}
    else:
        data = _public(event.kind, event.data)
        if event.kind in ("escaped", "evaded") and set(event.data.get("seen_there", ())) & j.own:
            # 5.1: the player's ships where she went saw her come, tactical area and all
            data.update(to=event.data.get("to"), seen_arriving=True)
    for key in PER_SHIP:
        if key in data:
            data = _own_entries(data, key, j.own)
    if j.names:
        gone = {s: j.names[s] for s in event.ships if s in j.names}
        if gone:
            data["names"] = gone
    return ships, location, data


def _own_entries(data: dict[str, Any], key: str, own: frozenset[str]) -> dict[str, Any]:
    """Detail given ship by ship, kept for the player's own ships only."""
    value = data[key]
    kept = {s: v for s, v in value.items() if s in own} if isinstance(value, Mapping) else {}
    rest = {k: v for k, v in data.items() if k != key}
    return {**rest, key: kept} if kept else rest


def sighted(n: int) -> str:
    """How many ships were seen out of contact, as a lookout would put it:
    "few", "several" or "many", never the exact number (5.2)."""
    for most, word in SIGHTED:
        if n <= most:
            return word
    return "many"


def evasion_as_judged(event: Event, j: Judge, *, ours: bool) -> tuple[tuple[str, ...], str, dict[str, Any]]:
    """Rule 6.9 evasion under 5.1 and 5.2: evaders and the ships they avoided
    never came into contact, so neither learns the other's identities.  The
    evaders at sea counted the enemy they came upon (4.6: their order acts on
    that number); off a port they never entered they judge its size only, as
    the ships avoided judge theirs.  Witnesses in contact where the evaders
    went (or all, when they had nowhere else to go) see them as any arrival."""
    if ours:
        kept = {k: v for k, v in event.data.items() if k not in NEVER and k != "afar"}
        if isinstance(kept.get("avoided"), str):  # a port, from the sea area
            kept["sighted"] = sighted(int(kept.pop("enemies", 0)))
        return event.ships, event.location, kept
    afar = set(event.data.get("afar", ()))
    mine = set(event.witnesses) & j.own
    if mine and mine <= afar:
        return (), out_of_sight(event.location), {"sighted": sighted(len(event.ships))}
    return event.ships, out_of_sight(event.location), _public(event.kind, event.data)


def _public(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    allowed = PUBLIC.get(kind)
    if allowed is None:
        return {k: v for k, v in data.items() if k not in SECRET}
    out = {k: v for k, v in data.items() if k in allowed}
    for key in ("to", "from"):
        if isinstance(out.get(key), str):
            out[key] = out_of_sight(out[key])
    return out


def our_side(sides: Sequence[Mapping[str, Any]], friends: frozenset[str]) -> int | None:
    for i, side in enumerate(sides):
        if set(side.get("states", ())) & friends:
            return i
    return None


def battle_as_judged(data: Mapping[str, Any], j: Judge) -> dict[str, Any]:
    """Rule 3.11 "strength at battle as the player could judge it": their own
    side's strength exactly (their officers know their own and their allies'
    ships), the enemy's rounded to ``strength_step`` (only the enemy's ships
    are seen, not their crews); each ship's outcome and whether she closed;
    damage, crew lost and experience only for the player's own ships."""
    mine = our_side(data.get("sides", ()), j.friends)
    sides = []
    for i, side in enumerate(data.get("sides", ())):
        if i == mine:
            sides.append({k: v for k, v in side.items() if k not in NEVER})
            continue
        seen = {k: v for k, v in side.items() if k not in SECRET}
        strength = judged_strength(int(side.get("strength", 0)), j.strength_step)
        sides.append({**seen, "strength": strength, "judged": True})
    ships = []
    for entry in data.get("ships", ()):
        if entry.get("id") in j.own:
            ships.append({k: v for k, v in entry.items() if k not in NEVER})
        else:
            ships.append({k: entry[k] for k in SHIP_SEEN if k in entry})
    out = {k: v for k, v in data.items() if k not in ("sides", "ships") and k not in SECRET}
    return {**out, "sides": sides, "ships": ships, "our_side": mine}
