"""``pate db wait-current`` and ``pate db gitm``: what a deployment runs around its migration.

``wait-current`` is the Kubernetes services' init container: it holds a pod until the migration
Job has brought the database to this release's newest revision (docs/operations.md, "Upgrades
and migrations").  ``gitm`` marks the campaigns played with GITM that predate ``campaigns.gitm``
(revision 0014 no longer guesses them from the environment of whoever runs it).
"""

from __future__ import annotations

import argparse
import re
import time

from pate.cli.main import UserError

WAIT_DEFAULT_S = 300.0
WAIT_MAX_S = 86_400.0
POLL_S = 1.0
MAX_CAMPAIGNS = 1000  # campaigns named on one command line
_CAMPAIGN_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")  # as the RPCs accept them (limits.py)


def add_commands(dbsub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    w = dbsub.add_parser(
        "wait-current",
        help="wait until the database (PATE_DATABASE_URL) is at this release's newest revision; exit 0, or 1 "
        "at the timeout",
    )
    w.add_argument("--timeout", type=float, default=WAIT_DEFAULT_S, help="seconds to wait (default 300)")
    w.set_defaults(handler=_wait_current)
    g = dbsub.add_parser(
        "gitm", help="mark campaigns as played with GITM (those created before revision 0014 are not)"
    )
    g.add_argument("campaigns", nargs="*", metavar="CAMPAIGN", help="campaign ids")
    g.add_argument("--all", action="store_true", help="every campaign not yet finished")
    g.add_argument("--off", action="store_true", help="mark them naval only instead")
    g.set_defaults(handler=_gitm)


def _wait_current(args: argparse.Namespace) -> int:
    from services.platform.config import load_settings
    from services.platform.runtime.database import open_engine
    from services.platform.store.db import head_revision, schema_is_current

    if not 0 <= args.timeout <= WAIT_MAX_S:
        raise UserError(f"--timeout {args.timeout:g}: expected 0 to {WAIT_MAX_S:g} seconds")
    settings = load_settings()
    engine = open_engine(settings.database_url, "wait-current", settings)
    end, waited = time.monotonic() + args.timeout, False
    try:
        # an unreachable database (its primary starting) counts as not current yet
        while not schema_is_current(engine):
            if time.monotonic() >= end:
                print(f"the database is not at revision {head_revision()} after {args.timeout:g} s")
                return 1
            if not waited:
                print(f"waiting for the database to reach revision {head_revision()}", flush=True)
                waited = True
            time.sleep(POLL_S)
    finally:
        engine.dispose()
    print(f"the database is at revision {head_revision()}")
    return 0


def _gitm(args: argparse.Namespace) -> int:
    from sqlalchemy import update

    from services.platform.config import load_settings
    from services.platform.runtime.database import open_engine
    from services.platform.store.tables import campaigns

    if bool(args.campaigns) == args.all:
        raise UserError("name the campaigns, or give --all (not both)")
    if len(args.campaigns) > MAX_CAMPAIGNS:
        raise UserError(f"CAMPAIGN: at most {MAX_CAMPAIGNS} at once")
    for campaign in args.campaigns:
        if not _CAMPAIGN_ID.fullmatch(campaign):
            raise UserError(f"CAMPAIGN {campaign[:48]!r}: expected a campaign id ([a-z0-9][a-z0-9-]{{0,39}})")
    settings = load_settings()
    engine = open_engine(settings.database_url, "cli", settings)
    statement = update(campaigns).values(gitm=not args.off)
    if args.all:
        statement = statement.where(campaigns.c.status != "FINISHED")
    else:
        statement = statement.where(campaigns.c.id.in_(args.campaigns))
    try:
        with engine.begin() as conn:
            changed = conn.execute(statement).rowcount
    finally:
        engine.dispose()
    print(f"{changed} campaign(s) marked {'naval only' if args.off else 'played with GITM'}")
    return 0
