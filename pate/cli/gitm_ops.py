"""The operators' commands of the GITM bridge beside the kit (docs/gitm.md, "Answers to the land
team's review", A5, A19, A23): ``pate gitm end CAMPAIGN --turn N`` ends a GITM campaign after
its committed turn N and has the bridge close it in GITM; ``pate gitm export CAMPAIGN`` prints
PATE's side of a campaign as one JSON document; ``pate gitm audit CAMPAIGN [--since-turn N]``
prints PATE's audit rows about GITM as JSON lines, for the land team's operators."""

from __future__ import annotations

import argparse
import json
import sys

from pate.cli import numbers
from pate.cli.main import UserError


def add_commands(gsub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    e = gsub.add_parser(
        "end",
        help="end a GITM campaign after its committed turn N, before its last turn; GITM is told",
        description=(
            "Finishes the campaign after turn N (turn N+1 must be open, not yet closed: its orders are"
            " dropped) and queues CloseCampaign for the resolver's bridge, sent once turn N's calls"
            " have reached GITM (docs/gitm.md A19). Repeating it changes nothing."
        ),
    )
    e.add_argument("campaign", help="the campaign id")
    e.add_argument("--turn", type=numbers.TURN, required=True, help="the last turn played (committed)")
    e.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    e.set_defaults(handler=_end)
    x = gsub.add_parser(
        "export",
        help="PATE's side of a GITM campaign as one JSON document (docs/gitm.md 'Export')",
    )
    x.add_argument("campaign", help="the campaign id")
    x.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    x.set_defaults(handler=_export)
    a = gsub.add_parser(
        "audit",
        help="PATE's audit rows about GITM for a campaign, as JSON lines (no secrets)",
    )
    a.add_argument("campaign", help="the campaign id")
    a.add_argument("--since-turn", type=int, default=0, help="only rows of this turn and later (default 0)")
    a.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    a.set_defaults(handler=_audit)


def _end(args: argparse.Namespace) -> int:
    from pate.cli.turn import _open
    from services.resolver.gitm_end import EndRefusedError, end_campaign

    engine = _open(args.database)
    try:
        with engine.begin() as conn:
            done = end_campaign(conn, args.campaign, args.turn)
    except EndRefusedError as exc:
        raise UserError(str(exc)) from None
    finally:
        engine.dispose()
    if done.already:
        print(f"{done.campaign} was already ended after turn {done.turn}; nothing more to do")
    else:
        print(
            f"{done.campaign} ended after turn {done.turn}; the bridge closes it in GITM"
            f" once turn {done.turn}'s calls are through"
        )
    return 0


def _export(args: argparse.Namespace) -> int:
    from pate.cli.turn import _open
    from services.platform.store.db import reader
    from services.resolver.gitm_export import export

    engine = _open(args.database)
    try:
        with reader(engine) as conn:
            document = export(conn, args.campaign)
    except LookupError as exc:
        raise UserError(str(exc)) from None
    finally:
        engine.dispose()
    json.dump(document, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


def _audit(args: argparse.Namespace) -> int:
    from pate.cli.turn import _open
    from services.platform.store.db import reader
    from services.resolver.gitm_export import audit_rows

    if args.since_turn < 0:
        raise UserError("--since-turn: expected a turn from 0")
    engine = _open(args.database)
    try:
        with reader(engine) as conn:
            for row in audit_rows(conn, args.campaign, args.since_turn):
                print(json.dumps(row, sort_keys=True))
    except LookupError as exc:
        raise UserError(str(exc)) from None
    finally:
        engine.dispose()
    return 0
