"""Newcomers settle into a campaign in a real browser (Chromium through Selenium), against the
real stack with the notifier's mail going to a local SMTP server and the bot admiral running
(docs/lobby.md, docs/accounts.md, docs/bots.md "Absence"):

- a newcomer signs up, confirms his address from the mailed link, finds a published campaign in
  the lobby, takes a seat and plays it turn after turn;
- a player who never sends orders falls into civil disorder, and a second newcomer takes his
  seat over from the lobby: he plays it from the next turn and reads none of its earlier reports;
- a third declares an absence and leaves a standing instruction; the bot admiral plays his seat
  while he is away and returns his ships to the port he named;
- the game master approves one ask for a seat and refuses another;
- at the end the result page opens for the players, and the archive's all-sides replay for anyone.

Screenshots under test-artifacts/web/lobby-*.png."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from pate.v1 import admin_pb2, orders_pb2
from tests.e2e.test_bot_admiral import wait_played
from tests.support.mailsink import link_token
from tests.web.conftest import Stack
from tests.web.test_web_accounts import _mail_to
from tests.web.test_web_browser import SHOTS, _submit, _wait_for, browser  # noqa: F401 (the fixture)
from tests.web.test_web_solo_browser import _login_to

pytestmark = pytest.mark.e2e
WITH_NOTIFIER = True
MASTER = "master-of-the-lobby"
PASSWORD = "a long enough password"


def _create(stack: Stack, cid: str, turns: int) -> None:
    req = admin_pb2.CreateCampaignRequest(
        id=cid, scenario="training", turns=turns, passwords={"admin": MASTER}
    )
    stack.client.admin.CreateCampaign(req, metadata=stack.client.admin_md, timeout=60)
    stack.client.wait_open(cid, 1)


def _button(driver: Any, text: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.XPATH, f"//button[normalize-space()='{text}']")


def _sign_up(driver: Any, stack: Stack, name: str, email: str) -> None:
    """Sign-up form, the link of the mail that comes, its button, then the login form."""
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{stack.url}/account")
    driver.find_element(By.ID, "signup-name").send_keys(name)
    driver.find_element(By.ID, "signup-email").send_keys(email)
    driver.find_element(By.ID, "signup-password").send_keys(PASSWORD)
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form#account-signup button[type=submit]"))
    assert "a mail is on its way" in driver.find_element(By.ID, "account-said").text
    driver.get(f"{stack.url}/account/verify?token={link_token(_mail_to(stack, email, 1))}")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form#account-verify button[type=submit]"))
    assert "Your address is confirmed" in driver.find_element(By.ID, "account-said").text
    _log_in(driver, stack, email)


def _log_in(driver: Any, stack: Stack, email: str) -> None:
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{stack.url}/account")
    driver.find_element(By.ID, "login-email").send_keys(email)
    driver.find_element(By.ID, "login-password").send_keys(PASSWORD)
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form#account-login button[type=submit]"))
    assert driver.find_element(By.ID, "account-me").is_displayed()


def _from_lobby(driver: Any, stack: Stack, cid: str, verb: str, seat: str) -> str:
    """Browse the lobby, open the campaign's listing, press Take or Ask; what the page said."""
    from selenium.webdriver.common.by import By

    driver.get(f"{stack.url}/lobby")
    driver.find_element(By.CSS_SELECTOR, f'#lobby-listings a[href="/lobby/{cid}"]').click()
    _wait_for(driver, f"/lobby/{cid}")
    _submit(driver, _button(driver, f"{verb} {seat}"))
    return str(driver.find_element(By.ID, "lobby-said").text)


def _play(driver: Any, stack: Stack, cid: str, seat: str) -> None:
    """My campaigns: the seat's Play button, to the campaign's desk."""
    from selenium.webdriver.common.by import By

    driver.get(f"{stack.url}/account")
    form = (
        f"//form[@action='/account/play'][input[@name='campaign' and @value='{cid}']][input[@value='{seat}']]"
    )
    _submit(driver, driver.find_element(By.XPATH, form + "//button"))
    _wait_for(driver, f"/c/{cid}")


