"""The conformance suite of gitm.v1 (``pate gitm check --addr HOST:PORT``).

Any GITM land service can run it.  It opens a campaign of its own (its own
units and supplies in one city and aboard its own transports), plays the
calls PATE makes and checks, row by row, each numbered obligation of the
land side (docs/gitm.md "Obligations"): a row is named for the obligation it
checks and its detail says what to fix.  The durability row needs a way to
restart the service (``--restart-command``); the caller-token row needs the
token (``--token``); without them those rows are skipped, not passed.  The
suite ends by closing its campaign.
"""

from __future__ import annotations

from collections.abc import Callable

import grpc
from grpc_health.v1 import health_pb2_grpc

from gitm.v1 import land_pb2_grpc
from pate.gitmkit import (
    cargo_rows,
    detail_rows,
    edition4_rows,
    field_rows,
    hold_rows,
    lifecycle_rows,
    repeat_rows,
    transfer_rows,
)
from pate.gitmkit.land import Land
from pate.gitmkit.obligations import OBLIGATIONS, title
from pate.gitmkit.rows import DETAIL, CheckFailedError, NeedsError, Row, SkippedError, bounded

Check = Callable[[Land], str]
# in the order they run: the service, the campaign, then each transfer and report
ORDER: list[tuple[str, Check]] = [
    ("L24", lifecycle_rows.health),
    ("L23", lifecycle_rows.caller_token),
    ("L1", lifecycle_rows.capabilities),
    ("L33", field_rows.data_named),
    ("L2", lifecycle_rows.open_campaign),
    ("L3", lifecycle_rows.units_near),
    ("L25", lifecycle_rows.port_holders),
    ("L26", edition4_rows.land_snapshot),
    ("L27", edition4_rows.land_events),
    ("L28", hold_rows.holds),
    ("L21", repeat_rows.malformed),
    ("L29", detail_rows.error_details),
    ("L30", detail_rows.error_reasons),
    ("L31", detail_rows.refusal_codes),
    ("L14", transfer_rows.unknown),
    ("L4", transfer_rows.unit_refusals),
    ("L5", transfer_rows.reserved_elsewhere),
    ("L6", transfer_rows.supply_refusals),
    ("L7", transfer_rows.whole),
    ("L8", transfer_rows.reserves),
    ("L10", transfer_rows.cancels),
    ("L9", transfer_rows.completes),
    ("L13", transfer_rows.final),
    ("L32", field_rows.campaign_named),
    ("L11", repeat_rows.same_answer),
    ("L12", repeat_rows.reused),
    ("L15", repeat_rows.concurrent),
    ("L16", repeat_rows.durable),
    ("L17", cargo_rows.sightings),
    ("L18", cargo_rows.cargo_moves),
    ("L19", cargo_rows.cargo_loss),
    ("L20", cargo_rows.conservation),
    ("L22", lifecycle_rows.close_campaign),
]
assert sorted(n for n, _ in ORDER) == sorted(OBLIGATIONS), "every obligation has its row"
OPENED = "L2"  # the rows after it need the campaign it opens


def number(obligation: str) -> int:
    return int(obligation.lstrip("L"))


# the table lists the rows by number, whatever order they ran in
NAMES = tuple(title(n) for n in sorted(OBLIGATIONS, key=number))


def run_row(land: Land, n: str, fn: Check) -> Row:
    """One row: passed, skipped or failed, whatever the service answered; a check that breaks on
    an answer it did not foresee fails its own row, never the suite (docs/gitm.md "Checking")."""
    name = title(n)
    try:
        return Row(name, True, fn(land))
    except SkippedError as exc:
        return Row(name, False, f"skipped: {exc}", skipped=True)
    except NeedsError as exc:
        why = bounded(str(exc), 120)
        return Row(name, False, f"not run: needs {exc.needed}, which failed: {why}", needs=exc.needed)
    except CheckFailedError as exc:
        return Row(name, False, bounded(str(exc), 2 * DETAIL))
    except grpc.RpcError as exc:
        return Row(name, False, rpc_detail(exc))
    except Exception as exc:  # a broken service is a failed row, not a traceback
        return Row(name, False, f"the check broke on an answer: {type(exc).__name__}: {bounded(str(exc))}")


def rpc_detail(exc: grpc.RpcError) -> str:
    if isinstance(exc, grpc.Call):
        return f"{exc.code().name}: {bounded(exc.details() or '')}"
    return f"{type(exc).__name__}: {bounded(str(exc))}"


def knock_on(land: Land, needed: Row) -> str:
    """Why a row was not run: what it needs, and what became of that (opened or not)."""
    why = bounded(needed.detail, 120)
    if land.opened:
        return f"not run: needs the campaign opened by {OPENED}; it was opened, but {OPENED} failed: {why}"
    return f"not run: needs the campaign opened by {OPENED}, which could not be opened: {why}"


def run(land: Land) -> list[Row]:
    """Every row, in the order they run; those after a failed open are not run, each saying why.
    The answer lists them by number."""
    rows: list[Row] = []
    needed: Row | None = None  # the failed row the rest of the suite needs
    for n, fn in ORDER:
        if needed is not None:
            rows.append(Row(title(n), False, knock_on(land, needed), needs=OPENED))
            continue
        rows.append(run_row(land, n, fn))
        if n == OPENED and not rows[-1].passed:
            needed = rows[-1]
    return sorted(rows, key=lambda r: number(r.obligation))


def run_suite(
    addr: str,
    campaign: str,
    port: str,
    *,
    timeout: float = 5.0,
    token: str = "",
    restart: Callable[[], None] | None = None,
    channel: grpc.Channel | None = None,
) -> list[Row]:
    """The suite against ``addr`` (a plaintext channel unless ``channel`` is given)."""
    own = channel is None
    channel = channel or grpc.insecure_channel(addr)
    try:
        land = Land(land_pb2_grpc.LandBridgeStub(channel), campaign, port, token, timeout, restart=restart)
        land.health = health_pb2_grpc.HealthStub(channel)
        return run(land)
    finally:
        if own:
            channel.close()


def passed(rows: list[Row]) -> bool:
    return all(r.passed or r.skipped for r in rows)


def table(rows: list[Row]) -> str:
    """The rows by number, then one summary line: kept, skipped, failed, and how many of the
    failed were not run because a row they need failed."""
    rows = sorted(rows, key=lambda r: number(r.obligation))
    width = max((len(r.name) for r in rows), default=10)
    lines = [f"{'obligation':<{width}}  result  detail", f"{'-' * width}  ------  ------"]
    for r in rows:
        result = "skip" if r.skipped else ("pass" if r.passed else "FAIL")
        lines.append(f"{r.name:<{width}}  {result:<6}  {r.detail}")
    lines.append(summary(rows))
    return "\n".join(lines)


def summary(rows: list[Row]) -> str:
    ok, skipped = sum(r.passed for r in rows), sum(r.skipped for r in rows)
    failed = [r for r in rows if not r.passed and not r.skipped]
    line = f"{ok} of {len(rows)} obligations checked and kept" + (f", {skipped} skipped" if skipped else "")
    if failed:
        line += f", {len(failed)} failed"
        needs = sorted({r.needs for r in failed if r.needs})
        not_run = sum(1 for r in failed if r.needs)
        if not_run:
            line += f" ({not_run} of them not run: they need {', '.join(needs)})"
    return line
