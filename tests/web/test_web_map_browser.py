"""The desk's maps in a real browser (Debian's Chromium through Selenium, as
tests/web/test_web_browser.py drives it) against the real stack: a commander
finds his squadron on the campaign page's map, opens a ship's order panel
beside the map and sends a course plotted there (and sees the panel as a
bottom sheet at phone width), plots a course on the order form's map
(first sea area by clicking its code on the map, the second from the
choices offered), sends it, and, once the turn is resolved, steps
through his replay; the game master steps through all sides; the same pages
at phone width.  Screenshots under test-artifacts/web/map-*.png."""

from __future__ import annotations

import pytest

from tests.web.conftest import Stack
from tests.web.test_web_browser import SHOTS, _login, _shot, _submit, _wait_for, browser  # noqa: F401

pytestmark = pytest.mark.e2e
COMMANDER, SHIP = "cornwallis", "BR1FL"
DESKTOP, WIDE, PHONE = (1100, 1400), (1280, 900), (390, 844)


def _campaign_map(driver, stack: Stack) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    _login(driver, stack, COMMANDER)
    driver.find_element(By.CSS_SELECTOR, ".desk-map svg path.sea-area")
    driver.find_element(By.CSS_SELECTOR, 'a.map-place[data-goto="ECH"]').click()
    chosen = driver.find_element(By.CSS_SELECTOR, "details.place.chosen")
    assert chosen.get_attribute("data-place") == "ECH" and chosen.get_attribute("open") is not None

    def width() -> float:
        box = driver.execute_script(
            "return document.querySelector('#map-europe svg').getAttribute('viewBox')"
        )
        return float(box.split()[2])

    opened = width()
    assert opened < 1200  # the map opens round his ships
    driver.find_element(By.ID, "map-europe").find_element(By.CSS_SELECTOR, "[data-zoom=in]").click()
    assert width() == pytest.approx(opened / 2, abs=1)
    driver.find_element(By.ID, "map-europe").find_element(By.CSS_SELECTOR, "[data-zoom=reset]").click()
    assert width() == 1200  # the whole map
    _shot(driver, "map-1-campaign")


