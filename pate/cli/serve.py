"""``pate serve SERVICE``: run one service process; ``pate db migrate``."""

from __future__ import annotations

import argparse
import importlib

SERVICES = ("orders", "resolver", "intel", "reports", "web", "notifier", "admiral")
# not a PATE service: the reference GITM land service (docs/gitm.md)
MODULES = {"gitm-reference": "services.gitm_reference.main"}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run one service process (configured by PATE_* variables)")
    p.add_argument("service", choices=(*SERVICES, *MODULES))
    p.set_defaults(handler=_serve)
    db = sub.add_parser("db", help="database administration")
    dbsub = db.add_subparsers(dest="db_command", required=True)
    m = dbsub.add_parser("migrate", help="upgrade the database schema (PATE_DATABASE_URL) to the latest")
    m.set_defaults(handler=_migrate)


def _serve(args: argparse.Namespace) -> int:
    module = importlib.import_module(MODULES.get(args.service, f"services.{args.service}.main"))
    code: int = module.main()
    return code


def _migrate(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from pate.cli.main import UserError
    from services.platform.config import load_settings
    from services.platform.store.db import migrate

    settings = load_settings()
    try:
        migrate(settings.database_url)
    except SQLAlchemyError as err:  # unreachable or refusing: one line, no traceback
        raise UserError(
            f"cannot migrate the database: {type(err).__name__}: {str(err).splitlines()[0][:200]}"
        ) from None
    from sqlalchemy.engine import make_url

    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    print(f"database at {shown} is up to date")
    return 0
