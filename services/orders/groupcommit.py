"""Group commit of accepted submissions: one transaction, one commit (one
fsync) for all the submissions that arrived while the previous commit ran.

Each submission runs in its own savepoint, so a refused or failing one is
rolled back alone and its caller gets its own error; the callers of the
others are answered only after the shared commit, so an accepted reply
always means a durable order (rule 4.11's deadline counts committed orders).
On a single SQLite writer this turns N write locks into one; on PostgreSQL
it turns N serialised campaign-row locks and commits into one.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Engine

T = TypeVar("T")

MAX_BATCH = 64  # submissions in one transaction at most: bounds a commit's length


@dataclass
class _Item(Generic[T]):
    work: Callable[[Connection], T]
    future: asyncio.Future[T]
    loop: asyncio.AbstractEventLoop
    result: Any = None
    error: BaseException | None = None


class GroupCommitter:
    """One writer thread per engine that commits submissions in groups."""

    def __init__(self, engine: Engine, max_batch: int = MAX_BATCH) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[_Item[Any]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.batches = 0  # transactions committed (read by tests and benchmarks)

    async def run(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a savepoint of the next group transaction; its result after the commit."""
        loop = asyncio.get_running_loop()
        item: _Item[T] = _Item(work, loop.create_future(), loop)
        self._ensure_thread()
        self._queue.put(item)
        return await item.future

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="pate-group-commit", daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        while True:
            items = [self._queue.get()]
            while len(items) < self.max_batch:
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            self._commit(items)
            for item in items:
                item.loop.call_soon_threadsafe(_settle, item)

    def _commit(self, items: list[_Item[Any]]) -> None:
        try:
            with self.engine.begin() as conn:
                for item in items:
                    try:
                        with conn.begin_nested():
                            item.result = item.work(conn)
                    except Exception as err:  # this submission alone is rolled back
                        item.error = err
            self.batches += 1
        except Exception as err:  # the commit failed: nothing of the group is stored
            for item in items:
                item.error = item.error or err


def _settle(item: _Item[Any]) -> None:
    if item.future.done():  # the caller went away (cancelled)
        return
    if item.error is not None:
        item.future.set_exception(item.error)
    else:
        item.future.set_result(item.result)
