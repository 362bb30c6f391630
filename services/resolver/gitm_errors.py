"""What PATE does with a failed gitm.v1 call (docs/gitm.md "What PATE does when something fails"):
the error's structured details (``google.rpc.Status`` of edition 4, pate/gitmkit/status_details.py)
for the logs and the audit rows, never its message in a player's text; the retry policy.

- Outages (UNAVAILABLE, DEADLINE_EXCEEDED): the turn's calls are retried for ever with the
  consumer's back-off (:class:`TransientError`), never sooner than the service's RetryInfo asks.
- A busy or conflicting service (RESOURCE_EXHAUSTED, ABORTED): the same back-off, but set aside
  after :data:`GIVE_UP_AFTER` deliveries (:class:`BusyError`).
- A question of the close (read-only): asked once more, after the RetryInfo delay or a short
  jittered pause, within the one deadline of the first try (:func:`asked_twice`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

import grpc

from pate.gitmkit.status_details import ErrorDetails, details_of
from services.platform.bus.consumer import BusyError, TransientError
from services.platform.telemetry.logging import get_logger
from services.resolver.gitm import GitmClient

T = TypeVar("T")
log = get_logger("gitm-errors")
OUTAGES = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
BUSY = {grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.ABORTED}
GIVE_UP_AFTER = 20  # deliveries of a turn's calls answered BUSY before it is set aside
# the close's second try: the pause drawn from 0 to this without a RetryInfo; none is made when the
# RetryInfo asks more than CLOSE_PAUSE_MAX or when less than CLOSE_MIN_BUDGET of the deadline is left
CLOSE_JITTER = 0.25
CLOSE_PAUSE_MAX = 1.0
CLOSE_MIN_BUDGET = 0.5
ASKED_AGAIN = OUTAGES | BUSY


def status_code(exc: BaseException) -> grpc.StatusCode | None:
    return exc.code() if isinstance(exc, grpc.Call) else None


def rpc_cause(exc: BaseException) -> BaseException:
    """The failed call behind an error PATE raised for it (``raise ... from exc``)."""
    cause = exc.__cause__
    return cause if isinstance(cause, grpc.RpcError) else exc


def plain(exc: BaseException) -> dict[str, Any]:
    """The error as log fields: its code and its details' machine-readable parts."""
    call = rpc_cause(exc)
    code = status_code(call)
    return {"code": code.name if code else type(call).__name__, **details_of(call).plain()}


def retry_error(client: GitmClient, exc: grpc.RpcError) -> Exception | None:
    """The error the consumer retries the turn's calls for, or None when the code is not one."""
    code, details = status_code(exc), details_of(exc)
    said = f"GITM at {client.addr}: {code}" + (f" {details.reason}" if details.reason else "")
    if code in OUTAGES:
        return TransientError(said, retry_after=details.retry_after)
    if code in BUSY:
        return BusyError(said, retry_after=details.retry_after, give_up_after=GIVE_UP_AFTER)
    return None


def _close_pause(details: ErrorDetails, rand: Callable[[], float]) -> float | None:
    if details.retry_after is None:
        return rand() * CLOSE_JITTER
    return details.retry_after if details.retry_after <= CLOSE_PAUSE_MAX else None


def asked_twice(client: GitmClient, ask: Callable[[], T], rand: Callable[[], float] = random.random) -> T:
    """A read-only question of the close, asked once more when its first answer is an outage or a
    busy service and the rest of its deadline allows (docs/gitm.md "What PATE does when
    something fails"): one blip does not defer a turn's transfers."""
    start = client.clock()
    try:
        return ask()
    except grpc.RpcError as exc:
        if status_code(exc) not in ASKED_AGAIN:
            raise
        pause = _close_pause(details_of(exc), rand)
        left = client.timeout - (client.clock() - start) - (pause or 0.0)
        if pause is None or left < CLOSE_MIN_BUDGET:
            raise
        log.info(
            "gitm_question_asked_again", pause_s=round(pause, 3), deadline_s=round(left, 3), **plain(exc)
        )
        client.pause(pause)
    client.within(left)
    try:
        return ask()
    finally:
        client.within(None)
