"""What an error or a log line may quote of its input: an excerpt of each value, the first few
problems, and a message cut to what a reply may carry (docs/security.md, "Limits")."""

from __future__ import annotations

from collections.abc import Sequence

# Of any input value quoted back in an error or a log line.
EXCERPT_CHARS = 80
# Of any error message sent to a caller (the field, the rule, an excerpt).
MAX_DETAIL_CHARS = 1000


def excerpt(value: str, limit: int = EXCERPT_CHARS) -> str:
    """At most ``limit`` characters of an input value, quoted, for errors and logs."""
    return repr(value[:limit]) + ("..." if len(value) > limit else "")


def first_problems(problems: Sequence[object], shown: int = 5) -> str:
    """The first problems, each cut short: an error quotes its input only in excerpts."""
    out = "; ".join(str(p)[: 2 * EXCERPT_CHARS] for p in problems[:shown])
    more = len(problems) - shown
    return out + (f"; and {more} more" if more > 0 else "")


def bounded(message: str, limit: int = MAX_DETAIL_CHARS) -> str:
    """An error message cut to what a reply may carry."""
    return message if len(message) <= limit else message[: limit - 3] + "..."
