"""The limits of messages between players, as data (``data/messages.toml``).

Read and checked once per process: a missing key, an unknown one or a number
out of its bounds stops the service at its start, naming the key, rather
than at the first message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pate.core.world.fields import DataError
from pate.datafiles import data_dir, read_toml

FILE = "data/messages.toml"
# each key's bounds: a message of a whole report's length at most, and as many a turn as a page lists
BOUNDS = {"max_characters": (1, 20_000), "max_per_turn": (1, 1000), "max_shown": (1, 1000)}


@dataclass(frozen=True)
class MessageLimits:
    max_characters: int  # characters of one message
    max_per_turn: int  # messages one player sends in one turn
    max_shown: int  # newest messages listed to a player


def parse_limits(raw: Mapping[str, Any]) -> MessageLimits:
    problems = [f"{key}: unknown key (known: {', '.join(BOUNDS)})" for key in raw if key not in BOUNDS]
    for key, (low, high) in BOUNDS.items():
        value = raw.get(key)
        if value is None:
            problems.append(f"{key}: missing")
        elif type(value) is not int or not low <= value <= high:
            problems.append(f"{key}: {value!r} is not a whole number from {low} to {high}")
    if problems:
        raise DataError([f"{FILE}: {p}" for p in problems])
    return MessageLimits(**{key: int(raw[key]) for key in BOUNDS})


@cache
def message_limits() -> MessageLimits:
    return parse_limits(read_toml(data_dir() / "messages.toml"))
