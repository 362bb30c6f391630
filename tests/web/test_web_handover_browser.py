"""The game master's hand-over in a real browser (Chromium through Selenium, as
tests/web/test_web_browser.py): he hands a player to the bot admiral with the form, sees him in
the bot's seats, sets civil disorder, and takes him back; a refusal shows beside its field.
Screenshots under test-artifacts/web/."""

from __future__ import annotations

import pytest

from tests.web.conftest import Stack
from tests.web.test_web_browser import SHOTS, _login, _submit, browser  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e


def test_the_master_hands_a_player_to_the_bot_and_back_in_the_browser(browser, stack: Stack) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = browser
    _login(driver, stack, "admin")
    driver.get(f"{stack.url}/c/{stack.campaign}/gm")
    Select(driver.find_element(By.ID, "hand-player")).select_by_value("ganteaume")
    _submit(driver, driver.find_element(By.ID, "hand-submit"))
    assert "the bot admiral plays ganteaume" in driver.find_element(By.ID, "gm-done").text
    seats = driver.find_element(By.ID, "bot-seats")
    assert "ganteaume: played by the bot since turn 1 (handed over by the game master)" in seats.text
    driver.save_screenshot(str(SHOTS / "gm-handed-over.png"))

    after = driver.find_element(By.ID, "civil-after")
    after.clear()
    after.send_keys("16")
    _submit(driver, driver.find_element(By.ID, "civil-submit"))
    error = driver.find_element(By.ID, "err-bots-after")
    assert error.is_displayed() and "0 (never) to 15" in error.text
    after = driver.find_element(By.ID, "civil-after")
    assert after.get_attribute("aria-invalid") == "true"
    after.clear()
    after.send_keys("1")
    _submit(driver, driver.find_element(By.ID, "civil-submit"))
    assert "after 1 deadline(s) missed in a row" in driver.find_element(By.ID, "gm-done").text

    Select(driver.find_element(By.ID, "take-player")).select_by_value("ganteaume")
    _submit(driver, driver.find_element(By.ID, "take-submit"))
    assert "ganteaume plays himself again" in driver.find_element(By.ID, "gm-done").text
    assert "No player is played by the bot." in driver.find_element(By.ID, "bot-seats").text
    after = driver.find_element(By.ID, "civil-after")
    after.clear()
    after.send_keys("0")
    _submit(driver, driver.find_element(By.ID, "civil-submit"))
    driver.save_screenshot(str(SHOTS / "gm-taken-back.png"))
