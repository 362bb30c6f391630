"""``pate gitm check --addr HOST:PORT``: the gitm.v1 conformance suite; ``pate gitm reconcile
CAMPAIGN [--repair]``: PATE's world beside GITM's snapshot (docs/gitm.md "Reconciliation")."""

from __future__ import annotations

import argparse
import shlex
import subprocess
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from pate.cli.main import UserError

if TYPE_CHECKING:
    from services.resolver.reconcile import Outcome

RESTART_WAIT_SECONDS = 60.0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("gitm", help="the GITM land bridge (gitm.v1) kit")
    gsub = p.add_subparsers(dest="gitm_command", required=True)
    c = gsub.add_parser(
        "check",
        help="run the gitm.v1 conformance suite against a land service",
        description=(
            "Dials as PATE does: TLS and mutual TLS from PATE_TLS_CA, PATE_TLS_CLIENT_CERT,"
            " PATE_TLS_CLIENT_KEY, PATE_GITM_TLS_CA and PATE_GITM_TLS_SERVER_NAME (plaintext without"
            " them); docs/gitm.md 'Checking an implementation'."
        ),
    )
    c.add_argument("--addr", required=True, help="HOST:PORT of the land service")
    c.add_argument(
        "--campaign",
        default=None,
        help=(
            "a campaign id of its own, new each run, which the suite opens and closes (default: a new"
            " conformance-<8 hex>; a run whose open fails, or stopped halfway, leaves it open)"
        ),
    )
    c.add_argument("--port", default="Portsmouth", help="a port city on the GITM map (default Portsmouth)")
    c.add_argument("--timeout", type=float, default=5.0, help="seconds per call (default 5, at most 120)")
    c.add_argument(
        "--token",
        default=None,
        help=(
            "PATE's caller token the service expects (x-pate-gitm-token;"
            " default $PATE_GITM_TOKEN or the file $PATE_GITM_TOKEN_FILE)"
        ),
    )
    c.add_argument(
        "--restart-command",
        default="",
        help=(
            "a command that restarts the land service, run without a shell; the suite then waits up to"
            " 60 s for it to answer (the durability row, L16; skipped without it)"
        ),
    )
    c.set_defaults(handler=_check)
    r = gsub.add_parser(
        "reconcile",
        help="list every disagreement between PATE's world and GITM's snapshot of a campaign",
        description=(
            "Compares PATE's store with GITM's GetLandSnapshot (edition 4): transfers, units aboard,"
            " garrisons and stocks where PATE's ships lie, holders. --repair settles what a rule lets"
            " PATE settle (docs/gitm.md 'Reconciliation', R1 to R3) with the contract's own calls."
            " Exit status 1 while a disagreement needs a repair or the operators."
        ),
    )
    r.add_argument("campaign", help="the campaign id")
    r.add_argument(
        "--repair", action="store_true", help="settle what rules R1 to R3 settle, then compare again"
    )
    r.add_argument("--addr", default=None, help="HOST:PORT of the land service (default: PATE_GITM_ADDR)")
    r.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    r.set_defaults(handler=_reconcile)
    from pate.cli.gitm_ops import add_commands

    add_commands(gsub)  # end, export, audit


def restarter(command: str, addr: str) -> Callable[[], None]:
    """Runs ``command`` (split into words, without a shell) and waits until the service at
    ``addr`` serves again.  A command that cannot run, fails or hangs fails the durability row
    with what went wrong, never the whole suite."""
    import grpc

    from pate.gitmkit.rows import CheckFailedError
    from services.platform.security import tls
    from services.resolver.gitm import gitm_tls

    argv = shlex.split(command)
    if not argv:
        raise UserError("--restart-command: empty")

    def restart() -> None:
        try:
            subprocess.run(argv, check=True, timeout=RESTART_WAIT_SECONDS)
        except FileNotFoundError:
            raise CheckFailedError(
                f"--restart-command: {argv[0]!r} not found (the command runs without a shell: "
                "for 'cd' or '&&' give sh -c '...')"
            ) from None
        except (OSError, subprocess.SubprocessError) as exc:
            raise CheckFailedError(f"--restart-command failed: {str(exc)[:200]}") from None
        with tls.channel(addr, gitm_tls()) as channel:
            try:
                grpc.channel_ready_future(channel).result(timeout=RESTART_WAIT_SECONDS)
            except grpc.FutureTimeoutError:
                raise CheckFailedError(
                    f"the land service did not serve again within {RESTART_WAIT_SECONDS:.0f} s of the restart"
                ) from None

    return restart


def _check(args: argparse.Namespace) -> int:
    from pate.gitmkit.check import passed, run_suite, table
    from services.platform.config import ConfigError
    from services.platform.security import tls
    from services.resolver.gitm import caller_token, gitm_tls

    host, sep, port = args.addr.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise UserError(f"--addr {args.addr!r}: expected HOST:PORT")
    if not 0 < args.timeout <= 120:
        raise UserError("--timeout: expected seconds between 0 and 120")
    campaign = args.campaign or f"conformance-{uuid.uuid4().hex[:8]}"
    restart = restarter(args.restart_command, args.addr) if args.restart_command else None
    try:
        token = caller_token()() if args.token is None else args.token.strip()
        # TLS and mutual TLS from PATE_TLS_* and PATE_GITM_TLS_*, as PATE's bridge dials
        channel = tls.channel(args.addr, gitm_tls())
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    started = time.monotonic()
    with channel:
        rows = run_suite(
            args.addr,
            campaign,
            args.port,
            timeout=args.timeout,
            token=token,
            restart=restart,
            channel=channel,
        )
    print(f"gitm.v1 conformance of {args.addr} (campaign {campaign}, city {args.port})")
    print(table(rows))
    print(f"{time.monotonic() - started:.1f} s")
    return 0 if passed(rows) else 1


def _reconcile(args: argparse.Namespace) -> int:
    from pate.cli.turn import _open
    from pate.engine.context import turn_context
    from services.platform.config import ConfigError, gitm_address
    from services.platform.store.db import reader
    from services.resolver.gitm import GitmClient, configured_timeout
    from services.resolver.reconcile import pate_side, reconcile

    addr = args.addr or gitm_address()
    if not addr:
        raise UserError("--addr: no land service (give --addr or set PATE_GITM_ADDR)")
    engine = _open(args.database)
    try:
        with reader(engine) as conn:
            side = pate_side(conn, args.campaign)
    except LookupError as exc:
        raise UserError(str(exc)) from None
    finally:
        engine.dispose()
    try:
        client = GitmClient(addr, timeout=configured_timeout())
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    try:
        outcome = reconcile(client, side, turn_context().map, repair=args.repair)
    finally:
        client.close()
    print(report(args.campaign, addr, outcome))
    return 0 if outcome.settled else 1


def report(campaign: str, addr: str, outcome: Outcome) -> str:
    """What was found, what was sent, what is left: one line each."""
    lines = [f"gitm reconcile of {campaign} against {addr}: {len(outcome.found)} disagreement(s) found"]
    lines += [f"  {d.line()}" for d in outcome.found]
    if outcome.repairs:
        lines.append(f"repairs ({len(outcome.repairs)}):")
        lines += [f"  {r}" for r in outcome.repairs]
        lines.append(f"after the repairs: {len(outcome.left)} left")
        lines += [f"  {d.line()}" for d in outcome.left]
    lines.append(
        "settled" if outcome.settled else "NOT settled: a repair to make (--repair) or the operators"
    )
    return "\n".join(lines)
