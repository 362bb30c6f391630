"""``pate outbox ...`` and ``pate stream ...``: the operator's runbook steps as commands
(docs/operations.md, "Runbooks"), reading PATE_DATABASE_URL and PATE_NATS_URL.

    pate outbox quarantined                 rows the relay set aside, with their error
    pate outbox release ROW_ID              publish a set-aside row again, its cause fixed
    pate stream prune-claims --older-than-days 90
    pate stream rebuild --yes               after a database restore, services stopped
    pate stream ensure                      create the stream or bring its limits and replicas in line
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from pate.cli import numbers
from pate.cli.main import UserError
from pate.cli.turn import _open


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    o = sub.add_parser("outbox", help="events waiting in the outbox: rows the relay set aside")
    os_ = o.add_subparsers(dest="outbox_command", required=True)
    q = os_.add_parser("quarantined", help="list rows the relay set aside (newest first)")
    q.set_defaults(handler=_quarantined)
    r = os_.add_parser("release", help="hand a set-aside row back to the relay, its cause fixed")
    r.add_argument("row_id", type=numbers.whole(1, 2**62, "ROW_ID"))
    r.set_defaults(handler=_release)
    s = sub.add_parser("stream", help="the JetStream stream: claims and rebuilding after a restore")
    ss = s.add_subparsers(dest="stream_command", required=True)
    p = ss.add_parser(
        "prune-claims", help="forget the consumers' claims of messages the stream no longer holds"
    )
    p.add_argument("--older-than-days", type=numbers.whole(1, 36500, "--older-than-days"), default=90)
    p.set_defaults(handler=_prune_claims)
    b = ss.add_parser("rebuild", help="delete and re-create the stream, then queue every awaited event again")
    b.add_argument("--yes", action="store_true", help="the services are stopped: do it")
    b.set_defaults(handler=_rebuild)
    for parser in (q, r, p, b):
        parser.add_argument("--database", default=None, help="database URL (default: PATE_DATABASE_URL)")
    e = ss.add_parser(
        "ensure",
        help="create the stream, or bring its limits and replicas (PATE_STREAM_REPLICAS) in line;"
        " the services' own NATS users may not change it",
    )
    e.set_defaults(handler=_ensure)


def _ensure(args: argparse.Namespace) -> int:
    from services.platform.config import load_settings

    settings = load_settings()
    asyncio.run(_ensured(settings.nats_url, settings.stream_replicas))
    print(f"stream PATE as this release sets it, {settings.stream_replicas} replica(s)")
    return 0


async def _ensured(url: str, replicas: int) -> None:
    from services.platform import bus

    nc, js = await bus.connect(url, "pate-stream-ensure")
    try:
        await bus.ensure_stream(js, replicas)
        info = await js.stream_info(bus.STREAM)
    finally:
        await nc.close()
    if bus.stream_differs(info.config, bus.stream_config(replicas), replicas):
        raise UserError("the stream could not be changed: run this as the operator's NATS user (upkeep)")


def _quarantined(args: argparse.Namespace) -> int:
    from services.platform.runtime.upkeep import quarantined_rows
    from services.platform.store.db import reader

    engine = _open(args.database)
    try:
        with reader(engine) as conn:
            rows = quarantined_rows(conn)
    finally:
        engine.dispose()
    for q in rows:
        print(f"{q.row_id} {q.at:%Y-%m-%d %H:%M:%S} {q.subject} {q.msg_id}: {q.error}")
    print(f"{len(rows)} row(s) set aside; after fixing the cause, `pate outbox release ROW_ID`")
    return 0


def _release(args: argparse.Namespace) -> int:
    from services.platform.runtime.upkeep import release

    engine = _open(args.database)
    try:
        with engine.begin() as conn:
            row = release(conn, args.row_id)
    except LookupError as err:
        raise UserError(str(err)) from None
    finally:
        engine.dispose()
    print(f"row {row.row_id} ({row.msg_id}) handed back to the relay: it is published at its next pass")
    return 0


def _prune_claims(args: argparse.Namespace) -> int:
    from services.platform.runtime.upkeep import prune_claims

    engine = _open(args.database)
    try:
        deleted = prune_claims(engine, args.older_than_days)
    except ValueError as err:
        raise UserError(str(err)) from None
    finally:
        engine.dispose()
    print(f"{deleted} claim(s) older than {args.older_than_days} days deleted")
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    from services.platform.config import load_settings
    from services.platform.runtime.upkeep import requeue_waiting

    if not args.yes:
        raise UserError(
            "--yes: stop every service first (the stream's consumers go with it), then run again with --yes"
        )
    settings = load_settings()
    asyncio.run(_new_stream(settings.nats_url, settings.stream_replicas))
    engine = _open(args.database)
    try:
        with engine.begin() as conn:
            queued = requeue_waiting(conn)
    except LookupError as err:
        raise UserError(str(err)) from None
    finally:
        engine.dispose()
    for r in queued:
        print(f"{r.campaign} turn {r.turn} {r.status}: its event queued again as {r.msg_id}")
    print(
        f"stream PATE re-created; {len(queued)} campaign(s) waiting between stages had their event queued."
        " Start the services: the relay publishes the queued events."
    )
    return 0


async def _new_stream(url: str, replicas: int) -> None:
    from nats.js.errors import NotFoundError

    from services.platform import bus

    nc, js = await bus.connect(url, "pate-stream-rebuild")
    try:
        with contextlib.suppress(NotFoundError):  # lost with the NATS cluster: only creating it is left
            await js.delete_stream(bus.STREAM)
        await bus.ensure_stream(js, replicas)
    finally:
        await nc.close()
