"""``pate turn replay CAMPAIGN TURN``: re-resolve a stored turn and check that
it reproduces the stored result byte for byte; ``pate turn stuck`` and ``poison``:
turns waiting for an event nobody handles, and poison messages (all read
PATE_DATABASE_URL).  Either kind of turn is sent on again by the one retry,
``pate campaign retry CAMPAIGN --turn N`` (the RetryTurn RPC)."""

from __future__ import annotations

import argparse
from pathlib import Path

from pate.cli import numbers
from pate.cli.main import UserError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("turn", help="inspect stored turns")
    ts = p.add_subparsers(dest="turn_command", required=True)
    r = ts.add_parser("replay", help="re-resolve a stored turn and compare with the stored result")
    r.add_argument("campaign")
    r.add_argument("turn", type=numbers.TURN)
    r.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    r.set_defaults(handler=_replay)
    st = ts.add_parser("stuck", help="list campaigns waiting too long for their last event")
    st.add_argument(
        "--older-than", type=numbers.whole(0, 10**9, "seconds"), default=600, help="seconds (default 600)"
    )
    st.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    st.set_defaults(handler=_stuck)
    po = ts.add_parser("poison", help="list messages terminated as poison (newest first)")
    po.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    po.set_defaults(handler=_poison)


def _open(database: str | None):  # type: ignore[no-untyped-def]
    """An engine on an existing PATE database, or a UserError saying what is missing."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from services.platform.config import load_settings
    from services.platform.store.db import make_engine

    url = database or load_settings().database_url
    try:
        parsed = make_url(url)
    except SQLAlchemyError:
        raise UserError(f"--database: {url[:80]!r} is not a database URL") from None
    where = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").is_file():
        raise UserError(f"no database at {where} (give --database or PATE_DATABASE_URL)")
    return make_engine(url, application_name="pate-cli")


def _stuck(args: argparse.Namespace) -> int:
    from datetime import timedelta

    from services.platform.runtime.stuck import stuck_turns
    from services.platform.store.db import reader

    engine = _open(args.database)
    try:
        with reader(engine) as conn:
            found = stuck_turns(conn, timedelta(seconds=args.older_than))
    finally:
        engine.dispose()
    for s in found:
        print(
            f"{s.campaign} turn {s.turn} {s.status}: waiting since {s.since:%Y-%m-%d %H:%M:%S} for {s.msg_id}"
        )
    print(
        f"{len(found)} campaign(s) waiting longer than {args.older_than} s;"
        " `pate campaign retry CAMPAIGN --turn N` sends its event on again"
    )
    return 0


def _poison(args: argparse.Namespace) -> int:
    from services.platform.runtime.stuck import poison_messages
    from services.platform.store.db import reader

    engine = _open(args.database)
    try:
        with reader(engine) as conn:
            found = poison_messages(conn)
    finally:
        engine.dispose()
    for p in found:
        print(f"{p.at:%Y-%m-%d %H:%M:%S} {p.consumer} {p.msg_id} ({p.campaign} turn {p.turn}): {p.error}")
    print(
        f"{len(found)} poison message(s); each marked its turn failed: after fixing the cause,"
        " `pate campaign retry CAMPAIGN --turn N`"
    )
    return 0


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
    engine = make_engine(url, application_name="pate-cli")
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
    print(outcome.summary())
    return 0 if outcome.identical else 1
