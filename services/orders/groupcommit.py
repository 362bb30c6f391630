"""Group commit of accepted submissions: one transaction, one commit (one
fsync) for all the submissions that arrived while the previous commit ran.

Each submission runs in its own savepoint, so a refused or failing one is
rolled back alone and its caller gets its own error; the callers of the
others are answered only after the shared commit, so an accepted reply
always means a durable order (rule 4.11's deadline counts committed orders).
On a single SQLite writer this turns N write locks into one; on PostgreSQL
it turns N serialised campaign-row locks and commits into one.

Items given as ``group`` data are stored together by the committer's
``store_group`` function (a few set-based statements for the whole group,
no savepoints); should that raise, the transaction is rolled back and every
item of the group is done again alone, in its savepoint, by its own ``work``.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    group: Any = None  # data for store_group, or None: ``work`` alone
    result: Any = None
    error: BaseException | None = None


StoreGroup = Callable[[Connection, list[Any]], list[Any]]  # one answer per item; an exception is its refusal


class GroupCommitter:
    """One writer thread per engine that commits submissions in groups."""

    def __init__(
        self, engine: Engine, max_batch: int = MAX_BATCH, store_group: StoreGroup | None = None
    ) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.store_group = store_group
        self._queue: queue.SimpleQueue[_Item[Any]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.batches = 0  # transactions committed (read by tests and benchmarks)
        self.regrouped = 0  # groups whose store_group failed and were done item by item
        self._conn: Connection | None = None  # used by the writer thread only

    async def run(self, work: Callable[[Connection], T], group: Any = None) -> T:
        """Run ``work`` in a savepoint of the next group transaction (or store ``group``
        with the others of its kind); its result after the commit."""
        loop = asyncio.get_running_loop()
        item: _Item[T] = _Item(work, loop.create_future(), loop, group)
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
            loops: dict[asyncio.AbstractEventLoop, list[_Item[Any]]] = {}
            for item in items:
                loops.setdefault(item.loop, []).append(item)
            for loop, settled in loops.items():  # one wake-up of each loop for the whole group
                loop.call_soon_threadsafe(_settle_all, settled)

    def _commit(self, items: list[_Item[Any]]) -> None:
        grouped = [i for i in items if i.group is not None] if self.store_group else []
        if grouped and self._commit_grouped(grouped):
            # The others in a transaction of their own: their locks are taken one by
            # one, the group's in id order, and the two orders must not meet.
            items = [i for i in items if i.group is None]
            if not items:
                return
        try:
            with self._transaction() as conn:
                self._each(conn, items)
            self.batches += 1
        except Exception as err:  # the commit failed: nothing of the group is stored
            for item in items:
                item.error = item.error or err

    def _commit_grouped(self, grouped: list[_Item[Any]]) -> bool:
        """The grouped items in one transaction by store_group; False (nothing
        stored, every item to be done alone) when that fails."""
        assert self.store_group is not None
        try:
            with self._transaction() as conn:
                answers = self.store_group(conn, [i.group for i in grouped])
        except Exception:
            self.regrouped += 1
            return False
        for item, answer in zip(grouped, answers, strict=True):
            if isinstance(answer, BaseException):
                item.error = answer
            else:
                item.result = answer
        self.batches += 1
        return True

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction on the writer's own connection, kept from group to group:
        no pool checkout and no liveness ping per group (a round trip each on
        PostgreSQL).  After any failure the connection is dropped and the next
        group opens a new one, so a restarted database costs one group's retry."""
        if self._conn is None:
            self._conn = self.engine.connect()
        try:
            with self._conn.begin():
                yield self._conn
        except BaseException:
            conn, self._conn = self._conn, None
            conn.close()
            raise

    @staticmethod
    def _each(conn: Connection, items: list[_Item[Any]]) -> None:
        for item in items:
            try:
                with conn.begin_nested():
                    item.result = item.work(conn)
            except Exception as err:  # this submission alone is rolled back
                item.error = err


def _settle_all(items: list[_Item[Any]]) -> None:
    for item in items:
        if item.future.done():  # the caller went away (cancelled)
            continue
        if item.error is not None:
            item.future.set_exception(item.error)
        else:
            item.future.set_result(item.result)
