"""``pate serve SERVICE``: run one service process; ``pate db migrate`` (other db commands: dbadmin)."""

from __future__ import annotations

import argparse
import importlib

from pate.cli.dbadmin import add_commands

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
    add_commands(dbsub)


def _serve(args: argparse.Namespace) -> int:
    module = importlib.import_module(MODULES.get(args.service, f"services.{args.service}.main"))
    code: int = module.main()
    return code


def _migrate(args: argparse.Namespace) -> int:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from pate.cli.main import UserError
    from services.platform.config import load_settings
    from services.platform.runtime.database import open_engine
    from services.platform.store.db import current_revision, migrate

    settings = load_settings()
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    engine = open_engine(settings.database_url, "migrate", settings)  # a ConfigError names the setting
    try:
        before = current_revision(engine)
        migrate(engine)
        after = current_revision(engine)
    except SQLAlchemyError as err:  # unreachable or refusing: one line, no traceback
        raise UserError(
            f"cannot migrate the database: {type(err).__name__}: {str(err).splitlines()[0][:200]}"
        ) from None
    finally:
        engine.dispose()
    print(migration_summary(shown, before, after, _head()))
    return 0


def migration_summary(shown: str, before: str | None, after: str | None, head: str | None) -> str:
    """What ``pate db migrate`` did, in one line."""
    if before == after:
        return f"database at {shown} is up to date (revision {after})"
    start = "an empty database" if before is None else f"revision {before}"
    line = f"database at {shown} upgraded from {start} to revision {after}"
    return line if after == head else f"{line} (the latest is {head})"


def _head() -> str | None:
    from alembic.script import ScriptDirectory

    from services.platform.store.db import alembic_config

    head: str | None = ScriptDirectory.from_config(alembic_config()).get_current_head()
    return head
