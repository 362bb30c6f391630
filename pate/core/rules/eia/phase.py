"""The combat phase (rule 3.7) under the EiA advanced naval rules.

Who is in contact, the sides, and ships moving between harbor and coastal
waters to join battle are PATE's (rules 3.7, 5.1, 7.1 and the mechanics
page's "Joining battle": no battle unless a ship is ordered to Engage or Run
Past); what a battle is and how it is fought are EiA's (12.2.6.1 to 12.2.6.3).
Contact groups, places and side pairs are taken in sorted order and each
battle draws from its own forked stream, as in PATE's combat phase.
"""

from __future__ import annotations

from pate.core.orders.model import CombatStance
from pate.core.rng import Rng
from pate.core.rules.combat.phase import _join_in_port, contact_groups, sides_of
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eia.apply import Setting, apply_eia
from pate.core.rules.eia.chits import chit_of, side_chit
from pate.core.rules.eia.engine import fight_eia
from pate.core.rules.eia.model import EiaBattle, EiaShip, Kind
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eia.running import run_blockades
from pate.core.rules.eia.spec import EIA_REVOLUTION
from pate.core.rules.eia.world import (
    Haven,
    harbor_defense,
    haven,
    kind_at,
    nelson_shift,
    nelson_side,
    other_admirals,
    sea_area_of,
)
from pate.core.world.ships import AtSea, InPort, Location, Ship, describe

_BRINGS = (CombatStance.ENGAGE, CombatStance.RUN_PAST)


def eia_combat_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    rules = EiaRules.from_rules(ctx.rules)
    for key, ids in contact_groups(ts.world):
        kind, name, tactical = key
        crng = rng.fork("contact", *key)
        places: list[Location]
        if kind == "port":
            ts = run_blockades(ctx, ts, rules, name, ids, crng.fork("running"))  # 12.2.9
            ts = _join_in_port(ctx, ts, name, ids)
            places = [InPort(name, harbor=False), InPort(name, harbor=True)]
        else:
            places = [AtSea(name, tactical)]
        for place in places:
            ts = _fight_at(ctx, ts, rules, place=place, ids=ids, rng=crng.fork(describe(place)))
    return ts


def _present(ts: TurnState, ids: tuple[str, ...], place: Location) -> list[Ship]:
    w = ts.world
    return [w.ships[i] for i in ids if i in w.ships and w.ships[i].location == place]


def _fight_at(
    ctx: TurnContext, ts: TurnState, rules: EiaRules, *, place: Location, ids: tuple[str, ...], rng: Rng
) -> TurnState:
    diplomacy = ts.world.diplomacy
    sides = sides_of(diplomacy, sorted({s.state for s in _present(ts, ids, place)}))
    for a, side_a in enumerate(sides):
        for side_b in sides[a + 1 :]:
            if not any(diplomacy.hostile(x, y) for x in side_a for y in side_b):
                continue
            ships = [
                s
                for s in _present(ts, ids, place)
                if (s.state in side_a and any(diplomacy.hostile(s.state, y) for y in side_b))
                or (s.state in side_b and any(diplomacy.hostile(s.state, x) for x in side_a))
            ]
            states = {s.state for s in ships}
            if not (states & set(side_a) and states & set(side_b)):
                continue
            if not any(ts.order(s.id).combat.stance in _BRINGS for s in ships):
                continue  # mechanics page, "Joining battle"
            battle, setting = build_eia_battle(ctx, ts, rules, ships, (side_a, side_b), place)
            result = fight_eia(battle, rules, rng.fork("battle", *side_a, "v", *side_b))
            ts = apply_eia(
                ctx, ts, rules, battle, result, setting, contact=ids, rng=rng.fork("after", *side_a, *side_b)
            )
    return ts


def build_eia_battle(
    ctx: TurnContext,
    ts: TurnState,
    rules: EiaRules,
    ships: list[Ship],
    sides: tuple[tuple[str, ...], tuple[str, ...]],
    place: Location,
) -> tuple[EiaBattle, Setting]:
    world = ts.world
    kind, outsider = kind_at(world, place, sides)
    ordered = sorted(ships, key=lambda s: s.id)
    if kind is Kind.PORT_RAID:
        # 12.2.8.1: the defenders' hulks in the harbor fight in a port raid
        defenders = sides[1 - (outsider or 0)]
        hulks = [
            s
            for s in world.ships.values()
            if s.hulk and s.location == place and s.state in defenders and s not in ordered
        ]
        ordered = sorted(ordered + hulks, key=lambda s: s.id)
    side_of = {s.id: 0 if s.state in sides[0] else 1 for s in ordered}
    chits = tuple(
        side_chit(
            chit_of(o.stance, o.range, o.line, revolution=world.combat_rules == EIA_REVOLUTION)
            for s in ordered
            if side_of[s.id] == n and s.type.is_warship and not s.hulk
            for o in (ts.order(s.id).combat,)
        )
        for n in (0, 1)
    )
    attacker = outsider if outsider is not None else _eager_side(ts, ordered, side_of)
    area = sea_area_of(ctx, place)
    havens = [haven(ctx, world, rules, sides[0], area), haven(ctx, world, rules, sides[1], area)]
    if outsider is not None and isinstance(place, InPort):
        # the port's friends are already in their port: their disabled ships stay there
        havens[1 - outsider] = Haven(place.port, world.ports[place.port].controller, 0)
    defense = 0
    if kind is Kind.PORT_RAID and isinstance(place, InPort):
        defense = harbor_defense(ctx, world, place.port, sides[attacker])
    battle = EiaBattle(
        ships=tuple(EiaShip(s.id, side_of[s.id], s.state, s.type, s.hulk) for s in ordered),
        kind=kind,
        attacker=attacker,
        chits=(chits[0], chits[1]),
        nelson=nelson_side(world, [s for s in ordered if not s.hulk], side_of),
        nelson_shift=nelson_shift(
            world, ordered, {s.id: ts.order(s.id).combat.closing_shift for s in ordered}
        ),
        admirals=other_admirals(world, [s for s in ordered if not s.hulk], side_of),
        harbor_defense=defense,
        voyage=(
            havens[0].movement_points if havens[0] else None,
            havens[1].movement_points if havens[1] else None,
        ),
    )
    return battle, Setting(place=place, sides=sides, havens=(havens[0], havens[1]))


def _eager_side(ts: TurnState, ships: list[Ship], side_of: dict[str, int]) -> int:
    """The attacker of the chart: the side with more ships ordered to Engage
    or Run Past (a tie: the first side)."""
    eager = [0, 0]
    for s in ships:
        if ts.order(s.id).combat.stance in _BRINGS:
            eager[side_of[s.id]] += 1
    return 1 if eager[1] > eager[0] else 0
