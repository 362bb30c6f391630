"""A message's words reach an ally's Discord or Slack channel as words (services/notifier/sinks.py):
no one is pinged, no link is masked, no channel-wide alert is raised by what a player wrote."""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.notifier import sinks

HOSTILE = (
    "@everyone <!channel> <@U024BE7LH> <https://evil.example|the admiralty> "
    "[orders](https://evil.example) & more"
)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    got: dict[str, Any] = {}

    def post(url: str, body: bytes, allow: frozenset[str]) -> int:
        got.update(json.loads(body))
        return 204

    monkeypatch.setattr(sinks.webhooks, "post", post)
    return got


def test_discord_pings_no_one_and_draws_no_masked_link(sent: dict[str, Any]) -> None:
    assert sinks.post_webhook("https://hooks.example/x", "From Nelson", HOSTILE, {})
    assert sent["allowed_mentions"] == {"parse": []}
    content = sent["content"]
    assert "\\@everyone" in content and "\\[orders\\]\\(https://evil.example\\)" in content
    assert "[orders](" not in content


def test_slack_shows_its_control_sequences_as_text(sent: dict[str, Any]) -> None:
    sinks.post_webhook("https://hooks.example/x", "From <!here>", HOSTILE, {})
    text = sent["text"]
    assert "<" not in text and ">" not in text
    assert "&lt;!channel&gt;" in text and "&lt;!here&gt;" in text and "&amp; more" in text


def test_plain_words_read_as_they_were_written(sent: dict[str, Any]) -> None:
    sinks.post_webhook("https://hooks.example/x", "Turn 3 is open", "Orders by Friday, 18:00.", {})
    assert sent["text"] == "*Turn 3 is open*\nOrders by Friday, 18:00."
    assert sent["content"] == "**Turn 3 is open**\nOrders by Friday, 18:00."
    assert sent["subject"] == "Turn 3 is open"
