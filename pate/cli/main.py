"""``pate``: one command line for players, administrators and operators.

Each sub-command lives in its own module exposing ``add_parser(subparsers)``;
handlers return an exit code.  A user error prints one clear line on stderr
and exits 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# module name -> registered in this order in --help
COMMANDS: tuple[str, ...] = (
    "pate.cli.scenario",
    "pate.cli.campaign",
    "pate.cli.turn",
    "pate.cli.cases",
    "pate.cli.login",
    "pate.cli.account",
    "pate.cli.lobby",
    "pate.cli.orders",
    "pate.cli.absence",
    "pate.cli.battle",
    "pate.cli.serve",
    "pate.cli.upkeep",
    "pate.cli.gitm",
    "pate.cli.tls",
    "pate.cli.health",
    "pate.cli.demo",
)


class UserError(Exception):
    """A problem the user can fix; printed without a traceback."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pate", description="PATE naval campaign server")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # that command is not built yet
            raise
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from sqlalchemy.exc import OperationalError

    from services.platform.config import ConfigError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except (UserError, ConfigError) as exc:  # ConfigError: a PATE_* variable holds a bad value
        print(f"pate: {exc}", file=sys.stderr)
        return 2
    except OperationalError as exc:  # during a failover, exactly when an operator asks
        print(f"pate: {database_unreachable(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return code


def database_unreachable(exc: BaseException) -> str:
    """One line for a database that does not answer: the driver's error class only, never its
    text, which may carry the statement, the host or the user."""
    cause = getattr(exc, "orig", None) or exc
    return (
        f"the database cannot be reached ({type(cause).__name__}): is PATE_DATABASE_URL right, "
        "and is the server up? Try again in a moment during a failover."
    )


if __name__ == "__main__":
    # run as ``python -m pate.cli.main``: use the importable module, so that the
    # UserError the sub-commands raise is the one caught here
    from pate.cli.main import main as _main

    sys.exit(_main())
