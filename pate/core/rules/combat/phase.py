"""The combat phase (rule 3.7): every group of ships in contact may fight.

Contact (rule 5.1): the same tactical area of a sea area, or the same port
(harbor and coastal waters).  In a port, ships may first move between the
harbor and the coastal waters to join battle (7.1, winds permitting: 6.6).
Sides are the alliances present; each pair of hostile sides fights one battle
per tactical area, through the one engine (:func:`fight`).  Contact groups,
places and side pairs are taken in sorted order and each battle draws from
its own forked stream, so dice in one place never depend on another.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.orders.model import CombatStance, ContactMode, Gauge
from pate.core.rng import Rng
from pate.core.rules.combat.apply import apply_result
from pate.core.rules.combat.engine import fight
from pate.core.rules.combat.model import Battle, BattleShip, ShoreBattery, Where
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.winds import Heading, heading, onshore
from pate.core.world.diplomacy import Diplomacy
from pate.core.world.geography import WindStrength
from pate.core.world.ships import AtSea, InPort, Location, Ship, contact_key, describe
from pate.core.world.state import Wind, WorldState

ContactKey = tuple[str, str, int]


def combat_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    rules = CombatRules.from_rules(ctx.rules)
    for key, ids in contact_groups(ts.world):
        ts = _contact(ctx, ts, rules, key=key, ids=ids, rng=rng.fork("contact", *key))
    return ts


def contact_groups(world: WorldState) -> list[tuple[ContactKey, tuple[str, ...]]]:
    """Groups of active ships in contact with at least one hostile pair, as
    they stand at the start of the phase (sorted by key, ids sorted)."""
    groups: dict[ContactKey, list[Ship]] = {}
    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        key = contact_key(ship.location) if ship.active else None
        if key is not None:
            groups.setdefault(key, []).append(ship)
    out = []
    for key in sorted(groups):
        states = sorted({s.state for s in groups[key]})
        if any(world.diplomacy.hostile(a, b) for a in states for b in states if a < b):
            out.append((key, tuple(s.id for s in groups[key])))
    return out


def sides_of(diplomacy: Diplomacy, states: list[str]) -> list[tuple[str, ...]]:
    """The alliances present: states joined by active alliance (connected
    components), each sorted, ordered by their first state."""
    parent = {s: s for s in states}

    def root(s: str) -> str:
        while parent[s] != s:
            s = parent[s]
        return s

    for a in states:
        for b in states:
            if a < b and diplomacy.allied(a, b):
                parent[max(root(a), root(b))] = min(root(a), root(b))
    groups: dict[str, list[str]] = {}
    for s in states:
        groups.setdefault(root(s), []).append(s)
    return sorted(tuple(sorted(g)) for g in groups.values())


def _contact(
    ctx: TurnContext, ts: TurnState, rules: CombatRules, *, key: ContactKey, ids: tuple[str, ...], rng: Rng
) -> TurnState:
    kind, name, tactical = key
    places: list[Location]
    if kind == "port":
        ts = _join_in_port(ctx, ts, name, ids)
        places = [InPort(name, harbor=False), InPort(name, harbor=True)]
    else:
        places = [AtSea(name, tactical)]
    for place in places:
        ts = _fight_at(ctx, ts, rules, place=place, ids=ids, rng=rng.fork(describe(place)))
    return ts


def _present(world: WorldState, ids: tuple[str, ...], place: Location) -> list[Ship]:
    return [world.ships[i] for i in ids if i in world.ships and world.ships[i].location == place]


def _fight_at(
    ctx: TurnContext, ts: TurnState, rules: CombatRules, *, place: Location, ids: tuple[str, ...], rng: Rng
) -> TurnState:
    diplomacy = ts.world.diplomacy
    sides = sides_of(diplomacy, sorted({s.state for s in _present(ts.world, ids, place)}))
    for a, side_a in enumerate(sides):
        for side_b in sides[a + 1 :]:
            if not any(diplomacy.hostile(x, y) for x in side_a for y in side_b):
                continue
            present = _present(ts.world, ids, place)
            ships = [
                s
                for s in present
                if (s.state in side_a and any(diplomacy.hostile(s.state, y) for y in side_b))
                or (s.state in side_b and any(diplomacy.hostile(s.state, x) for x in side_a))
            ]
            if not ({s.state for s in ships} & set(side_a) and {s.state for s in ships} & set(side_b)):
                continue
            battle = build_battle(ctx, ts, ships, side_a, place)
            result = fight(battle, rules, rng.fork("battle", *side_a, "v", *side_b))
            ts = apply_result(
                ctx,
                ts,
                rules,
                battle,
                result,
                place=place,
                contact=ids,
                rng=rng.fork("after", *side_a, *side_b),
            )
    return ts


def build_battle(
    ctx: TurnContext, ts: TurnState, ships: list[Ship], side_a: tuple[str, ...], place: Location
) -> Battle:
    """The engine's plain inputs for these ships (sorted by id) at this place."""
    ordered = sorted(ships, key=lambda s: s.id)
    entries = []
    for s in ordered:
        c = ts.order(s.id).combat
        foes = [o for o in ordered if (o.state in side_a) != (s.state in side_a)]
        entries.append(
            BattleShip(
                key=s.id,
                side=0 if s.state in side_a else 1,
                type=s.type,
                crew=s.crew,
                marines=s.marines,
                quality=s.quality,
                experience=s.experience,
                hull=min(s.hull, 4),
                rigging=s.rigging,
                stance=stance(ts, s, foes),
                range=c.range,
                line=c.line,
                aim=c.aim,
                flee_to=c.flee_to,
            )
        )
    wind = _wind_at(ctx, ts.world, place)
    where = Where.SEA
    is_onshore = False
    battery = None
    if isinstance(place, InPort):
        where = Where.HARBOR if place.harbor else Where.COASTAL
        is_onshore = wind is not None and not place.harbor and onshore(ctx.map.ports[place.port], wind)
        battery = _battery(ctx, ts.world, place, ordered, side_a) if place.harbor else None
    return Battle(
        ships=tuple(entries),
        where=where,
        wind=wind.strength if wind else WindStrength.MODERATE,
        onshore=is_onshore,
        windward=windward_side(ts, ordered, side_a),
        battery=battery,
    )


