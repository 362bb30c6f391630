"""A service process freezes what it loaded and collects the young generation less often."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from services.platform.runtime import heap


@pytest.fixture
def restored_collector() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


@pytest.mark.usefixtures("restored_collector")
def test_settle_freezes_what_is_loaded_and_keeps_the_older_generations() -> None:
    _, middle, old = gc.get_threshold()
    loaded = [object() for _ in range(10)], {"map": [1, 2]}
    heap.settle()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (heap.YOUNG_COLLECTION_EVERY, middle, old)
    # frozen: no generation the collector walks holds it any more
    assert all(o is not loaded for o in gc.get_objects())
