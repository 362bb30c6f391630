"""``pate turn replay CAMPAIGN TURN``: re-resolve a stored turn and check that
it reproduces the stored result byte for byte (reads PATE_DATABASE_URL)."""

from __future__ import annotations

import argparse
from pathlib import Path

from pate.cli.main import UserError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("turn", help="inspect stored turns")
    ts = p.add_subparsers(dest="turn_command", required=True)
    r = ts.add_parser("replay", help="re-resolve a stored turn and compare with the stored result")
    r.add_argument("campaign")
    r.add_argument("turn", type=int)
    r.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    r.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from services.platform.config import load_settings
    from services.platform.store.db import make_engine, reader
    from services.resolver.replay import replay_turn

    url = args.database or load_settings().database_url
    try:
        parsed = make_url(url)
    except SQLAlchemyError:
        raise UserError(f"--database: {url[:80]!r} is not a database URL") from None
    where = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").is_file():
        # opening it would create an empty database file: say what is missing instead
        raise UserError(f"no database at {where} (give --database or PATE_DATABASE_URL)")
    engine = make_engine(url)
    try:
        with reader(engine) as conn:
            outcome = replay_turn(conn, args.campaign, args.turn)
    except LookupError as err:
        raise UserError(str(err)) from None
    except SQLAlchemyError as err:
        raise UserError(
            f"cannot read {where}: {type(err).__name__} (is it a migrated PATE database?)"
        ) from None
    finally:
        engine.dispose()
    if outcome.identical:
        print(f"turn {args.turn} of {args.campaign}: replay identical ({outcome.stored_sha256})")
        return 0
    print(
        f"turn {args.turn} of {args.campaign}: replay DIFFERS: stored {outcome.stored_sha256},"
        f" replayed {outcome.replayed_sha256}"
    )
    return 1
