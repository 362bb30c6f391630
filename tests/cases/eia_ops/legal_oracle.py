"""The legal operations of a fleet as first written: every candidate checked
by the order desk's own ``declare.problem`` with a fresh map search of its
own.  Kept as the oracle that ``choices.legal_operations`` (one search from
the fleet's place, shared by every candidate) must agree with exactly, and
as the "before" of the benchmark; with the fleets every desk lists, on which
both are compared."""

from __future__ import annotations

from pate.core.orders.operation import AT_SEA_KINDS, Operation, OpKind
from pate.core.orders.refusal import Actor, authority
from pate.core.rules.eiaops.declare import fleet_of, problem
from pate.core.rules.eiaops.model import Fleet
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.steps import distances
from pate.core.world.geography import WorldMap
from pate.core.world.ships import ShipType
from pate.core.world.state import WorldState

PER_KIND = 4


def legal_operations_searching_each(
    world_map: WorldMap, world: WorldState, fleet: Fleet, rules: OpsRules
) -> list[Operation]:
    near = distances(world_map, fleet.place, rules.rebase_steps)
    ports = sorted((d, n) for n, d in near.items() if n in world_map.ports and n != fleet.place)
    areas = sorted((d, n) for n, d in near.items() if n in world_map.sea_areas)
    out: list[Operation] = [Operation(k) for k in (OpKind.NAVAL_SUPERIORITY, OpKind.PATROL, OpKind.RAID)]
    if all(world.ships[s].type is ShipType.FR for s in fleet.ships if s in world.ships):
        out.append(Operation(OpKind.PRIVATEER))
    out += [Operation(OpKind.REBASE, to=n) for _, n in ports[: PER_KIND * 4]]
    out += [Operation(OpKind.REBASE, to=n, blockade=True) for _, n in ports[: PER_KIND * 4]]
    out += [Operation(OpKind.REBASE, to=n) for _, n in areas[:PER_KIND]]
    if fleet.place in world_map.ports:
        first = world_map.ports[fleet.place].reachable_sea_areas
        out += [Operation(OpKind.PROTECT_TRADE, chain=(a,)) for a in first]
        out += [Operation(OpKind.SUPPLY, chain=(a,)) for a in first]
        for sid in fleet.ships:
            ship = world.ships.get(sid)
            for corps in ship.cargo.units if ship is not None else ():
                out += [Operation(OpKind.TRANSPORT, corps=corps, to=n) for _, n in ports[: PER_KIND * 4]]
                out += [Operation(OpKind.INVASION, corps=corps, to=n) for _, n in ports[: PER_KIND * 4]]
    legal = [op for op in out if problem(world_map, world, fleet, op, rules) is None]
    if fleet.at_sea:
        legal = [op for op in legal if op.kind in AT_SEA_KINDS]
    seen: set[Operation] = set()
    return [op for op in legal if not (op in seen or seen.add(op))]  # type: ignore[func-returns-value]


def desk_fleets(world: WorldState) -> list[Fleet]:
    """One entry for every fleet on every player's desk (a fleet on two desks, twice)."""
    out: list[Fleet] = []
    for player in sorted(world.players.values(), key=lambda p: p.id):
        actor = Actor.of(player)
        for sid in sorted(world.ships):
            ship = world.ships[sid]
            if authority(actor, ship) is None or ship.attached_to is not None or not ship.active:
                continue
            fleet = fleet_of(world, ship)
            if fleet is not None:
                out.append(fleet)
    return out
