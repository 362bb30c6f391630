"""Combat in off-GITM-map ports (rule 3.9; lost section 10) and what becomes
of inactive ships when their port falls or the enemy enters its harbor (2.6).

Decisions (docs/rules/turn.md, 3.9):
- the land units of states at war with the port's controller that are in its
  garrison (landed this turn) attack; the units of the controller and its
  active allies defend, with the port's own gunners and militia
  (``men_per_defense_rating`` men per point of its defensive rating); the
  defence counts ``defender_percent`` of its men;
- one seeded draw per port decides: the attackers win with chance
  attack / (attack + defence); the losers' units surrender (they leave the
  game); each winning unit loses ``winner_loss_percent`` x (loser strength /
  winner strength) of its men in each arm, at most all of them;
- attackers who win take the port: it passes to the attacking state with the
  most men (ties by state code), with its stores and supplies, and the
  inactive ships of states not allied to the new controller in it are
  captured, as prizes of that state under the lowest free number (2.6, 7.8);
- rule 2.6's other case, enemy warships in the harbor with no friendly ship
  in the port and no friendly shore guns (defensive rating above 0 and the
  battery undamaged): the inactive ships are destroyed, since a prize cannot
  be kept in a harbor the enemy does not hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.rng import Rng
from pate.core.rules.combat.apply import lowest_free_id
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eia.hulks import hulks_when_port_changes
from pate.core.world.ships import InPort, Ship
from pate.core.world.state import LandUnit, WorldState

PHASE = Phase.FINAL_AMPHIBIOUS


@dataclass(frozen=True, slots=True)
class GarrisonRules:
    defender_percent: int
    men_per_defense_rating: int
    winner_loss_percent: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> GarrisonRules:
        return cls(
            defender_percent=int(d.get("defender_percent", 150)),
            men_per_defense_rating=int(d.get("men_per_defense_rating", 200)),
            winner_loss_percent=int(d.get("winner_loss_percent", 50)),
        )


def _men(world: WorldState, units: Sequence[str]) -> int:
    return sum(world.land_units[u].men for u in units if u in world.land_units)


def port_combat(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    rules = GarrisonRules.from_section(ctx.rules.section("amphibious").get("garrison_combat", {}))
    for name in sorted(ts.world.ports):
        port = ts.world.ports[name]
        if ctx.map.ports[name].on_gitm_map or not port.garrison:
            continue
        attackers = [
            u for u in port.garrison if ts.world.diplomacy.hostile(ts.world.unit_state(u), port.controller)
        ]
        if attackers:
            ts = _battle(ctx, ts, name, attackers, rules, rng.fork("garrison", name))
    return ts


def _battle(
    ctx: TurnContext, ts: TurnState, name: str, attackers: list[str], rules: GarrisonRules, rng: Rng
) -> TurnState:
    world = ts.world
    port = world.ports[name]
    diplomacy = world.diplomacy
    defenders = [u for u in port.garrison if diplomacy.allied(world.unit_state(u), port.controller)]
    attack = _men(world, attackers)
    militia = ctx.map.ports[name].defense * rules.men_per_defense_rating
    defence = (_men(world, defenders) + militia) * rules.defender_percent // 100
    won = attack > 0 and rng.below(attack + defence) < attack
    winners, losers = (attackers, defenders) if won else (defenders, attackers)
    strengths = (attack, defence) if won else (defence, attack)
    units = _casualties(world, winners, strengths, rules)
    for u in losers:
        units.pop(u, None)
    garrison = tuple(u for u in port.garrison if u not in losers)
    world = replace(world, land_units=units, ports={**world.ports, name: replace(port, garrison=garrison)})
    witnesses = _present(world, name)
    data = {
        "port": name,
        "attackers": attackers,
        "defenders": defenders,
        "attack": attack,
        "defence": defence,
        "attackers_won": won,
        "surrendered": losers,
    }
    ts = replace(ts, world=world).emit(Event(PHASE, "garrison_battle", (), name, witnesses, data))
    return _capture(ctx, ts, name, winners) if won else ts


def _casualties(
    world: WorldState, winners: Sequence[str], strengths: tuple[int, int], rules: GarrisonRules
) -> dict[str, LandUnit]:
    mine, theirs = strengths
    units = dict(world.land_units)
    if mine <= 0:
        return units
    num, den = rules.winner_loss_percent * theirs, 100 * mine

    def after(men: int) -> int:
        return men - min(men, men * num // den)

    for u in winners:
        if u in units:
            v = units[u]
            units[u] = replace(
                v, infantry=after(v.infantry), cavalry=after(v.cavalry), artillery=after(v.artillery)
            )
    return units


def _capture(ctx: TurnContext, ts: TurnState, name: str, winners: Sequence[str]) -> TurnState:
    """The port passes to the winning state with the most men (2.6: its
    inactive ships are captured)."""
    world = ts.world
    by_state: dict[str, int] = {}
    for u in winners:
        by_state[world.unit_state(u)] = by_state.get(world.unit_state(u), 0) + _men(world, [u])
    captor = min(by_state, key=lambda s: (-by_state[s], s))
    return capture_port(ctx, ts, name, captor, occupied=True)


def land_captures(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    """The ports GITM reports taken on land (docs/gitm.md "Port holders"), each passing to its
    captor before any transfer begins, through the same entry as a garrison battle: the hulks of
    EiA rule 12.2.8.2 are destroyed when the captor's land force occupies the city, else rolled
    for with the phase's seeded stream.  A port already the captor's, or off PATE's map, is left."""
    for c in sorted(ctx.land_captures, key=lambda c: c.port):
        port = ts.world.ports.get(c.port)
        if port is None or port.controller == c.captor or c.port not in ctx.map.ports:
            continue
        ts = capture_port(
            ctx, ts, c.port, c.captor, occupied=c.occupied, phase=Phase.INITIAL_AMPHIBIOUS, rng=rng
        )
    return ts


