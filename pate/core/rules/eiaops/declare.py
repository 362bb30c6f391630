"""Fleet markers and their declared operations, in the declaration sequence.

"Naval Operations are declared one fleet at a time in accordance with the
Naval Phase order ... Britain may choose when to declare, and once every
country has declared one fleet, it is time for each country to declare a
second fleet (if available) etc."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from pate.core.orders.operation import AT_SEA_KINDS, WITH_CORPS, Operation, OpKind
from pate.core.rules.eiaops.model import Declared, Fleet
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.steps import Reach
from pate.core.rules.eiaops.trade import chain_problem
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Ship, ShipType
from pate.core.world.state import WorldState

WHERE = "EiA new naval rules"


def fleet_of(world: WorldState, lead: Ship) -> Fleet | None:
    """The fleet marker led by ``lead``: where it is based, and at sea or not
    ("based in a port, sea zone or enemy blockade box")."""
    attached = sorted(s.id for s in world.ships.values() if s.attached_to == lead.id and s.active)
    ships = (lead.id, *attached)
    loc = lead.location
    if isinstance(loc, AtSea):
        return Fleet(lead.id, lead.state, ships, loc.area, True, (lead.state,))
    if isinstance(loc, InPort):
        port = world.ports.get(loc.port)
        friendly = port is not None and world.diplomacy.allied(lead.state, port.controller)
        return Fleet(lead.id, lead.state, ships, loc.port, not loc.harbor and not friendly, (lead.state,))
    return None  # crossing the Atlantic: no marker on either map


@dataclass(frozen=True, slots=True)
class Why:
    """Why a fleet may not take an operation: the field of the order, the
    section of the text, and a sentence the player can act on."""

    field: str
    section: str
    message: str

    def __str__(self) -> str:
        return f"{self.message} ({WHERE}, {self.section})"


def problem(
    world_map: WorldMap,
    world: WorldState,
    fleet: Fleet,
    op: Operation,
    rules: OpsRules,
    reach: Reach | None = None,
) -> Why | None:
    """Why ``fleet`` may not take ``op`` (None when it may).  ``reach``: a
    search from the fleet's place already made, when many operations of the
    same fleet are checked (the answer is the same without it)."""
    if fleet.at_sea and op.kind not in AT_SEA_KINDS:
        msg = (
            "a fleet based in a sea zone or an enemy blockade box may only choose Naval Superiority or Rebase"
        )
        return Why("operation.kind", "Fleet markers", msg)
    if op.declare_at and fleet.state != rules.chooses_when:
        msg = f"only {rules.chooses_when} may choose when to declare; the others keep the Naval Phase order"
        return Why("operation.declare_at", "Declaring Operations", msg)
    check = _CHECKS.get(op.kind)
    return check(world_map, world, fleet, op, rules, reach) if check else None


def _within(
    world_map: WorldMap, fleet: Fleet, to: str, steps: int, what: str, reach: Reach | None
) -> Why | None:
    if to not in world_map.ports and to not in world_map.sea_areas:
        return Why("operation.to", what, f"{to!r} is neither a port nor a sea area of the map")
    if reach is None:
        reach = Reach.search(world_map, fleet.place, steps)
    if reach.distance(world_map, fleet.place, to, steps) is None:
        return Why("operation.to", what, f"{to} is more than {steps} steps from {fleet.place}")
    return None


def _friendly(world: WorldState, state: str, port: str) -> bool:
    held = world.ports.get(port)
    return held is not None and world.diplomacy.allied(state, held.controller)


def _rebase(
    world_map: WorldMap,
    world: WorldState,
    fleet: Fleet,
    op: Operation,
    rules: OpsRules,
    reach: Reach | None,
) -> Why | None:
    to = op.to or ""
    far = _within(world_map, fleet, to, rules.rebase_steps, "Rebase", reach)
    if far or to in world_map.sea_areas:
        return far
    if op.blockade and _friendly(world, fleet.state, to):
        return Why("operation.to", "Rebase", f"{to} is not an enemy port: a blockade box is an enemy port's")
    if not op.blockade and not _friendly(world, fleet.state, to):
        msg = f"{to} is not a friendly port; write `rebase to blockade {to}` for its blockade box"
        return Why("operation.to", "Rebase", msg)
    return None


def carrier(world: WorldState, fleet: Fleet, corps: str) -> Ship | None:
    """The fleet's transport group with ``corps`` aboard."""
    for sid in fleet.ships:
        ship = world.ships.get(sid)
        if ship is not None and ship.type is ShipType.TR and corps in ship.cargo.units:
            return ship
    return None


