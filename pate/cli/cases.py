"""``pate case run FILE...``: run rule case files (docs/formats/cases.md).

Prints one line per case (PASS, FAIL, XFAIL for a known failure, XPASS for
a known failure that now passes), each failure indented below it.  Exit code
0 when all pass, 1 when a case fails, 2 when a case file cannot be read (its
problems are printed as ``FILE:LINE: path: message``; the other files still
run).  Scenario files kept beside the cases (a ``[scenario]`` table, no
``[case]``) are skipped, so ``pate case run dir/*.toml`` works.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("case", help="run rule case files")
    cs = p.add_subparsers(dest="case_command", required=True)
    r = cs.add_parser("run", help="run case files, printing PASS or FAIL for each")
    r.add_argument("files", nargs="+", type=Path, help="case files (TOML)")
    r.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    r.add_argument("-v", "--verbose", action="store_true", help="print what each statement found")
    r.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from pate.engine.cases import CaseFileError, is_scenario_file, load_case, run_case
    from pate.engine.context import turn_context

    ctx = turn_context()
    counts = {"PASS": 0, "FAIL": 0, "XFAIL": 0, "XPASS": 0}
    malformed = skipped = 0
    for path in args.files:
        if is_scenario_file(path):
            skipped += 1
            if not args.quiet:
                print(f"skip  {path}  a scenario file (no [case] table), not a case", flush=True)
            continue
        try:
            case = load_case(path, ctx)
        except CaseFileError as err:
            malformed += 1
            for problem in err.problems:
                print(f"pate: {problem}", file=sys.stderr)
            continue
        result = run_case(case)
        counts[result.status] += 1
        if not (args.quiet and result.ok):
            print(f"{result.status:5} {path}  rule {case.rule}: {case.title}", flush=True)
            if case.xfail and result.status == "XFAIL":
                print(f"      known: {' '.join(case.xfail.split())}")
            for line in result.failures:
                print(f"      {line}")
            if args.verbose:
                for line in result.measured:
                    print(f"      . {line}")
            if result.status == "XPASS":
                print("      the case passes now: remove its xfail")
    failed = counts["FAIL"] + counts["XPASS"]
    print(
        f"{counts['PASS']} passed, {failed} failed, {counts['XFAIL']} known failures (xfail), "
        f"{malformed} unreadable" + (f", {skipped} scenario files skipped" if skipped else ""),
        flush=True,
    )
    if malformed:
        return 2
    return 1 if failed else 0