def capture_port(
    ctx: TurnContext,
    ts: TurnState,
    name: str,
    captor: str,
    *,
    occupied: bool,
    phase: Phase = PHASE,
    rng: Rng | None = None,
) -> TurnState:
    """The port passes to ``captor``: the ``port_captured`` event, its hulks
    (EiA rule 12.2.8.2: destroyed when ``occupied`` by the captor's land
    force, else rolled for with ``rng``) and its inactive ships (2.6).  The
    one entry for every way a port changes hands: PATE's garrison battle, and
    whatever GITM's contract reports."""
    world = ts.world
    port = world.ports[name]
    world = replace(world, ports={**world.ports, name: replace(port, controller=captor)})
    event = Event(
        phase,
        "port_captured",
        (),
        name,
        _present(world, name),
        {"port": name, "from": port.controller, "to": captor},
    )
    ts = replace(ts, world=world).emit(event)
    ts = hulks_when_port_changes(ctx, ts, name, captor, occupied=occupied, phase=phase, rng=rng)
    return _take_inactive(ts, name, captor)


def _take_inactive(ts: TurnState, name: str, captor: str) -> TurnState:
    world = ts.world
    used = ts.ids_used()
    changed: dict[str, Ship] = {}
    removed: list[str] = []
    events: list[Event] = []
    minister = world.naval_minister(captor)
    for ship in _inactive_in(world, name):
        if world.diplomacy.allied(ship.state, captor):
            continue
        new_id, number = lowest_free_id(captor, ship, used)
        used.add(new_id)
        prize = replace(
            ship,
            id=new_id,
            state=captor,
            number=number,
            commander=minister.id if minister else None,
            deputy=None,
        )
        prize = replace(prize, reactivates_turn=None, attached_to=None)
        changed[new_id] = prize
        removed.append(ship.id)
        events.append(
            Event(PHASE, "inactive_captured", (ship.id, new_id), name, (), {"prize": new_id, "state": captor})
        )
    return replace(ts, world=world.with_ships(changed, tuple(removed))).emit(*events)


def _in_port(world: WorldState, name: str, *, active: bool) -> list[Ship]:
    return sorted(
        (
            s
            for s in world.ships.values()
            if s.active is active and isinstance(s.location, InPort) and s.location.port == name
        ),
        key=lambda s: s.id,
    )


def _inactive_in(world: WorldState, name: str) -> list[Ship]:
    return _in_port(world, name, active=False)


def _present(world: WorldState, name: str) -> tuple[str, ...]:
    return tuple(s.id for s in _in_port(world, name, active=True))


def inactive_ships_burnt(ctx: TurnContext, ts: TurnState) -> TurnState:
    """Rule 2.6: enemy warships in the harbor, no friendly ship in the port
    and no friendly shore guns: the inactive ships are destroyed."""
    world = ts.world
    by_port: dict[str, list[Ship]] = {}
    for s in world.ships.values():
        if isinstance(s.location, InPort):
            by_port.setdefault(s.location.port, []).append(s)
    doomed: list[str] = []
    events: list[Event] = []
    for name, here in sorted(by_port.items()):
        active = sorted((s for s in here if s.active), key=lambda s: s.id)
        for ship in sorted((s for s in here if not s.active), key=lambda s: s.id):
            hostile = [
                s for s in active if s.type.is_warship and world.diplomacy.hostile(ship.state, s.state)
            ]
            enemies = [s.id for s in hostile if _in_harbor(s)]
            friends = [s for s in active if world.diplomacy.allied(ship.state, s.state)]
            if enemies and not friends and not _guns(ctx, world, name, ship.state):
                doomed.append(ship.id)
                events.append(
                    Event(PHASE, "inactive_destroyed", (ship.id,), name, tuple(enemies), {"port": name})
                )
    return replace(ts, world=world.with_ships({}, tuple(doomed))).emit(*events)


def _in_harbor(ship: Ship) -> bool:
    return isinstance(ship.location, InPort) and ship.location.harbor


def _guns(ctx: TurnContext, world: WorldState, name: str, state: str) -> bool:
    port = world.ports[name]
    return (
        ctx.map.ports[name].defense > 0
        and not port.battery_damaged
        and world.diplomacy.allied(state, port.controller)
    )
