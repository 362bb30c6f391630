"""``pate battle``: the battle simulator (issue 6; its JSON is a public interface).

    pate battle --spec FILE --runs N --seed S     statistics over N battles
    pate battle --spec FILE --seed S --trace      one battle, ship by ship

A bad spec prints one line naming the field and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pate.cli.main import UserError
from pate.core.rules.combat import BattleSpec, CombatRules, SpecError, parse_spec, simulate, trace
from pate.core.rules.data import RulesDataError
from pate.datafiles import load_rule_data


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "battle",
        help="simulate one battle many times (or trace it once)",
        description="Fight the battle of a spec file N times and print statistics as JSON, "
        "or fight it once with --trace and print every ship's result.",
    )
    p.add_argument("--spec", required=True, help="battle spec (JSON, see docs/rules/combat.md)")
    p.add_argument("--runs", type=int, default=1000, help="number of battles (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the dice (default 1)")
    p.add_argument("--trace", action="store_true", help="fight once and print every ship")
    p.set_defaults(handler=run)


def load_rules() -> CombatRules:
    try:
        return CombatRules.from_rules(load_rule_data())
    except RulesDataError as exc:
        raise UserError(f"rules data: {exc}") from None


def load_spec(path: str, rules: CombatRules) -> BattleSpec:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"spec {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"spec {path}: cannot read it ({exc})") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"spec {path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    try:
        return parse_spec(raw, rules)
    except SpecError as exc:
        raise UserError(f"spec {path}: {exc}") from None


def run(args: argparse.Namespace) -> int:
    if args.runs < 1:
        raise UserError("--runs must be at least 1")
    rules = load_rules()
    spec = load_spec(args.spec, rules)
    out = trace(spec, rules, args.seed) if args.trace else simulate(spec, rules, args.runs, args.seed)
    json.dump(out, sys.stdout, indent=None if not args.trace else 1)
    sys.stdout.write("\n")
    return 0
