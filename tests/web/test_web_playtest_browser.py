"""What a play-test of the web desk found, in Chromium (as tests/web/test_web_browser.py drives
it) against the real stack: on a 390 px phone neither My campaigns nor the order help is wider
than the screen; on the game master's page each radio button sits beside its label."""

from __future__ import annotations

import pytest

from tests.web.conftest import Stack
from tests.web.test_web_browser import _login, browser  # noqa: F401 (the fixture)

pytestmark = pytest.mark.e2e
PHONE, DESKTOP = (390, 844), (1100, 1400)


def _page_width(driver) -> int:  # type: ignore[no-untyped-def]
    return int(driver.execute_script("return document.documentElement.scrollWidth"))


def test_no_page_is_wider_than_a_phone(browser, stack: Stack) -> None:  # noqa: F811
    driver = browser
    _login(driver, stack, "cornwallis")
    driver.set_window_size(*PHONE)
    screen = int(driver.execute_script("return window.innerWidth"))
    assert screen <= PHONE[0]
    for path in ("/", "/help/orders", f"/c/{stack.campaign}/reports"):
        driver.get(f"{stack.url}{path}")
        assert _page_width(driver) <= screen, path


def test_each_radio_sits_beside_its_label(browser, stack: Stack) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    driver = browser
    driver.set_window_size(*DESKTOP)
    _login(driver, stack, "admin")
    driver.get(f"{stack.url}/c/{stack.campaign}/gm")
    for radio_id in ("after-close", "after-schedule"):
        radio = driver.find_element(By.ID, radio_id).rect
        label = driver.find_element(By.CSS_SELECTOR, f'label[for="{radio_id}"]').rect
        assert radio["width"] < 40, radio  # a radio, not a line of its own
        assert label["x"] > radio["x"] + radio["width"] - 1  # to its right
        radio_mid, label_mid = radio["y"] + radio["height"] / 2, label["y"] + label["height"] / 2
        assert abs(radio_mid - label_mid) < label["height"], (radio, label)  # on the same line
