"""The map and rule constants, loaded and validated once per process."""

from __future__ import annotations

from functools import cache

from pate.core.rules.context import TurnContext
from pate.datafiles import load_rule_data, load_world_map


@cache
def turn_context() -> TurnContext:
    return TurnContext(map=load_world_map(), rules=load_rule_data())
