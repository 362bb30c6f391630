"""The order form's "Preview" button over HTTP against the real stack (docs/rules/intel.md,
"Previews"; docs/web.md): the orders as filled in are played, not sent, and the same form
comes back with the summary and a map; a ship he does not know is refused beside its field."""

from __future__ import annotations

import pytest

from tests.web.conftest import Stack
from tests.web.test_web_http import COMMANDER, OTHER, csrf, login, web  # noqa: F401  (the fixture)

pytestmark = pytest.mark.e2e


def test_the_preview_button_shows_where_the_ships_may_end(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, OTHER, stack.passwords[OTHER])
    page = client.get(f"/c/{stack.campaign}/ships/BR2FR")
    assert 'formaction="/c/' in page.text and "/orders/preview" in page.text
    data = {"csrf": csrf(page.text), "ships": "BR2FR", "turn": "1", "0.sea1": "ECH"}
    r = client.post(f"/c/{stack.campaign}/orders/preview", data=data)
    assert r.status_code == 200, r.text[:500]
    assert "What may happen" in r.text and "BR2FR" in r.text and "ordered to ECH" in r.text
    assert "<svg" in r.text and "Where my ships may end" in r.text
    assert 'value="ECH"' in r.text  # the form comes back as filled in: nothing was sent
    effective = client.get(f"/c/{stack.campaign}/ships/BR2FR")
    assert "What may happen" not in effective.text


def test_a_preview_of_a_ship_he_does_not_know_is_refused(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, COMMANDER, stack.passwords[COMMANDER])
    page = client.get(f"/c/{stack.campaign}/ships/BR1FL")
    data = {"csrf": csrf(page.text), "ships": "BR1FL", "turn": "1", "0.attach_to": "FR99SL"}
    r = client.post(f"/c/{stack.campaign}/orders/preview", data=data)
    assert r.status_code == 422 and "no ship FR99SL that you know of" in r.text
    forged = {**data, "csrf": "0" * 64, "0.attach_to": ""}  # another site's form: nothing played
    r = client.post(f"/c/{stack.campaign}/orders/preview", data=forged)
    assert r.status_code == 403 and "What may happen" not in r.text


def test_the_panel_previews_and_stays_the_panel(web, stack: Stack) -> None:  # noqa: F811
    """docs/web.md: the campaign page's order panel has the same button; its answer comes back
    in the panel, with the form as filled in."""
    client, _ = web
    login(client, stack.campaign, OTHER, stack.passwords[OTHER])
    page = client.get(f"/c/{stack.campaign}?ship=BR2FR")
    assert 'id="order-panel"' in page.text and "/orders/preview" in page.text
    data = {"csrf": csrf(page.text), "ships": "BR2FR", "turn": "1", "panel": "1", "0.sea1": "ECH"}
    r = client.post(f"/c/{stack.campaign}/orders/preview", data=data)
    assert r.status_code == 200 and 'id="order-panel"' in r.text
    assert "What may happen" in r.text and "ordered to ECH" in r.text
