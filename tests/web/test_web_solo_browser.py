"""A solo campaign in a real browser (Chromium through Selenium, as
tests/web/test_web_browser.py): the game master creates it from the create
form with one human seat, the bot admiral service plays every other seat,
the human logs in to his desk, the turn is closed and he reads his report.
Screenshots under test-artifacts/web/."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from pate.v1 import bots_pb2, bots_pb2_grpc
from tests.web.conftest import Stack
from tests.web.test_web_browser import SHOTS, _login, _submit, _wait_for, browser  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e


def _login_to(driver: Any, url: str, campaign: str, player: str, password: str) -> None:
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{url}/login?campaign={campaign}")
    driver.find_element(By.ID, "player").send_keys(player)
    driver.find_element(By.ID, "password").send_keys(password)
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]"))
    _wait_for(driver, f"/c/{campaign}")


def _bot_played(stack: Stack, campaign: str, turn: int, players: set[str], timeout: float = 90) -> None:
    stub = bots_pb2_grpc.BotAdmiralsStub(stack.client.orders_ch)
    end = time.monotonic() + timeout
    while True:
        got = stub.GetBotSeats(
            bots_pb2.GetBotSeatsRequest(campaign_id=campaign), metadata=stack.client.admin_md
        )
        if players <= {t.player_id for t in got.bot_turns if t.turn == turn}:
            return
        assert time.monotonic() < end, "the bot admiral did not play its seats"
        time.sleep(0.3)


def test_a_solo_campaign_is_created_and_played_in_the_browser(browser, stack: Stack) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    driver = browser
    stack.cluster.start("admiral")
    stack.cluster.wait_serving()
    _login(driver, stack, "admin")
    driver.find_element(By.LINK_TEXT, "Game master").click()
    solo = stack.campaign + "-solo-b"
    driver.find_element(By.ID, "new-admin-token").send_keys(stack.cluster.admin_token)  # the server's
    driver.find_element(By.ID, "new-id").send_keys(solo)
    driver.find_element(By.ID, "new-solo").send_keys("cornwallis")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form#create button[type=submit]"))
    _wait_for(driver, f"/c/{stack.campaign}/gm/create")  # the answer is the create page
    assert "solo: the bot admiral plays every seat but cornwallis" in driver.page_source
    logins = dict(re.findall(r"<tr><td>([a-z]+)</td><td><code>([^<]+)</code>", driver.page_source))
    driver.save_screenshot(str(SHOTS / "solo-created.png"))
    stack.client.wait_open(solo, 1)
    _bot_played(stack, solo, 1, {"ganteaume", "barham", "decres"})

    _login_to(driver, stack.url, solo, "cornwallis", logins["cornwallis"])
    assert driver.find_element(By.ID, "ship-BR1FL").is_displayed()
    _login_to(driver, stack.url, solo, "admin", logins["admin"])
    driver.get(f"{stack.url}/c/{solo}/gm")
    seats = driver.find_element(By.CSS_SELECTOR, "#bot-seats ul").text  # the seats, not the forms
    assert "ganteaume: played by the bot since turn 1" in seats and "cornwallis" not in seats
    driver.find_element(By.ID, "close-turn").send_keys("1")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]"))
    assert "turn 1 closed" in driver.find_element(By.ID, "gm-done").text
    stack.client.wait_open(solo, 2)
    _login_to(driver, stack.url, solo, "cornwallis", logins["cornwallis"])
    driver.get(f"{stack.url}/c/{solo}/reports/1/body")  # the report page shows it in a frame
    assert "BR1FL" in driver.page_source
    driver.save_screenshot(str(SHOTS / "solo-report.png"))
