"""Ordering from the campaign map in a real browser (Debian's Chromium through
Selenium, as tests/web/test_web_browser.py drives it) against the real stack,
at 1280 and at 390 px: a commander chooses his own ships' marker on the map
(a list of the ships it stands for when it stands for several; with the
keyboard too), reaches a ship's order panel, orders a course, sends it and
sees it drawn on the map as arrows; others' markers offer no orders; the map
opens at a zoom where every word shown is at least 11 px tall, and hides the
words zooming out would shrink; the report's maps open large.  Screenshots in
$PATE_MAP_SHOTS (/tmp/map-orders-shots by default, outside the repository)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Stack
from tests.web.test_web_browser import _login, _submit, _wait_for, browser  # noqa: F401

pytestmark = pytest.mark.e2e
SHOTS = Path(os.environ.get("PATE_MAP_SHOTS", "/tmp/map-orders-shots"))
WIDE, PHONE = (1280, 900), (390, 844)
SMALLEST_WORDS = """
var svg = arguments[0].querySelector('svg'), b = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
var scale = Math.min(r.width / b.width, r.height / b.height);
var shown = Array.from(svg.querySelectorAll('text')).filter(function (t) {
  return getComputedStyle(t).display !== 'none';
});
return [scale, Math.min.apply(null, shown.map(function (t) {
  return parseFloat(t.getAttribute('font-size')) * scale; })), shown.length];
"""


def _shot(driver: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def _readable(driver: Any, view: Any, *, some: bool = True) -> None:
    """Every word the map shows is at least 11 CSS px tall (and some are shown)."""
    scale, smallest, shown = driver.execute_script(SMALLEST_WORDS, view)
    assert (shown > 0 or not some) and (not shown or smallest >= 10.95), (scale, smallest)


def _course_drawn(driver: Any, ship: str, places: str) -> None:
    from selenium.webdriver.common.by import By

    course = driver.find_element(By.CSS_SELECTOR, f'.desk-map g.course[data-ships~="{ship}"]')
    assert course.get_attribute("data-places") == places
    arrows = course.find_elements(By.CSS_SELECTOR, "line")
    assert len(arrows) == len(places.split()) - 1
    assert all(a.get_attribute("marker-end").startswith("url(#head-") for a in arrows)


def _marker_list_then_panel(driver: Any, stack: Stack) -> None:
    """1280 px: his marker of four ships lists them; the keyboard opens it too; others' do not."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver.set_window_size(*WIDE)
    _login(driver, stack, "cornwallis")
    view = driver.find_element(By.CSS_SELECTOR, "#map-europe .map-view")
    _readable(driver, view)
    seen = driver.find_element(By.CSS_SELECTOR, "#map-europe g.icon:not([data-ships])")
    assert seen.get_attribute("tabindex") is None and seen.get_attribute("role") is None
    mark = driver.find_element(By.CSS_SELECTOR, '#map-europe g.icon[data-ships~="BR1FL"]')
    assert mark.get_attribute("role") == "button" and mark.get_attribute("tabindex") == "0"
    driver.execute_script("arguments[0].focus()", mark)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    menu = driver.find_element(By.CSS_SELECTOR, ".marker-menu")
    links = [a.text for a in menu.find_elements(By.CSS_SELECTOR, "a.marker-ship")]
    assert len(links) == 4 and links[0].startswith("BR1FL")  # his four ships in the Channel
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    assert not driver.find_elements(By.CSS_SELECTOR, ".marker-menu")
    assert driver.execute_script("return document.activeElement") == mark  # back on the marker
    driver.find_element(By.CSS_SELECTOR, "#map-europe g.icon:not([data-ships]) circle").click()
    assert not driver.find_elements(By.CSS_SELECTOR, ".marker-menu")  # the French he saw: no orders
    _shot(driver, "1-wide-campaign-map")
    mark.find_element(By.CSS_SELECTOR, "circle").click()
    _shot(driver, "2-wide-marker-list")
    driver.find_element(By.CSS_SELECTOR, '.marker-menu a.marker-ship[href*="ship=BR1FL"]').click()
    _wait_for(driver, f"/c/{stack.campaign}")
    panel = driver.find_element(By.ID, "order-panel")
    assert "BR1FL" in driver.find_element(By.ID, "panel-head").text
    _readable(driver, driver.find_element(By.CSS_SELECTOR, ".desk .map-view"))
    driver.find_element(By.CSS_SELECTOR, '.route-map g.area-code[data-area="BIS"] text').click()
    driver.find_element(By.CSS_SELECTOR, '#route-choices .route-choice[data-goto="Rochefort"]').click()
    assert "BIS → Rochefort" in driver.find_element(By.ID, "route-now").text
    panel.find_element(By.CSS_SELECTOR, "details.more-orders > summary").click()
    Select(driver.find_element(By.ID, "f0-mode")).select_by_value("pursue")
    _shot(driver, "3-wide-order-panel")
    _submit(driver, panel.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]"))
    _wait_for(driver, f"/c/{stack.campaign}")
    assert "Orders accepted" in driver.find_element(By.ID, "sent").text
    _course_drawn(driver, "BR1FL", "ECH BIS Rochefort")
    assert (
        driver.find_element(By.CSS_SELECTOR, '.desk-map g.course[data-ships~="BR1FL"]').get_attribute(
            "data-contact"
        )
        == "pursue"
    )
    assert "my course: pursues (4.6)" in driver.find_element(By.CSS_SELECTOR, "#map-europe .map-legend").text
    _shot(driver, "4-wide-course-drawn")


