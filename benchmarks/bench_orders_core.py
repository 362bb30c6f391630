"""The order desk's pure core: parsing, validating, effective orders, passwords."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from pate.core.orders.effective import Author, SubmittedOrder, effective_orders
from pate.core.orders.text import format_orders, parse_orders
from pate.core.rules.validation.orders import Actor, validate_order
from pate.datafiles import load_rule_data, load_scenario, load_world_map
from services.platform.security.passwords import hash_matches, hash_password

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "orders"


def _per_second(fn: Callable[[], object], count: int, budget: float = 1.0) -> float:
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        fn()
        done += count
    return done / (time.perf_counter() - start)


def run() -> list[tuple[str, str]]:
    world = load_scenario("training").world
    world_map, rules = load_world_map(), load_rule_data()
    files = {
        p.name.split("-")[0]: parse_orders(p.read_text(encoding="utf-8"))
        for p in sorted(EXAMPLES.glob("*.txt"))
    }
    pairs = [(Actor.of(world.players[pid]), o) for pid, orders in files.items() for o in orders]
    many = [replace(o, ship_id=f"BR{i + 1}SL") for i, (_, o) in enumerate(pairs * 20)]
    text, blocks = format_orders(many), len(many)

    def validate_all() -> None:
        for actor, order in pairs:
            validate_order(order, actor, world, world_map, rules)

    submitted = [SubmittedOrder(o, Author.COMMANDER, i) for i, (_, o) in enumerate(pairs)]
    stored = hash_password("benchmark password")
    start = time.perf_counter()
    for _ in range(5):
        hash_matches(stored, "benchmark password")
    verify_ms = (time.perf_counter() - start) / 5 * 1000
    return [
        ("orders parsed per second (text format)", f"{_per_second(lambda: parse_orders(text), blocks):,.0f}"),
        ("orders validated per second (training scenario)", f"{_per_second(validate_all, len(pairs)):,.0f}"),
        (
            f"effective-order sets per second ({len(world.ships)} ships)",
            f"{_per_second(lambda: effective_orders(world.ships, submitted), 1):,.0f}",
        ),
        ("argon2id password check (ms, default parameters)", f"{verify_ms:.1f}"),
    ]
