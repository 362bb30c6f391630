"""Battles per second of the battle engine, and the combat phase of the 1805 grand scenario.

Everything runs in this one process on one core.  Trafalgar (60 ships, spec
``data/battles/trafalgar-1805.json``) is fought as the simulator fights it
(prepared once, then fought again and again), and as the combat phase fights
it (prepared for every battle).  The combat phase is timed on the 1805 grand
scenario with every ship ordered to Engage, so that every contact with an
enemy becomes a battle.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import replace

from pate.core.orders.model import Combat, CombatStance, ShipOrder
from pate.core.rng import Rng
from pate.core.rules.combat import CombatRules, combat_phase, fight, fight_prepared, parse_spec, prepare
from pate.core.rules.combat.phase import contact_groups
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.winds import draw_winds
from pate.datafiles import data_dir, load_rule_data, load_scenario, load_world_map


def _per_second(fn: object, seconds: float = 2.0) -> float:
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(50):
            fn(count)  # type: ignore[operator]
            count += 1
    return count / elapsed


def _trafalgar() -> list[tuple[str, str]]:
    rules = CombatRules.from_rules(load_rule_data())
    raw = json.loads((data_dir() / "battles" / "trafalgar-1805.json").read_text(encoding="utf-8"))
    battle = parse_spec(raw, rules).battle
    prepared = prepare(battle, rules)
    sim = _per_second(lambda k: fight_prepared(prepared, Rng(k)))
    full = _per_second(lambda k: fight(battle, rules, Rng(k)))
    cores = os.cpu_count() or 1
    return [
        (
            f"Trafalgar battles per second ({len(battle.ships)} ships, simulator path, 1 process)",
            f"{sim:,.0f}",
        ),
        ("Trafalgar battles per second (prepared for every battle, 1 process)", f"{full:,.0f}"),
        ("cores on this machine (the figures above use one)", str(cores)),
    ]


def _grand_phase() -> list[tuple[str, str]]:
    world_map, rules = load_world_map(), load_rule_data()
    ctx = TurnContext(map=world_map, rules=rules)
    world = load_scenario("grand1805").world
    world = replace(world, winds=draw_winds(world_map, rules, Rng(world.seed)))
    orders = {sid: ShipOrder(sid, combat=Combat(stance=CombatStance.ENGAGE)) for sid in world.ships}
    groups = contact_groups(world)
    best = float("inf")
    battles = 0
    for i in range(5):
        ts = TurnState(world=world, orders=orders)
        start = time.perf_counter()
        out = combat_phase(ctx, ts, Rng.for_phase(world.seed, world.turn, "combat", i))
        best = min(best, time.perf_counter() - start)
        battles = sum(1 for e in out.events if e.kind == "battle")
    return [
        (
            f"combat phase, grand 1805: {len(world.ships)} ships, {len(groups)} contacts, "
            f"{battles} battles (ms, best of 5)",
            f"{best * 1000:.1f}",
        )
    ]


def run() -> list[tuple[str, str]]:
    rows = _trafalgar()
    try:
        rows += _grand_phase()
    except (FileNotFoundError, ValueError) as exc:
        rows.append(("combat phase, grand 1805", f"not available: {exc}"))
    return rows