def _order(driver: Any, stack: Stack, cid: str, ship: str) -> None:
    """An order for ``ship`` from its form: the first sea area the map allows."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(f"{stack.url}/c/{cid}/ships/{ship}")
    first = Select(driver.find_element(By.ID, "f0-sea1"))
    first.select_by_value(next(o.get_attribute("value") for o in first.options if o.get_attribute("value")))
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]"))
    assert "Orders accepted" in driver.find_element(By.ID, "sent").text


def _master_page(driver: Any, stack: Stack, cid: str, path: str = "gm") -> None:
    _login_to(driver, stack.url, cid, "admin", MASTER)
    driver.get(f"{stack.url}/c/{cid}/{path}")


def _publish(driver: Any, stack: Stack, cid: str, policy: str, seats: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _master_page(driver, stack, cid, "gm/lobby")
    driver.find_element(By.ID, "p-description").send_keys("Three turns in the Channel, for newcomers.")
    Select(driver.find_element(By.ID, "p-policy")).select_by_value(policy)
    Select(driver.find_element(By.ID, "p-start")).select_by_value("by_game_master")
    driver.find_element(By.ID, "p-seats").send_keys(seats)
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form#lobby-publish button[type=submit]"))
    assert "Published" in driver.find_element(By.ID, "lobby-said").text


def _close(driver: Any, stack: Stack, cid: str, turn: int) -> None:
    from selenium.webdriver.common.by import By

    _master_page(driver, stack, cid)
    driver.find_element(By.ID, "close-turn").send_keys(str(turn))
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]"))
    assert f"turn {turn} closed" in driver.find_element(By.ID, "gm-done").text
    stack.client.wait_open(cid, turn + 1) if turn < 3 else _wait_finished(stack, cid)


def _wait_finished(stack: Stack, cid: str, timeout: float = 90) -> None:
    end = time.monotonic() + timeout
    while stack.client.campaign(cid).status != admin_pb2.TURN_STATUS_FINISHED:
        assert time.monotonic() < end, "the campaign did not finish"
        time.sleep(0.3)


def _master_rules(driver: Any, stack: Stack, cid: str) -> None:
    """Civil disorder after one deadline missed, and the archive once it is finished."""
    from selenium.webdriver.common.by import By

    _master_page(driver, stack, cid)
    civil = driver.find_element(By.ID, "civil-after")
    civil.clear()
    civil.send_keys("1")
    _submit(driver, driver.find_element(By.ID, "civil-submit"))
    box = driver.find_element(By.ID, "archive-public")
    if not box.is_selected():
        box.click()
    _submit(driver, driver.find_element(By.ID, "save-options"))
    assert driver.find_element(By.ID, "archive-public").is_selected()


def _away(driver: Any, stack: Stack, cid: str) -> None:
    """Hardy declares turns 1 and 2 away, and that his ships go back to Portsmouth meanwhile."""
    from selenium.webdriver.common.by import By

    driver.get(f"{stack.url}/c/{cid}/away")
    driver.find_element(By.ID, "standing-text").send_keys("return Portsmouth for all")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form#standing-form button[type=submit]"))
    for field, value in (("from_turn", "1"), ("to_turn", "2")):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form#declare-absence button[type=submit]"))
    assert "Turns 1 to 2" in driver.find_element(By.ID, "absences").text
    driver.save_screenshot(str(SHOTS / "lobby-away.png"))


def _calder_goes_home(stack: Stack, cid: str) -> None:
    """The bot played Hardy's seat in turn 1, and his ships' orders are his instruction's."""
    wait_played(stack.client, cid, 1, "calder")
    stack.client.passwords[cid, "admin"] = MASTER
    req = orders_pb2.GetEffectiveOrdersRequest(campaign_id=cid, turn=1)
    got = stack.client.desk.GetEffectiveOrders(req, metadata=stack.client.player_md(cid, "admin"), timeout=30)
    calders = [
        e for e in got.orders if e.order.ship_id in ("BR2FL", "BR3SL", "BR2FR") and not e.order.attach_to
    ]
    assert calders and all(e.order.movement.port == "Portsmouth" for e in calders), calders


def _newcomers_take_seats(driver: Any, stack: Stack, cid: str, cid2: str, who: dict[str, str]) -> None:
    _sign_up(driver, stack, "Horatio Nelson", who["nelson"])
    driver.save_screenshot(str(SHOTS / "lobby-signed-up.png"))
    assert "The seat is yours" in _from_lobby(driver, stack, cid, "Take", "cornwallis")
    assert "asked" in _from_lobby(driver, stack, cid2, "Ask", "cornwallis").lower()
    _sign_up(driver, stack, "Thomas Hardy", who["hardy"])
    assert "The seat is yours" in _from_lobby(driver, stack, cid, "Take", "calder")
    _play(driver, stack, cid, "calder")
    _away(driver, stack, cid)
    _sign_up(driver, stack, "Pierre Villeneuve", who["villeneuve"])  # takes a seat, then never plays
    assert "The seat is yours" in _from_lobby(driver, stack, cid, "Take", "ganteaume")