def windward_side(ts: TurnState, ships: list[Ship], side_a: tuple[str, ...]) -> int | None:
    """Mechanics page: the side with the group furthest to leeward fights from
    leeward (station 0 is furthest to windward).  With equal stations, the
    gauge the ships asked for (rule 4.6); if both or neither ask for the
    windward gauge, a die decides (6.9)."""
    leeward = [-1, -1]
    asks = [0, 0]
    for s in ships:
        side = 0 if s.state in side_a else 1
        leeward[side] = max(leeward[side], s.station)
        asks[side] += 1 if ts.order(s.id).contact.gauge is Gauge.WINDWARD else -1
    if leeward[0] != leeward[1]:
        return 0 if leeward[1] > leeward[0] else 1
    wants = (asks[0] > 0, asks[1] > 0)
    if wants[0] != wants[1]:
        return 0 if wants[0] else 1
    return None


def _battery(
    ctx: TurnContext, world: WorldState, place: InPort, ships: list[Ship], side_a: tuple[str, ...]
) -> ShoreBattery | None:
    """Rule 7.1: the shore batteries join a harbor battle if any ship in it is
    allied to the state controlling the port."""
    port = world.ports.get(place.port)
    defense = ctx.map.ports[place.port].defense
    if port is None or defense <= 0:
        return None
    for s in ships:
        if world.diplomacy.allied(s.state, port.controller):
            side = 0 if s.state in side_a else 1
            return ShoreBattery(side=side, defense=defense, damaged=port.battery_damaged)
    return None


def _wind_at(ctx: TurnContext, world: WorldState, place: Location) -> Wind | None:
    if isinstance(place, InPort):
        return world.winds.get(ctx.map.ports[place.port].sea_area)
    if isinstance(place, AtSea):
        return world.winds.get(place.area)
    return None


def stance(ts: TurnState, ship: Ship, foes: list[Ship]) -> CombatStance:
    """The ship's combat stance against these enemies.  Rule 4.6: pursuit
    "will follow after enemy ships you encounter if they sail away ..., and
    will give battle if they do not"; the mechanics page: "No battle occurs
    unless at least one ship selects Engage or Run Past".  Both hold when a
    Pursue contact order that acts on this many enemies (4.6's numbers) turns
    an Accept into Engage if an enemy here has no order to sail away this
    turn (those that sail are followed in the movement phase, 6.10); an
    explicit Evade or Run Past stands (the combat order is the more
    specific).  Decision in docs/rules/combat.md."""
    order = ts.order(ship.id)
    chosen = order.combat.stance
    if chosen is not CombatStance.ACCEPT or order.contact.mode is not ContactMode.PURSUE:
        return chosen
    staying = any(not ts.order(o.id).movement.moves for o in foes)
    return CombatStance.ENGAGE if staying and order.contact.acts_on(len(foes)) else chosen


def _brings_battle(ts: TurnState, ship: Ship, foes: list[Ship]) -> bool:
    return stance(ts, ship, foes) in (CombatStance.ENGAGE, CombatStance.RUN_PAST)


def _join_in_port(ctx: TurnContext, ts: TurnState, port: str, ids: tuple[str, ...]) -> TurnState:
    """Rule 7.1: ships in the harbor that wish to fight (Engage or Run Past)
    come out to meet hostile ships in the coastal waters; if none do, ships in
    the coastal waters that wish to fight enter the harbor.  Rule 6.6: not
    upwind into heavy winds."""
    world = ts.world
    harbor = _present(world, ids, InPort(port, harbor=True))
    coastal = _present(world, ids, InPort(port, harbor=False))
    wind = world.winds.get(ctx.map.ports[port].sea_area)
    exit_ = ctx.map.ports[port].exit

    def blocked(course_out: bool) -> bool:
        if wind is None or wind.strength is not WindStrength.HEAVY:
            return False
        return heading(exit_ if course_out else exit_.opposite, wind) is Heading.UPWIND

    def movers(here: list[Ship], there: list[Ship]) -> list[Ship]:
        out = []
        for s in here:
            foes = [o for o in there if world.diplomacy.hostile(s.state, o.state)]
            if foes and _brings_battle(ts, s, foes):
                out.append(s)
        return out

    out = movers(harbor, coastal) if not blocked(course_out=True) else []
    to_harbor = False
    if not out:
        out = movers(coastal, harbor) if not blocked(course_out=False) else []
        to_harbor = True
    if not out:
        return ts
    moved = {s.id: replace(s, location=InPort(port, harbor=to_harbor)) for s in out}
    events = [
        Event(
            phase=Phase.COMBAT,
            kind="joined_battle",
            ships=(s.id,),
            location=describe(moved[s.id].location),
            witnesses=tuple(i for i in ids if i != s.id),
            data={"from": describe(s.location), "to": describe(moved[s.id].location)},
        )
        for s in out
    ]
    return replace(ts, world=world.with_ships(moved)).emit(*events)
