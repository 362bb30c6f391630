"""``pate battle``: the battle simulator (its JSON is a public interface).

    pate battle --spec FILE --runs N --seed S     statistics over N battles
    pate battle --spec FILE --seed S --trace      one battle, ship by ship

The spec's ``"ruleset"`` chooses PATE's combat (``"pate"``, the default) or
the EiA advanced naval rules (``"eia-advanced"``, docs/rules/eia.md).

A bad spec prints one line naming the field and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pate.cli import numbers
from pate.cli.main import UserError
from pate.core.ruledata import RulesDataError
from pate.core.rules.combat import BattleSpec, CombatRules, SpecError, parse_spec, simulate, trace
from pate.core.rules.eia import EiaRules
from pate.core.rules.eia.simulate import simulate_eia, trace_eia
from pate.core.rules.eia.spec import EIA_RULESETS, parse_eia_spec, split_spec
from pate.core.rules.eiaops.params import OpsRules
from pate.core.rules.eiaops.spec import COLUMNS, parse_columns_spec, parse_plans_spec, simulate_columns
from pate.datafiles import load_rule_data


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "battle",
        help="simulate one battle many times (or trace it once)",
        description="Fight the battle of a spec file N times and print statistics as JSON, "
        "or fight it once with --trace and print every ship's result.",
    )
    p.add_argument("--spec", required=True, help="battle spec (JSON, see docs/rules/combat.md)")
    p.add_argument(
        "--runs",
        type=numbers.whole(1, 1_000_000, "a number of runs"),
        default=1000,
        help="number of battles (default 1000)",
    )
    p.add_argument("--seed", type=numbers.SEED, default=1, help="seed of the dice (default 1)")
    p.add_argument("--trace", action="store_true", help="fight once and print every ship")
    p.set_defaults(handler=run)


def load_rules() -> CombatRules:
    try:
        return CombatRules.from_rules(load_rule_data())
    except RulesDataError as exc:
        raise UserError(f"rules data: {exc}") from None


def read_spec(path: str) -> Any:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"spec {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"spec {path}: cannot read it ({exc})") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"spec {path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    return raw


def load_spec(path: str, rules: CombatRules) -> BattleSpec:
    try:
        return parse_spec(read_spec(path), rules)
    except SpecError as exc:
        raise UserError(f"spec {path}: {exc}") from None


def run_spec(path: str, raw: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The spec's ``ruleset`` chooses the engine: PATE's (default) or EiA's."""
    rules = load_rules()
    if isinstance(raw, dict) and raw.get("ruleset") == COLUMNS:
        return _columns(path, raw, rules, args)
    try:
        ruleset, _, _ = split_spec(raw)
        if ruleset in EIA_RULESETS:
            spec = parse_eia_spec(raw, rules)
            eia = EiaRules.from_rules(load_rule_data())
            return (
                trace_eia(spec, eia, args.seed)
                if args.trace
                else simulate_eia(spec, eia, args.runs, args.seed)
            )
        pate_spec = parse_spec(raw, rules)
    except SpecError as exc:
        raise UserError(f"spec {path}: {exc}") from None
    except RulesDataError as exc:
        raise UserError(f"rules data: {exc}") from None
    if args.trace:
        return trace(pate_spec, rules, args.seed)
    return simulate(pate_spec, rules, args.runs, args.seed)


def _columns(path: str, raw: dict[str, Any], rules: CombatRules, args: argparse.Namespace) -> dict[str, Any]:
    """The column combat of the EiA new naval rules (docs/rules/eia-operations.md)."""
    data = load_rule_data()
    try:
        ops, eia = OpsRules.from_rules(data), EiaRules.from_rules(data)
        _, ships, columns = parse_columns_spec(raw, rules, ops)
        plans = parse_plans_spec(raw, ops)
    except SpecError as exc:
        raise UserError(f"spec {path}: {exc}") from None
    except RulesDataError as exc:
        raise UserError(f"rules data: {exc}") from None
    return simulate_columns(ships, columns, ops, eia, args.runs, args.seed, plans)


def run(args: argparse.Namespace) -> int:
    if args.runs < 1:
        raise UserError("--runs must be at least 1")
    out = run_spec(args.spec, read_spec(args.spec), args)
    json.dump(out, sys.stdout, indent=None if not args.trace else 1)
    sys.stdout.write("\n")
    return 0
