"""The historical battles of ``docs/calibration.md`` under the EiA advanced
naval rules, beside PATE's own results (docs/rules/eia.md).

:func:`eia_section` renders the section that ``pate.tools.calibrate`` appends
to ``docs/calibration.md``: the same specs and runs, fought with
``"ruleset": "eia-advanced"`` (Nelson commanding at the Nile and Trafalgar).
"""

from __future__ import annotations

import json
from typing import Any

from pate.core.rules.combat import CombatRules
from pate.core.rules.eia import EiaRules
from pate.core.rules.eia.simulate import simulate_eia
from pate.core.rules.eia.spec import EIA, parse_eia_spec
from pate.datafiles import load_rule_data

# Nelson commanded the British at these battles (12.2.7).
NELSON = {"nile-1798.json": "A", "trafalgar-1805.json": "A"}

DIFFERENCES = """\
**Where the two rule sets differ, and why.** PATE decides a battle by the
strength of every ship (crew, Marines, quality, experience, damage, the
weather gauge, breaking the line) and settles each ship's fate by its own
damage; the beaten side's ships are taken or sunk one by one, so a crushing
victory such as Trafalgar or the Nile takes most of the beaten fleet. The
EiA rules know none of this: a fleet is a number of factors with a
nationality, and a battle is at most three rounds on the tables of the chart,
ended by morale. Since the morale a round costs does not grow with the
number of ships, who wins depends on the chits, the nationalities and the
ratio of numbers, not on the size of the fleets: the Nile and Trafalgar
(both a British melee under Nelson against a French line in linear defense,
both under 2:1) come out with the same odds, only their losses differ.
Under them the British win these battles by their morale
(4.0 against 3.0), the nationality modifier (+1 with melee or linear attack)
and, at Trafalgar and the Nile, the melee force's second set of tables once
it has closed (Nelson's -2 makes closing against linear defense a 1-5). But
the casualty table disables at most 15-20% of a force a round, so a beaten
fleet loses far fewer ships than history had it: the defeated side's ships
not disabled simply retreat (12.2.6.1.8), and only the disabled ones, taken
by the victor, are lost (or sink on the way to port). Equal battles with
linear tactics on both sides (Calder's action) end inconclusively far more
often than under PATE, since three rounds of 1-2 to 3-3 tables rarely break
anyone; that is EiA's design, where a naval battle seldom destroys a fleet
and its losses are counted in factors over many battles. The EiA figures are
reported, not tuned: the rules and their tables are kept as written.
"""


def eia_rows(runs: int, seed: int, files: list[Any]) -> list[tuple[Any, dict[str, Any]]]:
    """(PATE row, EiA summary) for each calibration row."""
    combat = CombatRules.from_rules(load_rule_data())
    eia = EiaRules.from_rules(load_rule_data())
    out = []
    for row in files:
        raw = json.loads(row.path.read_text(encoding="utf-8"))
        raw["ruleset"] = EIA
        if row.path.name in NELSON:
            raw["eia"] = {"nelson": NELSON[row.path.name]}
        spec = parse_eia_spec(raw, combat)
        out.append((row, simulate_eia(spec, eia, runs, seed)))
    return out


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def eia_section(rows: list[Any], runs: int, seed: int) -> list[str]:
    lines = [
        "",
        '## Under the EiA advanced naval rules (`"ruleset": "eia-advanced"`)',
        "",
        f"The same specs, runs ({runs}) and seed ({seed}) fought under the optional EiA rules",
        "(docs/rules/eia.md; `pate.tools.calibrate_eia`); chits from the specs' orders, Nelson",
        "commanding at the Nile and Trafalgar. *Lost* is a ship sunk or in enemy hands at the end",
        "(a disabled ship the victor took home, or one lost on the way); the winner's disabled",
        "ships that reached port are hulks, not lost.",
        "",
        "| battle | historical winner, loser lost | PATE wins A / B / draws | PATE loser lost (mean) | "
        "EiA wins A / B / draws | EiA loser lost mean [p10, p50, p90] | EiA loser disabled (mean) | "
        "EiA winner lost (mean) | EiA likeliest result |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row, s in eia_rows(runs, seed, rows):
        loser = s["sides"][row.loser]
        winner = s["sides"][row.winner]
        lost = loser["lost"]
        outcomes = {"A": s["sides"]["A"]["wins"], "B": s["sides"]["B"]["wins"], "draw": s["draws"]}
        likeliest = max(outcomes, key=lambda k: outcomes[k])
        pate_draws = _pct(row.summary["draws"], runs)
        lines.append(
            f"| {row.spec.name} | {row.winner}, {row.historical_lost} | "
            f"{_pct(row.wins('A'), runs)} / {_pct(row.wins('B'), runs)} / {pate_draws} | "
            f"{row.lost['mean']:.1f} | "
            f"{_pct(s['sides']['A']['wins'], runs)} / {_pct(s['sides']['B']['wins'], runs)} / "
            f"{_pct(s['draws'], runs)} | "
            f"{lost['mean']:.1f} [{lost['p10']}, {lost['p50']}, {lost['p90']}] | "
            f"{loser['disabled']['mean']:.1f} | {winner['lost']['mean']:.2f} | "
            f"{likeliest if likeliest == row.winner else f'**{likeliest}**'} |"
        )
    lines += ["", *DIFFERENCES.rstrip().splitlines()]
    return lines
