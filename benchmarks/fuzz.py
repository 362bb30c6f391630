"""``python -m benchmarks fuzz``: long runs of the campaign fuzzer.

The fuzzer of ``tests/fuzz`` (random orders from the state, through the order
desk's checks, the resolution, every player's knowledge and their reports) for
as many turns as asked, the scenarios and combat rule sets taken in turn, in
campaigns of up to 15 turns.  Prints the figures, then every crash with the
command that repeats its campaign; exit code 1 if anything crashed or a world
check failed.

    python -m benchmarks fuzz --turns 3000 --seed 7
    python -m benchmarks fuzz --scenario training --rules pate --seed 3 --turns 15
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from tests.fuzz.campaign import RULESETS, SCENARIOS, Campaign, Tally, campaigns


def parse(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--turns", type=int, default=3000, help="turns to play in all (default 3000)")
    p.add_argument("--seed", type=int, default=1, help="the first campaign seed (default 1)")
    p.add_argument("--scenario", choices=SCENARIOS, action="append", help="only this scenario (repeatable)")
    p.add_argument(
        "--rules", choices=RULESETS, action="append", help="only this combat rule set (repeatable)"
    )
    p.add_argument("--length", type=int, default=15, help="turns of each campaign (default 15)")
    p.add_argument(
        "--reports", type=int, default=-1, help="players whose reports are rendered each turn (-1: all)"
    )
    p.add_argument(
        "--odd", type=float, default=0.15, help="the share of orders made implausible (default 0.15)"
    )
    args = p.parse_args(argv)
    if args.turns < 1 or args.length < 1:
        p.error("--turns and --length: give 1 or more")
    if not 0 <= args.odd <= 1:
        p.error("--odd: give a share from 0 to 1")
    return args


def main(argv: Sequence[str]) -> int:
    args = parse(argv)
    total = Tally()
    started = time.perf_counter()
    plan = campaigns(args.turns, args.seed, args.scenario or SCENARIOS, args.rules or RULESETS, args.length)
    for scenario, rules, seed, turns in plan:
        t0 = time.perf_counter()
        tally = Campaign(scenario, rules, seed, reports=args.reports, odd=args.odd).play(turns)
        total.add(tally)
        took = time.perf_counter() - t0
        mark = f"{len(tally.crashes)} crashes" if tally.crashes else "ok"
        print(
            f"  {scenario:<10} {rules:<13} seed {seed:<5} {tally.turns:>3} turns {took:7.1f} s  {mark}",
            flush=True,
        )
    seconds = time.perf_counter() - started
    print(f"== fuzz: {total.turns} turns in {seconds:.1f} s ({seconds / max(total.turns, 1):.3f} s a turn)")
    for label, n in (
        ("orders sent", total.sent["order"]),
        ("orders accepted", total.accepted["order"]),
        ("orders refused", total.refused),
        ("store moves accepted", total.accepted["stores move"]),
        ("officer assignments accepted", total.accepted["assignment"]),
        ("crashes", len(total.crashes)),
        ("world checks failed", len(total.problems)),
    ):
        print(f"  {label:<40} {n}")
    for crash in total.crashes:
        print(
            f"\n{crash}\n  again: python -m benchmarks fuzz --scenario {crash.scenario} --rules {crash.rules}"
            f" --seed {crash.seed} --turns {crash.turn} --reports {args.reports} --odd {args.odd}"
        )
    for problem in total.problems[:50]:
        print(f"  world check: {problem}")
    return 1 if total.crashes or total.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
