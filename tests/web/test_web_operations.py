"""The order form's naval operation section (EiA new naval rules,
docs/rules/eia-operations.md) over HTTP against the real stack: only the
operations the orders service lists for a fleet are offered, a choice the
form did not offer is refused beside its field, the desk's own refusals are
shown beside the field they name, and an accepted operation comes back filled in."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from starlette.testclient import TestClient

from pate.v1 import admin_pb2
from tests.web.conftest import Stack
from tests.web.test_web_browser import browser  # noqa: F401 (the fixture)
from tests.web.test_web_http import csrf, login, web  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e

MINISTER = "barham"  # BR1TR in Portsmouth harbor with the corps BR1IN aboard (training scenario)
COMMANDER = "cornwallis"  # BR1FL, a fleet at sea in ECH


@pytest.fixture(scope="module")
def ops_campaign(stack: Stack) -> str:
    cid = f"ops-{uuid.uuid4().hex[:8]}"
    req = admin_pb2.CreateCampaignRequest(
        id=cid, scenario="training", passwords=stack.passwords, naval_rules="eia-operations"
    )
    stack.client.admin.CreateCampaign(req, metadata=stack.client.admin_md, timeout=60)
    stack.client.wait_open(cid, 1)
    return cid


def options(page: str, field: str) -> list[str]:
    found = re.search(rf'<select id="{re.escape(field)}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"no select {field}"
    return [html.unescape(v) for v in re.findall(r'<option value="([^"]*)"', found.group(1)) if v]


def error_of(page: str, index: int, name: str) -> str:
    found = re.search(rf'id="err-{index}-{name}"[^>]*>([^<]+)<', page)
    return html.unescape(found.group(1)) if found else ""


def post(client: TestClient, cid: str, ship: str, **fields: str) -> object:
    token = csrf(client.get(f"/c/{cid}/ships/{ship}").text)
    data = {"csrf": token, "ships": ship, "turn": "1", **{f"0.{k}": v for k, v in fields.items()}}
    return client.post(f"/c/{cid}/orders", data=data, follow_redirects=False)


def test_a_fleet_at_sea_is_offered_only_naval_superiority_and_rebase(
    web,  # noqa: F811
    stack: Stack,
    ops_campaign: str,
) -> None:
    client, _ = web
    login(client, ops_campaign, COMMANDER, stack.passwords[COMMANDER])
    page = client.get(f"/c/{ops_campaign}/ships/BR1FL").text
    assert 'id="operation-BR1FL"' in page
    assert options(page, "f0-op_kind") == ["naval_superiority", "rebase"]
    targets = options(page, "f0-op_target")
    assert "Portsmouth" in targets and "blockade Brest" in targets  # a friendly port; an enemy's box
    assert "Brest" not in targets  # an enemy port is no Rebase destination, only its box

    r = post(client, ops_campaign, "BR1FL", op_kind="patrol")  # "may only choose Naval Superiority or Rebase"
    assert r.status_code == 422  # type: ignore[attr-defined]
    assert "not an operation this fleet may take" in error_of(r.text, 0, "op_kind")  # type: ignore[attr-defined]


def test_a_transport_is_offered_with_its_corps_and_comes_back_filled_in(
    web,  # noqa: F811
    stack: Stack,
    ops_campaign: str,
) -> None:
    client, _ = web
    login(client, ops_campaign, MINISTER, stack.passwords[MINISTER])
    page = client.get(f"/c/{ops_campaign}/ships/BR1TR").text
    kinds = options(page, "f0-op_kind")
    assert {"transport", "invasion", "patrol", "protect_trade", "supply"} <= set(kinds)
    assert options(page, "f0-op_corps") == ["BR1IN"]
    group = re.search(r'<optgroup label="Transport" data-kind="transport">(.*?)</optgroup>', page, re.S)
    assert group
    port = re.findall(r'value="([^"]+)"', group.group(1))[0]

    r = post(client, ops_campaign, "BR1TR", op_kind="transport", op_target=port)  # no corps chosen
    assert r.status_code == 422  # type: ignore[attr-defined]
    assert "corps aboard" in error_of(r.text, 0, "op_corps")  # type: ignore[attr-defined]

    r = post(client, ops_campaign, "BR1TR", op_kind="transport", op_target="Toulon-nowhere", op_corps="BR1IN")
    assert r.status_code == 422  # type: ignore[attr-defined]
    assert "targets offered for Transport" in error_of(r.text, 0, "op_target")  # type: ignore[attr-defined]

    r = post(client, ops_campaign, "BR1TR", op_kind="transport", op_target=port, op_corps="BR1IN")
    assert r.status_code == 303, r.text  # type: ignore[attr-defined]
    campaign_page = client.get(f"/c/{ops_campaign}").text
    block = campaign_page.split('id="ship-BR1TR"', 1)[1].split("</li>", 1)[0]
    assert f"operation Transport BR1IN to {port}" in html.unescape(block)
    again = client.get(f"/c/{ops_campaign}/ships/BR1TR").text
    assert re.search(r'<option value="transport" selected>', again)
    assert re.search(rf'<option value="{re.escape(port)}" data-kind="transport" selected>', again)
    assert re.search(r'<option value="BR1IN" selected>', again)


def test_going_home_and_column_orders_are_sent_refused_beside_their_field_and_shown_back(
    web,  # noqa: F811
    stack: Stack,
    ops_campaign: str,
) -> None:
    """The text's "may" (``return``) and the column orders (docs/rules/eia-operations.md,
    "Column orders") from the form: the desk's refusal of a column naming a ship not of the
    fleet is shown beside the column orders; accepted, they come back filled in."""
    client, _ = web
    login(client, ops_campaign, MINISTER, stack.passwords[MINISTER])
    page = client.get(f"/c/{ops_campaign}/ships/BR1TR").text
    assert 'id="f0-op_columns"' in page and 'id="f0-op_return"' in page and 'id="f0-op_declare"' in page
    group = re.search(r'<optgroup label="Transport" data-kind="transport">(.*?)</optgroup>', page, re.S)
    assert group
    port = re.findall(r'value="([^"]+)"', group.group(1))[0]
    fields = {"op_kind": "transport", "op_target": port, "op_corps": "BR1IN", "op_return": "on"}

    r = post(client, ops_campaign, "BR1TR", **fields, op_columns="BR1TR BR1FL")
    assert r.status_code == 422  # type: ignore[attr-defined]
    assert "BR1FL is not a ship of this fleet" in error_of(r.text, 0, "op_columns")  # type: ignore[attr-defined]

    r = post(client, ops_campaign, "BR1TR", **fields, op_columns="column BR1TR plan evade if outnumbered")
    assert r.status_code == 303, r.text  # type: ignore[attr-defined]
    again = client.get(f"/c/{ops_campaign}/ships/BR1TR").text
    assert "BR1TR plan evade if outnumbered</textarea>" in again
    assert re.search(r'id="f0-op_return" name="0.op_return" value="on" checked', again)


def test_the_desks_refusal_of_a_chain_is_shown_beside_the_chain(web, stack: Stack, ops_campaign: str) -> None:  # noqa: F811
    client, _ = web
    login(client, ops_campaign, MINISTER, stack.passwords[MINISTER])
    page = client.get(f"/c/{ops_campaign}/ships/BR1TR").text
    group = re.search(
        r'<optgroup label="Protect Trade" data-kind="protect_trade">(.*?)</optgroup>', page, re.S
    )
    assert group
    first = re.findall(r'value="([^"]+)"', group.group(1))[0]
    # a chain that jumps to a sea area far from the first: the desk refuses it, naming the rule
    r = post(client, ops_campaign, "BR1TR", op_kind="protect_trade", op_target=first, op_chain="ION")
    assert r.status_code == 422  # type: ignore[attr-defined]
    said = error_of(r.text, 0, "op_chain")  # type: ignore[attr-defined]
    assert "EiA new naval rules" in said and "Protect Trade" in said, said

    for hostile in ("<script>x</script>", "ECH " * 40, "e" * 5000):
        r = post(client, ops_campaign, "BR1TR", op_kind="protect_trade", op_target=first, op_chain=hostile)
        assert r.status_code == 422  # type: ignore[attr-defined]
        assert error_of(r.text, 0, "op_chain")  # type: ignore[attr-defined]
        assert "<script>x" not in r.text  # type: ignore[attr-defined]

    r = post(client, ops_campaign, "BR1TR", op_kind="protect_trade", op_target=first)
    assert r.status_code == 303  # type: ignore[attr-defined]


def test_a_campaign_under_pates_rules_has_no_operation_section(web, stack: Stack) -> None:  # noqa: F811
    client, _ = web
    login(client, stack.campaign, MINISTER, stack.passwords[MINISTER])
    page = client.get(f"/c/{stack.campaign}/ships/BR1TR").text
    assert "op_kind" not in page and "Naval operation" not in page
    token = csrf(page)
    data = {"csrf": token, "ships": "BR1TR", "turn": "1", "0.op_kind": "patrol"}
    r = client.post(f"/c/{stack.campaign}/orders", data=data)
    assert r.status_code == 422
    assert "takes no naval operation in this campaign" in r.text


def test_in_chromium_the_target_list_follows_the_operation_chosen(
    browser,  # noqa: F811
    stack: Stack,
    ops_campaign: str,
) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from tests.web.test_web_browser import SHOTS, _shot, _wait_for

    browser.delete_all_cookies()
    browser.get(f"{stack.url}/login?campaign={ops_campaign}")
    browser.find_element(By.ID, "player").send_keys(MINISTER)
    browser.find_element(By.ID, "password").send_keys(stack.passwords[MINISTER])
    browser.find_element(By.CSS_SELECTOR, "form.card button[type=submit]").click()
    _wait_for(browser, f"/c/{ops_campaign}")
    browser.get(f"{stack.url}/c/{ops_campaign}/ships/BR1TR")
    kind = Select(browser.find_element(By.ID, "f0-op_kind"))
    target = browser.find_element(By.ID, "f0-op_target")

    def shown() -> set[str]:
        script = (
            "return Array.from(arguments[0].options).filter(o => o.value && !o.parentElement.disabled)"
            ".map(o => o.dataset.kind)"
        )
        return set(browser.execute_script(script, target))

    kind.select_by_value("")
    assert shown() == set()  # no operation: no target offered
    kind.select_by_value("invasion")
    assert shown() == {"invasion"}
    kind.select_by_value("transport")
    assert shown() == {"transport"}
    first = next(o for o in Select(target).options if o.get_attribute("data-kind") == "transport")
    port = first.get_attribute("value")
    first.click()  # the same port is also a Rebase target, in its own (now disabled) group
    Select(browser.find_element(By.ID, "f0-op_corps")).select_by_value("BR1IN")
    browser.find_element(By.ID, "operation-BR1TR").screenshot(
        str(SHOTS.parent / "web" / "operation-form.png")
    )
    browser.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]").click()
    _wait_for(browser, f"/c/{ops_campaign}")
    block = browser.find_element(By.ID, "ship-BR1TR").text
    assert f"operation Transport BR1IN to {port}" in block, block
    _shot(browser, "operation-sent")
