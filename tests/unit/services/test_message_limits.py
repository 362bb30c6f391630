"""The limits of messages between players are data (data/messages.toml),
checked once when read: every key known, present and within its bounds."""

from __future__ import annotations

import pytest

from pate.core.world.fields import DataError
from pate.messaging import BOUNDS, MessageLimits, message_limits, parse_limits
from services.platform.security import limits


def test_the_shipped_limits_are_the_documented_ones() -> None:
    assert message_limits() == MessageLimits(max_characters=2000, max_per_turn=30, max_shown=200)
    # the RPC's outer bound lets the longest message the data file may allow through
    rule = limits.RULES["pate.v1.SendMessageRequest.body"]
    assert isinstance(rule, limits.Text) and rule.max_chars == BOUNDS["max_characters"][1] and rule.lines


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({"max_characters": 0, "max_per_turn": 30, "max_shown": 200}, "max_characters: 0 is not"),
        ({"max_characters": "2000", "max_per_turn": 30, "max_shown": 200}, "max_characters: '2000'"),
        ({"max_characters": True, "max_per_turn": 30, "max_shown": 200}, "max_characters: True"),
        ({"max_characters": 2000, "max_shown": 200}, "max_per_turn: missing"),
        ({"max_characters": 2000, "max_per_turn": 30, "max_shown": 200, "per_day": 5}, "per_day: unknown"),
        ({"max_characters": 2000, "max_per_turn": 30, "max_shown": 10**9}, "max_shown: 1000000000"),
    ],
)
def test_a_bad_file_is_refused_naming_the_key(raw: dict[str, object], said: str) -> None:
    with pytest.raises(DataError) as err:
        parse_limits(raw)
    assert "data/messages.toml: " + said in str(err.value)


def test_a_message_of_several_lines_passes_the_rpc_limits() -> None:
    rule = limits.RULES["pate.v1.SendMessageRequest.body"]
    assert isinstance(rule, limits.Text)
    rule.check("body", "Meet me off Ushant.\nThe squadron sails at dawn.\n" + "x" * 1900)
    with pytest.raises(limits.LimitError):
        rule.check("body", "x" * (BOUNDS["max_characters"][1] + 1))