def _phone_marker_then_course(driver: Any, stack: Stack) -> None:
    """390 px: his marker of one ship opens its panel at once; the course he sends is drawn."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.set_window_size(*PHONE)
    _login(driver, stack, "decres")
    view = driver.find_element(By.CSS_SELECTOR, "#map-europe .map-view")
    _readable(driver, view)
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    legend = driver.find_element(By.CSS_SELECTOR, "#map-europe .map-legend")
    assert legend.is_displayed() and "French (FR)" in legend.text
    _shot(driver, "5-phone-campaign-map")
    driver.find_element(By.CSS_SELECTOR, "#map-europe [data-zoom=out]").click()  # its marker is just east
    _readable(driver, view)  # zoomed out, the words that would be too small are hidden
    driver.find_element(By.CSS_SELECTOR, '#map-europe g.icon[data-ships="FR1TR"] circle').click()
    _wait_for(driver, f"/c/{stack.campaign}")
    assert "FR1TR" in driver.find_element(By.ID, "panel-head").text  # one ship: straight to its panel
    _readable(driver, driver.find_element(By.CSS_SELECTOR, ".desk .map-view"))
    _shot(driver, "6-phone-order-panel")
    first = driver.find_element(By.CSS_SELECTOR, '#route-choices .route-choice[data-goto="ECH"]')
    first.click()
    second = next(
        b for b in driver.find_elements(By.CSS_SELECTOR, "#route-choices .route-choice") if len(b.text) == 3
    )
    name = second.text
    second.click()
    panel = driver.find_element(By.ID, "order-panel")
    panel.find_element(By.CSS_SELECTOR, "details.more-orders > summary").click()
    Select(driver.find_element(By.ID, "f0-mode")).select_by_value("evade")
    _submit(driver, panel.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]"))
    _wait_for(driver, f"/c/{stack.campaign}")
    _course_drawn(driver, "FR1TR", f"Boulogne ECH {name}")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]  # legend too
    course = driver.find_element(By.CSS_SELECTOR, '.desk-map g.course[data-ship="FR1TR"]')
    assert course.get_attribute("stroke-dasharray")  # evading: dashed
    view = driver.find_element(By.CSS_SELECTOR, "#map-europe .map-view")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", view)
    _shot(driver, "7-phone-course-drawn")
    whole = driver.find_element(By.CSS_SELECTOR, "#map-europe [data-zoom=reset]")
    whole.click()
    scale, _, _ = driver.execute_script(SMALLEST_WORDS, view)
    assert scale < 0.5 and "far" in view.get_attribute("class")  # zoomed out: the small words hidden
    _readable(driver, view, some=False)
    _shot(driver, "8-phone-whole-map")


def _report_map_opens_large(driver: Any, stack: Stack) -> None:
    from selenium.webdriver.common.by import By

    driver.get(f"{stack.url}/c/{stack.campaign}/reports/0")
    frame = driver.find_element(By.CSS_SELECTOR, "iframe.report")
    driver.switch_to.frame(frame)
    try:
        label = driver.find_element(By.CSS_SELECTOR, "label.growable")
        svg = label.find_element(By.CSS_SELECTOR, "svg")
        small = svg.rect["width"]
        assert small < PHONE[0]
        label.click()
        assert svg.rect["width"] >= 800  # 13-unit words at 1.25 px the unit
        driver.execute_script("arguments[0].scrollIntoView()", label)
    finally:
        driver.switch_to.default_content()
    _shot(driver, "9-phone-report-map-large")


def test_a_commander_orders_from_his_marker_and_sees_his_course_drawn(
    browser: Any,  # noqa: F811
    stack: Stack,
) -> None:
    _marker_list_then_panel(browser, stack)
    _phone_marker_then_course(browser, stack)
    _report_map_opens_large(browser, stack)
