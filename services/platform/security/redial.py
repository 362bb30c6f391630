"""Client channels dialled again when their TLS files change (docs/security.md, "Renewal").

A gRPC channel keeps its credentials for life, and PATE's clients keep their channels for the
life of the process (the web desk, the admiral, the resolver's GITM bridge).  Their client
certificate is renewed, like the servers', by rewriting the mounted files; so each looks at
its files (``TlsWatch``: one ``stat`` a file) at most every ``every`` seconds, and at once
after a call failed UNAVAILABLE (a handshake refused, say for an expired certificate), and
dials a new channel when they changed.  New calls go over the new channel; calls in flight
finish on the old one, which is closed only ``retire_after`` seconds later (longer than any
call's deadline).  ``RotatingChannel`` is a blocking ``grpc.Channel`` that stubs take as they
are; ``AioChannels`` hands the web desk's asyncio code the channel of the moment.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import grpc

from services.platform.security import tls as tlsmod
from services.platform.security.certwatch import TlsWatch
from services.platform.telemetry.logging import get_logger

log = get_logger(__name__)

CHECK_SECONDS = 10.0  # a renewal comes 30 days before expiry: seconds late is nothing
RETIRE_SECONDS = 300.0  # the longest deadline of a PATE call is a minute


_MULTICALLABLE_ARGS = ("request_serializer", "response_deserializer", "_registered_method")


class RotatingChannel(grpc.Channel):  # type: ignore[misc]
    """A blocking channel to ``addr`` that follows the files of ``tls`` (see the module)."""

    def __init__(
        self,
        addr: str,
        tls: tlsmod.TlsSettings,
        *,
        every: float = CHECK_SECONDS,
        retire_after: float = RETIRE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.addr = addr
        self._watch = TlsWatch(tls, every=every, clock=clock)
        self._channel = tlsmod.channel(addr, tls)
        self.generation = 0  # how many times it was dialled again
        self._retired: list[tuple[float, grpc.Channel]] = []
        self._retire_after = retire_after
        self._clock = clock
        self._hurry = False
        self._lock = threading.Lock()

    def current(self) -> tuple[grpc.Channel, int]:
        """The channel for a new call, dialled again first when the files changed."""
        hurry, self._hurry = self._hurry, False
        fresh = self._watch.changed(now=hurry)
        with self._lock:
            if fresh is not None:
                self._retired.append((self._clock(), self._channel))
                self._channel = tlsmod.channel(self.addr, fresh)
                self.generation += 1
                log.info("tls.redialled", addr=self.addr)
            self._close_retired(self._clock() - self._retire_after)
            return self._channel, self.generation

    def failed_unavailable(self) -> None:
        """Look at the files before the next call, whatever ``every`` says."""
        self._hurry = True

    def _close_retired(self, before: float) -> None:
        keep = []
        for since, old in self._retired:
            if since <= before:
                old.close()
            else:
                keep.append((since, old))
        self._retired = keep

    def _method(self, kind: str, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Method:
        # grpc.intercept_channel passes these by position, a stub by name
        return _Method(self, kind, method, {**dict(zip(_MULTICALLABLE_ARGS, args, strict=False)), **kwargs})

    def unary_unary(self, method: str, *args: Any, **kwargs: Any) -> Any:
        return self._method("unary_unary", method, args, kwargs)

    def unary_stream(self, method: str, *args: Any, **kwargs: Any) -> Any:
        return self._method("unary_stream", method, args, kwargs)

    def stream_unary(self, method: str, *args: Any, **kwargs: Any) -> Any:
        return self._method("stream_unary", method, args, kwargs)

    def stream_stream(self, method: str, *args: Any, **kwargs: Any) -> Any:
        return self._method("stream_stream", method, args, kwargs)

    def subscribe(self, callback: Callable[..., None], try_to_connect: bool = False) -> None:
        self.current()[0].subscribe(callback, try_to_connect)

    def unsubscribe(self, callback: Callable[..., None]) -> None:
        self.current()[0].unsubscribe(callback)

    def close(self) -> None:
        with self._lock:
            self._close_retired(float("inf"))
            self._channel.close()

    def __enter__(self) -> RotatingChannel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Method:
    """A stub's multicallable that goes to the channel of the moment at each call."""

    def __init__(self, owner: RotatingChannel, kind: str, method: str, kwargs: dict[str, Any]) -> None:
        self._owner = owner
        self._kind, self._method, self._kwargs = kind, method, kwargs
        self._made: tuple[int, Any] | None = None

    def _target(self) -> Any:
        channel, generation = self._owner.current()
        made = self._made
        if made is None or made[0] != generation:
            made = (generation, getattr(channel, self._kind)(self._method, **self._kwargs))
            self._made = made
        return made[1]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._target()(*args, **kwargs)
        except grpc.RpcError as err:
            if getattr(err, "code", lambda: None)() == grpc.StatusCode.UNAVAILABLE:
                self._owner.failed_unavailable()
            raise

    def __getattr__(self, name: str) -> Any:  # with_call, future
        return getattr(self._target(), name)


class AioChannels:
    """The asyncio channel to ``addr`` of the moment, following the files of ``tls``."""

    def __init__(
        self,
        addr: str,
        tls: tlsmod.TlsSettings,
        *,
        every: float = CHECK_SECONDS,
        retire_after: float = RETIRE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.addr = addr
        self._watch = TlsWatch(tls, every=every, clock=clock)
        self._retire_after = retire_after
        self._channel: grpc.aio.Channel | None = None
        self._closing: dict[asyncio.Task[None], grpc.aio.Channel] = {}  # retired, until their calls end
        self._hurry = False
        self.generation = 0

    def current(self) -> grpc.aio.Channel:
        """The channel for a new call (made on first need, in the running event loop)."""
        hurry, self._hurry = self._hurry, False
        fresh = self._watch.changed(now=hurry)
        if self._channel is None:
            self._channel = tlsmod.aio_channel(self.addr, self._watch.current)
        elif fresh is not None:
            old, self._channel = self._channel, tlsmod.aio_channel(self.addr, fresh)
            self.generation += 1
            log.info("tls.redialled", addr=self.addr)
            # close() with a grace lets the calls in flight finish first
            task = asyncio.ensure_future(old.close(grace=self._retire_after))
            self._closing[task] = old
            task.add_done_callback(self._forget)
        return self._channel

    def failed_unavailable(self) -> None:
        self._hurry = True

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._closing.pop(task, None)

    async def close(self) -> None:
        """Close every channel now, calls in flight on retired ones included (the process stops)."""
        for task, old in list(self._closing.items()):
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await old.close()
        self._closing.clear()
        if self._channel is not None:
            await self._channel.close()
            self._channel = None