def _replacement(driver: Any, stack: Stack, cid: str, cid2: str, email: str) -> None:
    """Turn 2: Villeneuve's seat is in civil disorder and in the lobby; Collingwood takes it."""
    from selenium.webdriver.common.by import By

    _sign_up(driver, stack, "Cuthbert Collingwood", email)
    assert "asked" in _from_lobby(driver, stack, cid2, "Ask", "ganteaume").lower()
    driver.get(f"{stack.url}/lobby/{cid}")
    assert "a replacement: in civil disorder" in driver.find_element(By.ID, "lobby-seats").text
    driver.save_screenshot(str(SHOTS / "lobby-replacement.png"))
    assert "The seat is yours" in _from_lobby(driver, stack, cid, "Take", "ganteaume")


def _master_decides(driver: Any, stack: Stack, cid2: str) -> None:
    """Approve Nelson's ask, refuse Collingwood's."""
    from selenium.webdriver.common.by import By

    _master_page(driver, stack, cid2, "gm/lobby")
    asks = driver.find_element(By.ID, "lobby-asks").text
    assert "Horatio Nelson" in asks and "Cuthbert Collingwood" in asks and "turns sent" in asks  # records
    for name, verb in (("Horatio Nelson", "Approve"), ("Cuthbert Collingwood", "Refuse")):
        row = f"//table[@id='lobby-asks']//tr[td[1][normalize-space()='{name}']]"
        _submit(driver, driver.find_element(By.XPATH, f"{row}//button[normalize-space()='{verb}']"))
    rows = driver.find_element(By.ID, "lobby-asks").text
    assert "approved" in rows and "refused" in rows
    driver.save_screenshot(str(SHOTS / "lobby-asks-decided.png"))


def test_newcomers_take_seats_play_replace_go_away_and_read_the_end(browser, stack: Stack) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    driver, tag = browser, uuid.uuid4().hex[:6]
    cid, cid2 = f"lobby-{tag}", f"asks-{tag}"
    who = {n: f"{n}-{tag}@example.org" for n in ("nelson", "hardy", "villeneuve", "collingwood")}
    stack.cluster.start("admiral")
    stack.cluster.wait_serving()
    _create(stack, cid, turns=3)
    _create(stack, cid2, turns=3)
    _publish(driver, stack, cid, "first_come", "cornwallis calder ganteaume")
    _publish(driver, stack, cid2, "approval", "cornwallis ganteaume")
    _master_rules(driver, stack, cid)
    _newcomers_take_seats(driver, stack, cid, cid2, who)
    _master_page(driver, stack, cid, "gm/lobby")
    _submit(driver, driver.find_element(By.ID, "lobby-start"))
    driver.get(f"{stack.url}/c/{cid}/gm")  # who holds his seats, by their names
    assert "cornwallis: Horatio Nelson" in driver.find_element(By.ID, "seat-holders").text

    _log_in(driver, stack, who["nelson"])  # turn 1: he plays; Hardy's seat is the bot's
    _play(driver, stack, cid, "cornwallis")
    _order(driver, stack, cid, "BR1FL")
    _calder_goes_home(stack, cid)
    _close(driver, stack, cid, 1)
    _replacement(driver, stack, cid, cid2, who["collingwood"])
    _log_in(driver, stack, who["nelson"])  # turn 2: he plays again
    _play(driver, stack, cid, "cornwallis")
    _order(driver, stack, cid, "BR1FL")
    _close(driver, stack, cid, 2)
    _master_decides(driver, stack, cid2)

    _log_in(driver, stack, who["collingwood"])  # turn 3: his from now on, and none of its past
    _play(driver, stack, cid, "ganteaume")
    _order(driver, stack, cid, "FR1FL")
    driver.get(f"{stack.url}/c/{cid}/reports/1")
    assert driver.title.startswith("Not found") or "Not found" in driver.page_source
    _close(driver, stack, cid, 3)

    _log_in(driver, stack, who["nelson"])
    seats = driver.find_element(By.ID, "account-seats").text
    assert cid2 in seats  # the approved ask gave him the seat
    _play(driver, stack, cid, "cornwallis")
    driver.get(f"{stack.url}/c/{cid}/result")
    assert driver.find_element(By.ID, "result-sentence").text
    driver.save_screenshot(str(SHOTS / "lobby-result.png"))
    driver.delete_all_cookies()  # anyone: the archive's replay of every side
    driver.get(f"{stack.url}/archive")
    driver.find_element(By.CSS_SELECTOR, f'#archive tr[data-campaign="{cid}"] a[href$="/replay/all"]').click()
    _wait_for(driver, f"/c/{cid}/replay/all")
    assert driver.find_elements(By.CSS_SELECTOR, ".replay-maps svg")
    driver.save_screenshot(str(SHOTS / "lobby-archive-replay.png"))
