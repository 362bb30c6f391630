"""Whole numbers given on the command line, checked against their range where argparse reads
them: a value out of range is a one-line usage error naming the option, never a traceback from
deep inside (a turn of 2**31 overflowing a message's int32 field)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from services.platform.security.field_shapes import MAX_SEED, MAX_TURN, MAX_TURN_SECONDS


def whole(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse ``type``: an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {what} from {low} to {high} (got {text[:40]})")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


TURN = whole(0, MAX_TURN, "a turn")
TURNS = whole(0, MAX_TURN, "a number of turns")
SEED = whole(0, MAX_SEED, "a seed")
TURN_SECONDS = whole(0, MAX_TURN_SECONDS, "seconds")
