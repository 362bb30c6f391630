"""The trade ships of the turn: routes, raids on them, protection, money.

Decisions (docs/rules/eia-operations.md): the trade moves once every
operation has been revealed; each Raid or Privateer not yet spent may
intercept one enemy route within its reach; a route under a Protect Trade
operation is defended by (Phase Number)d6 of its ships in a column battle,
the trade ships in it as carrying ships; a raider that is not beaten takes one
trade ship per raiding ship.  Every trade ship that arrives earns its state
$1 (``money.per_trade_ship``); every one taken earns the raider's state the same.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.orders.operation import OpKind
from pate.core.rules.commerce import CommerceRules
from pate.core.rules.eiaops.battle import battle_told, fight
from pate.core.rules.eiaops.model import Declared
from pate.core.rules.eiaops.resolve import Run, detachment
from pate.core.rules.eiaops.steps import nearest
from pate.core.rules.eiaops.trade import Route, routes


def trade_value(run: Run) -> dict[str, int]:
    """Trade ships by state: its trade value (commerce.toml [trade]) in $1 ships."""
    commerce = CommerceRules.of(run.ctx.rules)
    states = sorted({p.state for p in run.world.players.values() if p.state})
    return {s: commerce.trade_of(s) // run.rules.per_trade_ship for s in states}


def open_accounts(run: Run) -> None:
    """An account is opened with ``start_turns`` turns of trade."""
    treasury = dict(run.world.treasury)
    for state, ships in trade_value(run).items():
        treasury.setdefault(state, ships * run.rules.per_trade_ship * run.rules.start_turns)
    run.world = replace(run.world, treasury=treasury)


def trade_step(run: Run) -> None:
    ships = trade_value(run)
    all_routes = routes(run.ctx.map, run.world, ships, run.rules.receiving)
    taken: dict[str, int] = {}
    prizes: dict[str, int] = {}
    left = {r.key: dict(r.ships) for r in all_routes}
    for raider in run.revealed:
        if raider.op.kind not in (OpKind.RAID, OpKind.PRIVATEER) or raider.spent or raider.beaten:
            continue
        if raider.disrupted or not run.alive(raider):
            continue
        route = _target(run, raider, all_routes, left)
        if route is not None:
            _raid(run, raider, route, left[route.key], taken, prizes)
    for r in all_routes:
        visible = _protectors(run, r)
        data = {
            "route": r.key,
            "states": list(r.states),
            "ships": dict(r.ships),
            "left": left[r.key],
            "protected_by": [p.fleet.lead for p in visible],
            "ports": sorted(n for n in r.nodes if n in run.ctx.map.ports),
            "areas": sorted(n for n in r.nodes if n in run.ctx.map.sea_areas),  # drawn on the position map
        }
        seen = tuple(s for p in visible for s in run.alive(p))
        run.events.append(Event(Phase.COMBAT, "trade_route", seen, r.key, (), data))
    _accounts(run, ships, taken, prizes)


def _hostile_ships(run: Run, raider: Declared, ships: dict[str, int]) -> int:
    return sum(n for s, n in ships.items() if run.world.diplomacy.hostile(raider.fleet.state, s))


def _target(
    run: Run, raider: Declared, all_routes: tuple[Route, ...], left: dict[str, dict[str, int]]
) -> Route | None:
    reach = run.reach.get(raider.seq, 0)
    start = run.areas(raider.fleet.place)
    for r in all_routes:
        if _hostile_ships(run, raider, left[r.key]) <= 0:
            continue
        areas = {a for n in r.nodes for a in run.areas(n)}
        if nearest(run.ctx.map, start, areas, reach) is not None:
            return r
    return None


def _protectors(run: Run, route: Route) -> list[Declared]:
    out = []
    for d in run.revealed:
        if d.op.kind is not OpKind.PROTECT_TRADE or d.disrupted or not run.alive(d):
            continue
        if set(d.op.chain) & route.nodes and any(
            run.world.diplomacy.allied(d.fleet.state, s) for s in route.states
        ):
            out.append(d)
    return out


def _raid(
    run: Run,
    raider: Declared,
    route: Route,
    left: dict[str, int],
    taken: dict[str, int],
    prizes: dict[str, int],
) -> None:
    mine, theirs = (
        run.roll("interception", run.rules.manoeuvre_die),
        run.roll("interception", run.rules.manoeuvre_die),
    )
    preferred = run.rules.prefers(raider.op.kind, "trade")
    ok = mine > theirs or (mine == theirs and preferred)
    run.emit(
        "trade_interception",
        raider,
        (),
        route=route.key,
        rolls=[mine, theirs],
        preferred=preferred,
        succeeded=ok,
    )
    if not ok:
        return
    raider.spent = True
    raiders = detachment(run, raider, run.size.get(raider.seq, 1))
    want = min(len(raiders) * run.rules.trade_per_raider, _hostile_ships(run, raider, left))
    guards = _protectors(run, route)
    if guards:
        g = guards[0]
        escort = detachment(run, g, run.size.get(g.seq, len(run.alive(g))))
        victim = next(
            s for s in sorted(left) if left[s] and run.world.diplomacy.hostile(raider.fleet.state, s)
        )
        orders = (raider.op.columns, g.op.columns)
        run.world, result = fight(
            run.world, (raiders, escort), run.rules, run.eia, run.rng, (victim, want), orders
        )
        run.events.append(
            battle_told(
                route.key, result, "protect_trade", {"raider": raider.fleet.lead, "protector": g.fleet.lead}
            )
        )
        if result.winner != 0:
            return
    for state in sorted(left):
        if want <= 0:
            break
        if not run.world.diplomacy.hostile(raider.fleet.state, state):
            continue
        n = min(want, left[state])
        left[state] -= n
        want -= n
        taken[state] = taken.get(state, 0) + n
        prizes[raider.fleet.state] = prizes.get(raider.fleet.state, 0) + n
        data = {"state": state, "by": raider.fleet.state, "route": route.key, "taken": n}
        run.events.append(Event(Phase.COMBAT, "trade_ships_taken", run.alive(raider), route.key, (), data))


def _accounts(run: Run, ships: dict[str, int], taken: dict[str, int], prizes: dict[str, int]) -> None:
    treasury = dict(run.world.treasury)
    per = run.rules.per_trade_ship
    for state in sorted(ships):
        arrived = ships[state] - taken.get(state, 0)
        income = (arrived + prizes.get(state, 0)) * per
        treasury[state] = treasury.get(state, 0) + income
        data = {
            "state": state,
            "ships": ships[state],
            "taken": taken.get(state, 0),
            "arrived": arrived,
            "prizes": prizes.get(state, 0),
            "income": income,
            "money": treasury[state],
        }
        run.events.append(Event(Phase.COMBAT, "treasury", (), "", (), data))
    run.world = replace(run.world, treasury=treasury)
