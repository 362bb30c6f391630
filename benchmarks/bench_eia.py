"""Battles per second under the EiA advanced naval rules beside PATE's, in the same run.

Trafalgar (60 ships, ``data/battles/trafalgar-1805.json``) is fought by both
engines on the same process and core, as ``pate battle`` fights it: PATE's
prepared once, EiA's (which needs no preparation) with Nelson commanding.
Then the combat phase of the 1805 grand scenario under each rule set, every
ship ordered to Engage.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace

from pate.core.orders.model import Combat, CombatStance, ShipOrder
from pate.core.rng import Rng
from pate.core.rules import rulesets
from pate.core.rules.combat import CombatRules, fight_prepared, parse_spec, prepare
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.eia import EiaRules
from pate.core.rules.eia.engine import fight_eia
from pate.core.rules.eia.spec import parse_eia_spec
from pate.core.rules.winds import draw_winds
from pate.datafiles import data_dir, load_rule_data, load_scenario, load_world_map


def _per_second(fn: object, seconds: float = 2.0) -> float:
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            fn(count)  # type: ignore[operator]
            count += 1
    return count / elapsed


def _trafalgar() -> list[tuple[str, str]]:
    data = load_rule_data()
    combat, eia = CombatRules.from_rules(data), EiaRules.from_rules(data)
    raw = json.loads((data_dir() / "battles" / "trafalgar-1805.json").read_text(encoding="utf-8"))
    prepared = prepare(parse_spec(raw, combat).battle, combat)
    battle = parse_eia_spec({**raw, "ruleset": "eia-advanced", "eia": {"nelson": "A"}}, combat).battle
    pate_rate = _per_second(lambda k: fight_prepared(prepared, Rng(k)))
    eia_rate = _per_second(lambda k: fight_eia(battle, eia, Rng(k)))
    return [
        ("Trafalgar battles per second, PATE rules (1 process)", f"{pate_rate:,.0f}"),
        ("Trafalgar battles per second, EiA advanced rules (1 process)", f"{eia_rate:,.0f}"),
    ]


def _grand(rules_name: str) -> tuple[str, str]:
    world_map, data = load_world_map(), load_rule_data()
    ctx = TurnContext(map=world_map, rules=data)
    world = load_scenario("grand1805").world
    world = replace(world, winds=draw_winds(world_map, data, Rng(world.seed)), combat_rules=rules_name)
    orders = {sid: ShipOrder(sid, combat=Combat(stance=CombatStance.ENGAGE)) for sid in world.ships}
    best, battles = float("inf"), 0
    for i in range(5):
        ts = TurnState(world=world, orders=orders)
        start = time.perf_counter()
        out = rulesets.combat_phase(ctx, ts, Rng.for_phase(world.seed, world.turn, "combat", i))
        best = min(best, time.perf_counter() - start)
        battles = sum(1 for e in out.events if e.kind == "battle")
    return f"combat phase, grand 1805, {rules_name}: {battles} battles (ms, best of 5)", f"{best * 1000:.1f}"


def run() -> list[tuple[str, str]]:
    return [*_trafalgar(), _grand("pate"), _grand("eia-advanced")]
