"""Misbehaviour on demand (docs/gitm.md "Faults on demand"): set at start-up
from PATE_GITM_FAULTS ("down_calls=2,delay_seconds=0.5,refuse_all=1") or at
any time with the ReferenceAdmin.SetFaults call."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import grpc
from google.rpc import status_pb2
from grpc_status import rpc_status

from gitm.v1 import land_pb2, reference_admin_pb2
from pate.gitmkit.status_details import rich_status
from services.gitm_reference.ledger import Behaviour

T = TypeVar("T")
MAX_DELAY_SECONDS = 60.0
MAX_CLOCK_AHEAD_SECONDS = 86_400.0
LAND_METHODS = frozenset(land_pb2.DESCRIPTOR.services_by_name["LandBridge"].methods_by_name)


class FaultError(ValueError):
    """PATE_GITM_FAULTS or a SetFaults request names an unknown fault or a bad value."""


@dataclass
class Faults:
    down_calls: int = 0
    delay_seconds: float = 0.0
    drop_answers: int = 0
    refuse_all: bool = False
    forget: bool = False
    ignore_sightings: bool = False
    no_refusals: bool = False
    lose_supplies: bool = False
    mutant: str = ""  # services/gitm_reference/mutants.py
    unavailable_calls: str = ""  # LandBridge methods joined by "+": UNAVAILABLE, nothing done
    clock_ahead_seconds: float = 0.0  # the holds' clock runs ahead (their ten minutes pass at once)

    @classmethod
    def parse(cls, text: str) -> Faults:
        out = cls()
        names = {f.name: f.type for f in fields(cls)}
        for item in filter(None, (p.strip() for p in text.split(","))):
            name, sep, raw = item.partition("=")
            name = name.strip()
            if name not in names:
                raise FaultError(f"PATE_GITM_FAULTS: unknown fault {name!r} (known: {', '.join(names)})")
            try:
                if names[name] in ("bool", bool):
                    value: object = raw.strip().lower() in ("", "1", "true", "yes") if sep else True
                elif names[name] in ("int", int):
                    value = int(raw)
                elif names[name] in ("str", str):
                    value = raw.strip()
                else:
                    value = float(raw)
            except ValueError:
                raise FaultError(f"PATE_GITM_FAULTS: {name}={raw!r} is not a number") from None
            setattr(out, name, value)
        out.check()
        return out

    @classmethod
    def from_pb(cls, m: reference_admin_pb2.Faults) -> Faults:
        out = cls(
            m.down_calls,
            m.delay_seconds,
            m.drop_answers,
            m.refuse_all,
            m.forget,
            m.ignore_sightings,
            m.no_refusals,
            m.lose_supplies,
            m.mutant,
            m.unavailable_calls,
            m.clock_ahead_seconds,
        )
        out.check()
        return out

    def check(self) -> None:
        if self.down_calls < 0 or self.drop_answers < 0:
            raise FaultError("down_calls and drop_answers must not be negative")
        if not 0 <= self.delay_seconds <= MAX_DELAY_SECONDS:
            raise FaultError(f"delay_seconds must be between 0 and {MAX_DELAY_SECONDS}")
        from services.gitm_reference.mutants import MUTANTS

        if self.mutant and self.mutant not in MUTANTS:
            raise FaultError(f"mutant {self.mutant[:64]!r} is not one of {', '.join(MUTANTS)}")
        unknown = sorted(self.stalled() - LAND_METHODS)
        if unknown:
            raise FaultError(f"unavailable_calls: {unknown[0][:64]!r} is not a LandBridge method")
        if not 0 <= self.clock_ahead_seconds <= MAX_CLOCK_AHEAD_SECONDS:
            raise FaultError(f"clock_ahead_seconds must be between 0 and {MAX_CLOCK_AHEAD_SECONDS}")

    def stalled(self) -> frozenset[str]:
        """The LandBridge methods answered UNAVAILABLE while these faults are set."""
        return frozenset(filter(None, (m.strip() for m in self.unavailable_calls.split("+"))))

    def to_pb(self) -> reference_admin_pb2.Faults:
        return reference_admin_pb2.Faults(
            down_calls=self.down_calls,
            delay_seconds=self.delay_seconds,
            drop_answers=self.drop_answers,
            refuse_all=self.refuse_all,
            forget=self.forget,
            ignore_sightings=self.ignore_sightings,
            no_refusals=self.no_refusals,
            lose_supplies=self.lose_supplies,
            mutant=self.mutant,
            unavailable_calls=self.unavailable_calls,
            clock_ahead_seconds=self.clock_ahead_seconds,
        )

    def behaviour(self) -> Behaviour:
        m = self.mutant  # the mutants named after an older fault switch are that fault
        return Behaviour(
            self.refuse_all,
            self.forget or m == "forget",
            self.ignore_sightings or m == "ignore_sightings",
            self.no_refusals or m == "no_refusals",
            self.lose_supplies or m == "lose_supplies",
            m,
            self.clock_ahead_seconds,
        )


class UnavailableError(Exception):
    """The call is answered UNAVAILABLE (before or after its work)."""


class FaultGate:
    """Wraps each contract call: down (nothing done), slow, answer dropped (work done)."""

    def __init__(self, faults: Faults, sleep: Callable[[float], None] = time.sleep) -> None:
        self.faults = faults
        self._lock = threading.Lock()
        self._sleep = sleep

    def call(self, work: Callable[[], T]) -> T:
        with self._lock:
            down = self.faults.down_calls > 0
            if down:
                self.faults.down_calls -= 1
            delay = self.faults.delay_seconds
        if down:
            raise UnavailableError("GITM is down (fault on demand)")
        if delay:
            self._sleep(delay)
        result = work()
        with self._lock:
            drop = self.faults.drop_answers > 0
            if drop:
                self.faults.drop_answers -= 1
        if drop:
            raise UnavailableError("the answer was lost (fault on demand)")
        return result

    def __call__(self, work: Callable[[], T]) -> T:
        return self.call(work)


class StalledCalls(grpc.ServerInterceptor):  # type: ignore[misc]
    """Answers UNAVAILABLE, before any work, to the LandBridge methods named in the gate's
    ``unavailable_calls``: a land service stuck between two of PATE's calls (a begin answered,
    its completion not yet), while its own game goes on."""

    PREFIX = "/gitm.v1.LandBridge/"

    def __init__(self, gate: FaultGate) -> None:
        self.gate = gate

    def intercept_service(self, continuation: Callable[..., Any], details: Any) -> Any:
        method = str(details.method)
        if method.startswith(self.PREFIX) and method[len(self.PREFIX) :] in self.gate.faults.stalled():
            return grpc.unary_unary_rpc_method_handler(_stalled)
        return continuation(details)


def _stalled(_request: Any, context: Any) -> Any:
    stuck = "GITM is stuck (fault on demand: unavailable_calls)"
    status = rich_status(
        grpc.StatusCode.UNAVAILABLE, stuck, reason="LAND_UNAVAILABLE", retry_after=OUTAGE_RETRY_SECONDS
    )
    context.abort_with_status(rpc_status.to_status(status))


# RetryInfo of an outage on demand: it passes at the next call, so "at once"
OUTAGE_RETRY_SECONDS = 0.0
INTERNAL_MESSAGE = "internal fault of the land service"  # never the exception's text or stack


def status_of(
    exc: Exception, *, internal: bool = False, broken: Callable[[str], bool] = lambda _n: False
) -> status_pb2.Status:
    """The ``google.rpc.Status`` an error is answered with (docs/gitm.md "Status codes").
    ``internal``: any other exception is INTERNAL with INTERNAL_FAULT (the servicer); else it is
    raised as it is (the in-process stub, whose tests want the bug itself).  ``broken``: the
    mutants that break the details (services/gitm_reference/mutants.py)."""
    from services.gitm_reference.checks import StoreError

    if isinstance(exc, UnavailableError):
        return rich_status(
            grpc.StatusCode.UNAVAILABLE, str(exc), reason="LAND_UNAVAILABLE", retry_after=OUTAGE_RETRY_SECONDS
        )
    if not isinstance(exc, StoreError):
        if not internal:
            raise exc
        return rich_status(grpc.StatusCode.INTERNAL, INTERNAL_MESSAGE, reason="INTERNAL_FAULT")
    reason = exc.reason
    if broken("wrong_reason") and exc.code == grpc.StatusCode.NOT_FOUND:
        reason = "CAMPAIGN_NOT_OPENED"
    if exc.code != grpc.StatusCode.INVALID_ARGUMENT:
        return rich_status(exc.code, str(exc), reason=reason, metadata=exc.meta)
    if broken("vague_field"):
        return rich_status(exc.code, str(exc), reason=reason, fields=[("request", str(exc))])
    return rich_status(exc.code, str(exc), reason=reason, fields=exc.violations)
