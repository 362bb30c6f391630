"""Hostile input to the messages between players (PlayerDesk.SendMessage):
each refused by its field before anything is stored, an enemy player read as
no player at all, and nothing stored."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from pate.messaging import message_limits
from services.platform.errors import DeskError
from tests.integration.orders.test_confirm_and_messages import _read, _send, campaign  # noqa: F401

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    ("kind", "to", "body", "field"),
    [
        ("player", "allemand", "hello", "to:"),  # an enemy player reads as no player
        ("player", "nobody", "hello", "to:"),
        ("state", "FR", "hello", "to:"),
        ("shout", "", "hello", "to_kind:"),
        ("player", "calder", "", "body:"),
        ("player", "calder", "x" * (message_limits().max_characters + 1), "body:"),
        ("player", "calder\x00", "\x1b[31m", "to:"),
        ("player", "calder' OR 1=1 --", "hello", "to:"),
        ("state", "BR" * 300, "hello", "to:"),
        ("player", "calder", " \n\t ", "body:"),
    ],
)
def test_hostile_messages_are_refused_by_their_field(
    campaign: Engine,  # noqa: F811
    kind: str,
    to: str,
    body: str,
    field: str,
) -> None:
    with pytest.raises(DeskError) as err:
        _send(campaign, "cornwallis", kind, to, body)
    assert err.value.message.startswith(field)
    assert _read(campaign, "cornwallis") == []
