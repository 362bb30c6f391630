"""The EiA new naval rules (naval_rules "eia-operations") beside PATE's, in the same run.

Column battles per second at Trafalgar's size (the spec of ``pate battle``);
then one turn of the 1805 grand scenario resolved whole, under PATE's rules
(every ship's default orders) and under the operations rules (every fleet a
bot's legal operation), best of three.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace

from pate.core.orders.model import ShipOrder
from pate.core.rng import Rng
from pate.core.rules.combat import CombatRules
from pate.core.rules.context import TurnContext
from pate.core.rules.eia import EiaRules
from pate.core.rules.eiaops.choices import bot_operations
from pate.core.rules.eiaops.columns import fight_columns
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.spec import parse_columns_spec
from pate.core.rules.turn import resolve_turn
from pate.core.rules.winds import draw_winds
from pate.datafiles import data_dir, load_rule_data, load_scenario, load_world_map


def _columns_rate(seconds: float = 2.0) -> float:
    data = load_rule_data()
    ops, eia = OpsRules.from_rules(data), EiaRules.from_rules(data)
    raw = json.loads((data_dir() / "battles" / "trafalgar-1805.json").read_text(encoding="utf-8"))
    _, ships, cols = parse_columns_spec({**raw, "ruleset": "eia-columns"}, CombatRules.from_rules(data), ops)
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        fight_columns(ships, ops, eia, Rng(count), cols)
        count += 1
    return count / elapsed


def _turn(naval_rules: str) -> tuple[float, int]:
    world_map, data = load_world_map(), load_rule_data()
    ctx = TurnContext(map=world_map, rules=data)
    world = load_scenario("grand1805").world
    world = replace(world, winds=draw_winds(world_map, data, Rng(world.seed)), naval_rules=naval_rules)
    orders: dict[str, ShipOrder] = {}
    if naval_rules == "eia-operations":
        ops = bot_operations(world_map, world, OpsRules.from_rules(data), world.seed)
        orders = {sid: ShipOrder(sid, operation=op) for sid, op in ops.items()}
    best, events = float("inf"), 0
    for _ in range(3):
        start = time.perf_counter()
        result = resolve_turn(ctx, world, orders)
        best = min(best, time.perf_counter() - start)
        events = len(result.events)
    return best, events


def run() -> list[tuple[str, str]]:
    pate_s, pate_events = _turn("pate")
    ops_s, ops_events = _turn("eia-operations")
    return [
        (
            "Trafalgar-size column battles per second, EiA new naval rules (1 process)",
            f"{_columns_rate():,.0f}",
        ),
        ("grand1805 turn 1 resolved, PATE rules (s, best of 3)", f"{pate_s:.2f} ({pate_events} events)"),
        (
            "grand1805 turn 1 resolved, EiA operations rules (s, best of 3)",
            f"{ops_s:.2f} ({ops_events} events)",
        ),
    ]
