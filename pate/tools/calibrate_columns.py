"""The column combat of the EiA new naval rules fought over the historical
battle set of docs/calibration.md, and the fit of its free constants.

``python -m pate.tools.calibrate_columns`` prints, as Markdown, each candidate
of ``data/battles/columns_fit.toml`` with its misses, then every battle under
the constants of ``data/rules/eia_operations.toml``.  A battle *holds* as in
docs/calibration.md: the historical winner is the likeliest result, and the
loser's ships disabled (the column combat's losses: one exchange of fire,
after which the beaten side withdraws) lie within a factor of two of the
ships it lost.  A miss is either failing; ties go to the smaller summed
|ln(mean / history)|.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import tomllib
from collections.abc import Iterator
from typing import Any

from pate.core.rules.combat.params import CombatRules
from pate.core.rules.eia.params import EiaRules
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.spec import COLUMNS, parse_columns_spec, simulate_columns
from pate.core.world.ships import Quality
from pate.datafiles import data_dir, load_rule_data

NELSON = {"nile-1798.json": "A", "trafalgar-1805.json": "A"}  # as pate.tools.calibrate_eia


def battles() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted((data_dir() / "battles").glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        if "winner" not in raw.get("history", {}):
            continue
        out.append((path.name, raw))
    return out


def fight_all(ops: OpsRules, runs: int, seed: int) -> list[dict[str, Any]]:
    data = load_rule_data()
    combat, eia = CombatRules.from_rules(data), EiaRules.from_rules(data)
    rows = []
    for name, raw in battles():
        spec = {**raw, "ruleset": COLUMNS}
        if name in NELSON:
            spec["admirals"] = {NELSON[name]: ops.nelson_rating}
        parsed, ships, cols = parse_columns_spec(spec, combat, ops)
        result = simulate_columns(ships, cols, ops, eia, runs, seed)
        winner = str(raw["history"]["winner"])
        loser = "B" if winner == "A" else "A"
        wins = result["wins"]
        lost = result["disabled_mean"][loser]
        history = int(raw["history"]["loser_lost"])
        ratio = lost / max(1, history)
        rows.append(
            {
                "name": parsed.name,
                "winner": winner,
                "wins": wins,
                "lost": lost,
                "history": history,
                "ratio": ratio,
                "likeliest": wins[winner] > max(wins[loser], wins["undecided"]),
                "within": 0.5 <= ratio <= 2.0,
            }
        )
    return rows


def score(rows: list[dict[str, Any]]) -> tuple[int, float]:
    misses = sum((not r["likeliest"]) + (not r["within"]) for r in rows)
    return misses, sum(abs(math.log(max(r["ratio"], 1e-3))) for r in rows)


def candidates(grid: dict[str, Any], base: OpsRules) -> Iterator[tuple[str, OpsRules]]:
    points = sorted(int(q) for q in Quality)
    for (qn, q), (tn, t), dis, fs in itertools.product(
        grid["quality_fire"].items(),
        grid["type_fire"].items(),
        grid["disabled_at"],
        grid["first_strike_modifier"],
    ):
        ops = dataclasses.replace(
            base,
            quality_fire=dict(zip(points, (int(x) for x in q), strict=True)),
            type_fire={str(k): int(v) for k, v in t.items()},
            disabled_at=int(dis),
            first_strike_modifier=int(fs),
        )
        yield f"quality_fire {qn}, type_fire {tn}, disabled_at {dis}, first_strike_modifier {fs}", ops


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render(runs: int, seed: int, fit: bool) -> list[str]:
    base = OpsRules.from_rules(load_rule_data())
    lines: list[str] = []
    if fit:
        grid = tomllib.loads((data_dir() / "battles" / "columns_fit.toml").read_text(encoding="utf-8"))
        runs_fit, seed_fit = int(grid["runs"]), int(grid["seed"])
        scored = sorted(
            (score(fight_all(ops, runs_fit, seed_fit)), name) for name, ops in candidates(grid, base)
        )
        lines += [f"Grid of `data/battles/columns_fit.toml`, {runs_fit} runs a battle (seed {seed_fit}):", ""]
        lines += ["| candidate | misses | summed abs(ln(mean / history)) |", "|---|---|---|"]
        lines += [f"| {name} | {m} | {e:.2f} |" for (m, e), name in scored]
        lines.append("")
    rows = fight_all(base, runs, seed)
    misses, err = score(rows)
    lines += [
        f"The constants of `data/rules/eia_operations.toml`, {runs} runs a battle (seed {seed}): "
        f"{misses} misses, summed abs(ln) {err:.2f}.",
        "",
        "| battle | historical winner | wins A / B / undecided | loser disabled (mean) | lost (history) "
        "| holds |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        w = r["wins"]
        holds = "yes" if r["likeliest"] and r["within"] else "**no**"
        lines.append(
            f"| {r['name']} | {r['winner']} | {_pct(w['A'])} / {_pct(w['B'])} / {_pct(w['undecided'])} | "
            f"{r['lost']:.1f} | {r['history']} | {holds} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pate.tools.calibrate_columns", description=__doc__)
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-fit", action="store_true", help="only the battles under the current constants")
    args = ap.parse_args(argv)
    print("\n".join(render(args.runs, args.seed, not args.no_fit)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