def _corps(
    world_map: WorldMap,
    world: WorldState,
    fleet: Fleet,
    op: Operation,
    rules: OpsRules,
    reach: Reach | None,
) -> Why | None:
    what = "Transport" if op.kind is OpKind.TRANSPORT else "Invasion"
    to = op.to or ""
    if to not in world_map.ports:
        return Why("operation.to", what, f"{to!r} is not a port of the map")
    steps = rules.transport_steps if op.kind is OpKind.TRANSPORT else rules.invasion_steps
    far = _within(world_map, fleet, to, steps, what, reach)
    if far:
        return far
    if op.kind is OpKind.TRANSPORT and not _friendly(world, fleet.state, to):
        return Why("operation.to", what, f"{to} is not a friendly port")
    if carrier(world, fleet, op.corps or "") is None:
        msg = f"{op.corps} is not aboard a transport group of this fleet: embark it first (rule 3.6)"
        return Why("operation.corps", what, msg)
    return None


def _chain(
    world_map: WorldMap,
    world: WorldState,
    fleet: Fleet,
    op: Operation,
    rules: OpsRules,
    reach: Reach | None,
) -> Why | None:
    what = "Protect Trade" if op.kind is OpKind.PROTECT_TRADE else "Supply"
    if op.kind is OpKind.SUPPLY and not any(
        world.ships[s].type is ShipType.TR for s in fleet.ships if s in world.ships
    ):
        return Why(
            "operation.kind", what, "Supply can only be used by a fleet containing at least one transport"
        )
    if len(op.chain) > rules.chain_total:
        return Why("operation.chain", what, f"at most {rules.chain_total} sea zones")
    why = chain_problem(world_map, world, fleet.state, fleet.place, op.chain, rules.chain_steps)
    return Why("operation.chain", what, why) if why else None


def _cost(
    world_map: WorldMap,
    world: WorldState,
    fleet: Fleet,
    op: Operation,
    rules: OpsRules,
    reach: Reach | None,
) -> Why | None:
    money = world.treasury.get(fleet.state, 0)
    if fleet.state in world.treasury and money < rules.ns_cost:  # an account opens at the first phase
        msg = f"Naval Superiority costs {rules.ns_cost}$; {fleet.state} has {money}$"
        return Why("operation.kind", "Naval Superiority", msg)
    return None


_CHECKS = {
    OpKind.REBASE: _rebase,
    OpKind.TRANSPORT: _corps,
    OpKind.INVASION: _corps,
    OpKind.PROTECT_TRADE: _chain,
    OpKind.SUPPLY: _chain,
    OpKind.NAVAL_SUPERIORITY: _cost,
}


def combine(world: WorldState, fleets: list[tuple[Fleet, Operation]]) -> list[tuple[Fleet, Operation]]:
    """ "When two or more nations are in combine movement, are based in the
    same port and choose the same operation": one joint operation of the whole
    stack, led by the first fleet (by lead id).  Combined movement is an
    active alliance; an operation carrying a corps stays its own."""
    out: list[tuple[Fleet, Operation]] = []
    for fleet, op in sorted(fleets, key=lambda f: f[0].lead):
        for i, (other, theirs) in enumerate(out):
            if (
                op.kind not in WITH_CORPS
                and theirs == op
                and fleet.state not in other.states
                and other.place == fleet.place
                and not other.at_sea
                and not fleet.at_sea
                and all(world.diplomacy.allied(s, fleet.state) for s in other.states)
            ):
                states = tuple(sorted({*other.states, fleet.state}))
                out[i] = (replace(other, ships=other.ships + fleet.ships, states=states), theirs)
                break
        else:
            out.append((fleet, op))
    return out


def sequence(fleets: list[tuple[Fleet, Operation]], rules: OpsRules) -> list[Declared]:
    """Round after round, one fleet of each country; in each round the Naval
    Phase order, the country that "may choose when" last."""
    by_state: dict[str, list[tuple[Fleet, Operation]]] = {}
    for f in sorted(fleets, key=lambda f: f[0].lead):
        by_state.setdefault(f[0].state, []).append(f)
    rank = {s: i for i, s in enumerate(x for x in rules.order if x != rules.chooses_when)}
    states = sorted(by_state, key=lambda s: (s == rules.chooses_when, rank.get(s, len(rank)), s))
    out: list[Declared] = []
    rounds = max((len(v) for v in by_state.values()), default=0)
    for r in range(rounds):
        here = [by_state[s][r] for s in states if r < len(by_state[s])]
        if here and here[-1][0].state == rules.chooses_when and here[-1][1].declare_at:
            # "Britain may choose when to declare": the place its order names in this round
            chooser = here.pop()
            here.insert(chooser[1].declare_at - 1, chooser)
        for fleet, op in here:
            out.append(Declared(len(out) + 1, fleet, op, min(r + 1, rules.phase_max)))
    return out


def ships_of(world: WorldState, fleet: Fleet) -> Mapping[str, Ship]:
    return {s: world.ships[s] for s in fleet.ships if s in world.ships}