def _panel(driver, stack: Stack) -> None:  # type: ignore[no-untyped-def]
    """The ship's line opens its order panel beside the map; the course is
    plotted on that map and sent from the panel."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.set_window_size(*WIDE)
    driver.get(f"{stack.url}/c/{stack.campaign}")
    driver.find_element(By.CSS_SELECTOR, f"#ship-{SHIP} a.open-panel").click()
    _wait_for(driver, f"/c/{stack.campaign}")
    panel = driver.find_element(By.ID, "order-panel")
    assert driver.execute_script("return document.activeElement.id") == "panel-head"  # focus went to it
    box = driver.execute_script("return arguments[0].getBoundingClientRect().left", panel)
    view = driver.find_element(By.CSS_SELECTOR, ".desk .map-view")
    assert box > view.rect["x"] + view.rect["width"] - 1  # beside the map, not below it
    assert "Wind" in panel.text and "the first move sails in it" in panel.text
    legal = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "f0-sea1")).options][1:]
    first = next(a for a in legal if len(a) == 3)
    driver.find_element(By.CSS_SELECTOR, f'.route-map g.area-code[data-area="{first}"] text').click()
    assert Select(driver.find_element(By.ID, "f0-sea1")).first_selected_option.get_attribute("value") == first
    assert first in driver.find_element(By.ID, "route-now").text
    driver.save_screenshot(str(SHOTS / "map-8-panel-desktop.png"))
    _submit(driver, panel.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]"))
    _wait_for(driver, f"/c/{stack.campaign}")
    assert "Orders accepted" in driver.find_element(By.ID, "sent").text
    assert f"sail {first}" in driver.find_element(By.ID, f"ship-{SHIP}").text
    driver.set_window_size(*DESKTOP)


def _phone_panel(driver, stack: Stack) -> None:  # type: ignore[no-untyped-def]
    """At phone width the panel is a sheet at the bottom, under a map that still pans and zooms."""
    from selenium.webdriver.common.by import By

    driver.set_window_size(*PHONE)
    driver.get(f"{stack.url}/c/{stack.campaign}?ship={SHIP}")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    sheet = driver.find_element(By.ID, "order-panel")
    rect = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", sheet)
    inner = driver.execute_script("return window.innerHeight")
    assert abs(rect["bottom"] - inner) < 2 and rect["top"] > inner / 3  # a sheet at the bottom
    svg = driver.find_element(By.CSS_SELECTOR, ".desk .map-view svg")
    top = driver.execute_script("return arguments[0].getBoundingClientRect().top", svg)
    assert 0 <= top < rect["top"] - 100  # the map shows above it
    box = "return arguments[0].getAttribute('viewBox')"
    before = driver.execute_script(box, svg)
    driver.find_element(By.CSS_SELECTOR, ".desk [data-zoom=in]").click()
    assert driver.execute_script(box, svg) != before  # the buttons are above the sheet, and zoom
    size = driver.find_element(By.ID, "sheet-size")
    size.click()
    assert size.get_attribute("aria-expanded") == "true"
    driver.save_screenshot(str(SHOTS / "map-9-panel-phone.png"))
    size.click()
    driver.set_window_size(*DESKTOP)


def _plot_and_send(driver, stack: Stack) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(f"{stack.url}/c/{stack.campaign}/ships/{SHIP}")
    driver.find_element(By.ID, "route-clear").click()  # the course the panel sent starts the form
    offered = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#route-choices .route-choice")]
    legal = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "f0-sea1")).options][1:]
    assert offered and set(legal) <= set(offered)  # the map offers what the form allows
    first = next(a for a in legal if len(a) == 3)
    driver.find_element(By.CSS_SELECTOR, f'.route-map g.area-code[data-area="{first}"] text').click()
    assert Select(driver.find_element(By.ID, "f0-sea1")).first_selected_option.get_attribute("value") == first
    driver.find_element(By.CSS_SELECTOR, '.route-map g.area-code[data-area="NOA"] text').click()
    refused = driver.find_element(By.ID, "route-refused")
    assert refused.is_displayed() and "cannot be the next step" in refused.text  # not beside the Channel
    second = driver.find_elements(By.CSS_SELECTOR, "#route-choices .route-choice")
    pick = next(b for b in second if len(b.text) == 3)
    name = pick.text
    pick.click()
    assert Select(driver.find_element(By.ID, "f0-sea2")).first_selected_option.get_attribute("value") == name
    assert f"{first} → {name}" in driver.find_element(By.ID, "route-now").text
    _shot(driver, "map-2-route")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]"))
    _wait_for(driver, f"/c/{stack.campaign}")
    assert "Orders accepted" in driver.find_element(By.ID, "sent").text
    assert f"{first}" in driver.find_element(By.ID, f"ship-{SHIP}").text


def _replay(driver, stack: Stack) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    stack.client.close_turn(stack.campaign, 1)
    stack.client.wait_open(stack.campaign, 2, timeout=120)
    driver.get(f"{stack.url}/c/{stack.campaign}/reports")
    driver.find_element(By.ID, "replay-link").click()
    assert "start of the campaign" in driver.find_element(By.ID, "replay-now").text
    driver.find_element(By.ID, "replay-next").click()
    assert "Turn 1" in driver.find_element(By.ID, "replay-now").text
    assert driver.find_elements(By.CSS_SELECTOR, "#replay-events li")
    box = driver.execute_script("return document.querySelector('.replay svg').getAttribute('viewBox')")
    assert float(box.split()[2]) < 1200  # it opens round his ships
    _shot(driver, "map-3-replay")
    # the truth is the reports service's to refuse while the campaign runs: nothing of it shows
    driver.get(f"{stack.url}/c/{stack.campaign}/replay/truth?turn=1")
    assert "Not found" in driver.page_source and not driver.find_elements(By.ID, "truth-head")


def _phone(driver, stack: Stack) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    driver.set_window_size(*PHONE)
    for path, name in (
        (f"/c/{stack.campaign}", "map-4-phone-campaign"),
        (f"/c/{stack.campaign}/ships/{SHIP}", "map-5-phone-route"),
        (f"/c/{stack.campaign}/replay?turn=1", "map-6-phone-replay"),
    ):
        driver.get(stack.url + path)
        wide = driver.execute_script("return document.documentElement.scrollWidth")
        assert wide <= PHONE[0], f"{path}: {wide} px wide on a {PHONE[0]} px screen"
        driver.find_element(By.CSS_SELECTOR, ".map-view svg")
        _shot(driver, name)
        driver.set_window_size(*PHONE)
    driver.set_window_size(*DESKTOP)


def _all_sides(driver, stack: Stack) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _login(driver, stack, "admin")
    driver.get(f"{stack.url}/c/{stack.campaign}/gm")
    driver.find_element(By.ID, "gm-replay").click()
    driver.find_element(By.ID, "replay-next").click()
    assert "Turn 1" in driver.find_element(By.ID, "replay-now").text
    _shot(driver, "map-7-replay-all-sides")
    # the game master sets any player's view beside the truth at any time
    driver.get(f"{stack.url}/c/{stack.campaign}/gm")
    Select(driver.find_element(By.ID, "truth-player")).select_by_value(COMMANDER)
    driver.find_element(By.CSS_SELECTOR, "#gm-truth button").click()
    driver.find_element(By.ID, "replay-next").click()
    assert driver.find_element(By.ID, "truth-head").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, "#replay-truth-lines li")


def test_a_turn_on_the_map_then_its_replay(browser, stack: Stack) -> None:  # noqa: F811
    _campaign_map(browser, stack)
    _panel(browser, stack)
    _phone_panel(browser, stack)
    _plot_and_send(browser, stack)
    _replay(browser, stack)
    _phone(browser, stack)
    _all_sides(browser, stack)
    assert (SHOTS / "map-7-replay-all-sides.png").exists()
