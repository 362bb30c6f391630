"""The campaign-over notice sends the player to what the end now shows (services/notifier/messages.py)."""

from __future__ import annotations

from services.notifier import messages


def test_the_campaign_over_notice_names_the_result_page_and_the_replays() -> None:
    subject, body = messages.campaign_finished("trafalgar-1", 15)
    assert subject == "trafalgar-1: the campaign is over"
    assert "ended after 15 turns" in body and "/c/trafalgar-1/result" in body
    assert "every side" in body and "beside the truth" in body
