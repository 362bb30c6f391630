"""``pate gitm check --addr HOST:PORT``: the gitm.v1 conformance suite (docs/gitm.md)."""

from __future__ import annotations

import argparse
import uuid

from pate.cli.main import UserError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("gitm", help="the GITM land bridge (gitm.v1) kit")
    gsub = p.add_subparsers(dest="gitm_command", required=True)
    c = gsub.add_parser("check", help="run the gitm.v1 conformance suite against a land service")
    c.add_argument("--addr", required=True, help="HOST:PORT of the land service")
    c.add_argument(
        "--campaign",
        default=None,
        help="a campaign of its own the suite may change (default: a new id; the reference service "
        "starts it as the training scenario)",
    )
    c.add_argument(
        "--port", default="Portsmouth", help="a port city where at least one unit and one supply stand"
    )
    c.add_argument("--timeout", type=float, default=5.0, help="seconds per call")
    c.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> int:
    from pate.gitmkit.check import run_suite, table

    host, sep, port = args.addr.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise UserError(f"--addr {args.addr!r}: expected HOST:PORT")
    if not 0 < args.timeout <= 120:
        raise UserError("--timeout: expected seconds between 0 and 120")
    campaign = args.campaign or f"conformance-{uuid.uuid4().hex[:8]}"
    rows = run_suite(args.addr, campaign, args.port, timeout=args.timeout)
    print(f"gitm.v1 conformance of {args.addr} (campaign {campaign}, city {args.port})")
    print(table(rows))
    return 0 if all(r.passed for r in rows) else 1
