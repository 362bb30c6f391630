"""A turn a commander can understand, in Debian's Chromium against the real stack: he previews
a frigate's course before he sends it and reads its chance of arrival, then, after the close,
reads in his report why she did or did not get there (docs/rules/intel.md, "Previews" and
decision 16).  With PATE_DOC_SHOTS set, the two screenshots are written there (docs/images
holds the ones the docs show)."""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest

from tests.web.conftest import Stack
from tests.web.test_web_browser import SHOTS, _login, _shot, _submit, browser  # noqa: F401  (the fixture)
from tests.web.test_web_http import OTHER

pytestmark = pytest.mark.e2e

FRIGATE = "BR2FR"  # calder's Egyptienne, in the Bay of Biscay at the start of the training scenario
# up the Channel and into the North Sea: with the campaign's seed the wind holds her in the
# Channel, so her report has a "did not arrive" to explain
COURSE = ("ECH", "NOS")


def _keep(driver, name: str, part=None) -> None:  # type: ignore[no-untyped-def]
    """The whole page among the test's artifacts; for the docs, the part that shows it."""
    _shot(driver, name)
    shots = os.environ.get("PATE_DOC_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        target = str(Path(shots) / f"{name}.png")
        part.screenshot(target) if part is not None else driver.save_screenshot(target)


def test_a_commander_previews_a_course_and_reads_why_it_came_out_as_it_did(browser, stack: Stack) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = browser
    _login(driver, stack, OTHER)
    driver.get(f"{stack.url}/c/{stack.campaign}/ships/{FRIGATE}")
    Select(driver.find_element(By.ID, "f0-sea1")).select_by_value(COURSE[0])
    Select(driver.find_element(By.ID, "f0-sea2")).select_by_value(COURSE[1])
    _submit(driver, driver.find_element(By.ID, "preview-button"))
    said = driver.find_element(By.CSS_SELECTOR, ".preview-text").text
    assert FRIGATE in said and re.search(r"\d+%", said), said
    _keep(driver, "preview-a-course", driver.find_element(By.CSS_SELECTOR, ".preview"))

    _submit(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Send the orders']"))
    assert "orders sent" in driver.page_source.lower() or "accepted" in driver.page_source.lower()
    stack.client.close_turn(stack.campaign, 1)
    stack.client.wait_open(stack.campaign, 2, timeout=120)
    _login(driver, stack, OTHER)
    driver.get(f"{stack.url}/c/{stack.campaign}/reports/1/body")
    lines = driver.find_element(By.TAG_NAME, "body").text.splitlines()
    whys = [w for line, w in itertools.pairwise(lines) if FRIGATE in line and w.startswith("Why")]
    assert whys, "\n".join(lines)[:4000]
    assert any("chance" in w for w in whys), whys
    assert any("held" in line and FRIGATE in line for line in lines), "\n".join(lines)[:4000]
    events = driver.find_element(
        By.XPATH, "//*[starts-with(normalize-space(), 'Event report')]/following-sibling::*[1]"
    )
    _keep(driver, "why-the-frigate", events)
