"""The legal operations of a fleet marker, for the web form and for bots:
every candidate the map suggests, kept only when the order desk's own check
(``declare.problem``) accepts it, in a stable order.  Every candidate is
measured from the fleet's own place, so one map search serves them all: a
search for each one made reading every desk of the grand campaign slow."""

from __future__ import annotations

from pate.core.orders.operation import AT_SEA_KINDS, Operation, OpKind
from pate.core.rules.eiaops.declare import problem
from pate.core.rules.eiaops.model import Fleet
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.steps import Reach
from pate.core.world.geography import WorldMap
from pate.core.world.ships import ShipType
from pate.core.world.state import WorldState

PER_KIND = 4  # destinations offered per kind: the nearest ones


def legal_operations(
    world_map: WorldMap, world: WorldState, fleet: Fleet, rules: OpsRules
) -> list[Operation]:
    furthest = max(rules.rebase_steps, rules.transport_steps, rules.invasion_steps)
    reach = Reach.search(world_map, fleet.place, furthest)
    near = {n: d for n, d in reach.steps.items() if d <= rules.rebase_steps}
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
    legal = [op for op in out if problem(world_map, world, fleet, op, rules, reach) is None]
    if fleet.at_sea:
        legal = [op for op in legal if op.kind in AT_SEA_KINDS]
    seen: set[Operation] = set()
    return [op for op in legal if not (op in seen or seen.add(op))]  # type: ignore[func-returns-value]


def bot_operations(
    world_map: WorldMap, world: WorldState, rules: OpsRules, seed: int
) -> dict[str, Operation]:
    """One legal operation for every fleet marker, drawn from its own seeded
    stream (campaign seed, turn, lead): what a simple bot declares."""
    from pate.core.rng import Rng
    from pate.core.rules.eiaops.declare import fleet_of

    out: dict[str, Operation] = {}
    for sid in sorted(world.ships):
        ship = world.ships[sid]
        if ship.attached_to is not None or not ship.active:
            continue
        fleet = fleet_of(world, ship)
        if fleet is None:
            continue
        legal = legal_operations(world_map, world, fleet, rules)
        if legal:
            out[sid] = Rng.for_phase(seed, world.turn, "operations-bot", sid).choice(legal)
    return out
