"""The leave-one-out section of ``docs/calibration.md`` (``pate.tools.calibrate``).

Fights the grid of ``data/battles/fit.toml`` over the battles (see
:mod:`pate.tools.calibrate_fit`) and renders each battle's prediction by the
constants chosen without it, beside the in-sample choice, the goals' tally and
the reason for every miss (the spec's ``limits``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pate.datafiles import load_rule_data
from pate.tools.calibrate_fit import Fit, Grid, Score, leave_one_out, load_grid, score_table

WINNER_GOAL = 0.9
LOSSES_GOAL = 0.8


def fit_rows(rows: Sequence[Any], grid: Grid | None = None) -> tuple[Fit, list[list[Score]]]:
    grid = grid or load_grid(rows[0].path.parent if rows else None)
    table = score_table([r.spec for r in rows], load_rule_data(), grid)
    return leave_one_out(table, grid), table


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def _changed(fit: Fit, c: int) -> str:
    chosen, base = fit.candidate(c), fit.candidate(fit.in_sample)
    diff = [f"{k} = {v:g}" for k, v in chosen.items() if v != base[k]]
    return ", ".join(diff) if diff else "same"


def loo_section(
    rows: Sequence[Any], fit: Fit, table: Sequence[Sequence[Score]], current: dict[str, float]
) -> list[str]:
    grid = fit.grid
    n = len(rows)
    best = fit.candidate(fit.in_sample)
    lines = [
        "",
        "## Leave-one-out: battles predicted by constants fitted without them",
        "",
        f"The grid of `data/battles/fit.toml` ({len(table)} candidates: every combination of "
        + ", ".join(f"`{k.name}` in {list(k.values)}" for k in grid.knobs)
        + f") is fought over every battle, {grid.runs} runs each (seed {grid.seed}). A candidate's "
        "misses on a set of battles are the battles whose historical winner is not the likeliest "
        "result plus those whose loser's mean losses are not within a factor of two of history "
        "(ties: the smaller summed |ln(mean / history)|). Each battle below is fought with the "
        "candidate chosen on the *other* battles; the in-sample columns use the candidate chosen "
        "on all of them.",
        "",
        "In-sample choice: "
        + ", ".join(f"`{k}` = {v:g}" for k, v in best.items())
        + (
            " (the values of `data/rules/combat.toml`)."
            if all(current.get(k) == v for k, v in best.items())
            else " (**not** the values of `data/rules/combat.toml`: "
            + ", ".join(f"`{k}` = {current.get(k)}" for k in best)
            + ")."
        ),
        "",
        "| battle | winner | left out: wins A / B / draws | winner likeliest | loser lost (history) | "
        "left out: mean | mean / history | within 2 | in-sample: mean / history | "
        "constants chosen without it |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for k, r in enumerate(rows):
        c, s = fit.held_out[k]
        ins = table[fit.in_sample][k]
        runs = sum(s.wins)
        lines.append(
            f"| {r.spec.name} | {r.winner} | {_pct(s.wins[0], runs)} / {_pct(s.wins[1], runs)} / "
            f"{_pct(s.wins[2], runs)} | {'yes' if s.winner_ok else '**no**'} | {r.historical_lost} | "
            f"{s.mean_lost:.2f} | {s.ratio:.2f} | {'yes' if s.losses_ok else '**no**'} | "
            f"{ins.ratio:.2f} | {_changed(fit, c)} |"
        )
    won = sum(s.winner_ok for _, s in fit.held_out)
    within = sum(s.losses_ok for _, s in fit.held_out)
    won_goal = "met" if won >= WINNER_GOAL * n else "**not met**"
    within_goal = "met" if within >= LOSSES_GOAL * n else "**not met**"
    lines += [
        "",
        f"**Goals, left out:** the historical winner is the likeliest result in {won} of {n} battles "
        f"({_pct(won, n)}; goal {WINNER_GOAL:.0%}: {won_goal}); "
        f"the loser's mean losses are within a factor of two of history in {within} of {n} "
        f"({_pct(within, n)}; goal {LOSSES_GOAL:.0%}: {within_goal}).",
    ]
    return lines + _misses(rows, fit)


def _misses(rows: Sequence[Any], fit: Fit) -> list[str]:
    lines = ["", "### Why each miss misses", ""]
    for k, r in enumerate(rows):
        _, s = fit.held_out[k]
        if s.misses == 0:
            continue
        what = []
        if not s.winner_ok:
            what.append("the historical winner is not the likeliest result")
        if not s.losses_ok:
            what.append(f"the loser's losses are {s.ratio:.2f} times history")
        lines.append(f"- **{r.spec.name}** ({'; '.join(what)}): " + " ".join(_limits(r)))
    return lines


def _limits(row: Any) -> list[str]:
    raw = json.loads(row.path.read_text(encoding="utf-8"))
    items = raw.get("limits", ["no reason recorded in the spec's `limits`."])
    return [str(a) for a in items] if isinstance(items, list) else [str(items)]


def current_values(grid: Grid) -> dict[str, float]:
    section: Any = load_rule_data().section("combat")
    out = {}
    for k in grid.knobs:
        node = section
        for key in k.path:
            node = node[key]
        out[k.name] = float(node)
    return out
