"""The web desk's answers to what a player should not be able to break, over HTTP against the
real stack: report URLs naming impossible turns, and fields naming ships the player does not
know of, each answered as the pages promise (docs/web.md), never with a 500 or a bare 404."""

from __future__ import annotations

import pytest

from tests.web.conftest import Stack
from tests.web.test_web_http import COMMANDER, OTHER, csrf, login, web  # noqa: F401  (the fixture)

pytestmark = pytest.mark.e2e


def test_a_report_of_a_turn_no_campaign_can_have_is_not_found(web, stack: Stack) -> None:  # noqa: F811
    """docs/web.md: "A turn without a report of yours is 'Not found'"; a turn past any campaign's
    last, or past what a number field can hold, too: never a 500 nor the service's limit."""
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    for turn in ("150", "2147483648", "99999999999999999999"):
        for tail in ("", "/body", "/text"):
            r = client.get(f"/c/{stack.campaign}/reports/{turn}{tail}")
            assert r.status_code == 404 and "Not found" in r.text and "between" not in r.text, (turn, tail)


def test_an_attachment_to_no_ship_known_is_refused_beside_its_field(web, stack: Stack) -> None:  # noqa: F811
    """The desk answers NOT_FOUND for an attachment to a ship the player does not know of (the
    fog of war: as for no ship at all); that is a refusal of the field, shown beside it with the
    form kept, not the generic "Not found" page."""
    client, _ = web
    login(client, stack.campaign, OTHER, stack.passwords[OTHER])
    page = client.get(f"/c/{stack.campaign}/ships/BR2FR")
    for target in ("FR99SL", "FR1SL"):  # one that does not exist, one never seen: alike
        data = {"csrf": csrf(page.text), "ships": "BR2FR", "turn": "1", "0.attach_to": target}
        r = client.post(f"/c/{stack.campaign}/orders", data=data)
        assert r.status_code == 422, target
        assert f"no ship {target} that you know of" in r.text and "rule 4.4" in r.text
