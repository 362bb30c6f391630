"""The web desk in a real browser (the system's
Chromium driven by Selenium through /usr/bin/chromedriver; no browser is
downloaded) against the real stack: nats-server, the four services and the
web process.

Two commanders of hostile states each log in, see their ships, send an order
with a mistake, see the mistake beside its field, fix it and see the
effective orders; the British naval minister moves stores; a commander asks
for notifications; the game master closes the turn; the notifier's mail
reaches a local SMTP sink (aiosmtpd) and its webhook a local receiver; both
commanders read their new reports with the maps.
A screenshot of each page is kept under test-artifacts/web/."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Stack

pytestmark = pytest.mark.e2e
WITH_NOTIFIER = True  # the stack runs the notifier worker, sending to local sinks

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "web"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


@pytest.fixture
def browser() -> Iterator[object]:
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("the chromium and chromium-driver packages are not installed (.ci/run installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1100,1400",
    ):
        opts.add_argument(flag)
    # Chromium's profile and singleton-socket folders in a folder of their own, removed after
    # the test, rather than one more folder in /tmp at every run.  Not under tmp_path: a
    # socket's path holds at most 107 bytes, and pytest-xdist's worker folder made the path
    # of Chromium's singleton socket longer than that, so Chromium exited at start.
    own = Path(tempfile.mkdtemp(prefix="pate-chromium-"))
    opts.add_argument(f"--user-data-dir={own / 'profile'}")
    env = {**os.environ, "TMPDIR": str(own)}
    try:
        driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER), env=env), options=opts)
        driver.implicitly_wait(5)
        SHOTS.mkdir(parents=True, exist_ok=True)
        try:
            yield driver
        finally:
            driver.quit()
    finally:
        shutil.rmtree(own, ignore_errors=True)


def _wait_until(cond, timeout: float = 30) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("the notifications did not arrive")
        time.sleep(0.2)


def _shot(driver, name: str) -> None:  # type: ignore[no-untyped-def]
    # the whole page, not only the window: set the window to the page's height first
    height = driver.execute_script("return document.documentElement.scrollHeight")
    width = driver.get_window_size()["width"]
    driver.set_window_size(width, min(max(height, 600), 6000))
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def _login(driver, stack: Stack, player: str) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{stack.url}/login?campaign={stack.campaign}")
    if not (SHOTS / "login.png").exists():
        driver.save_screenshot(str(SHOTS / "login.png"))
    driver.find_element(By.ID, "player").send_keys(player)
    driver.find_element(By.ID, "password").send_keys(stack.passwords[player])
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]"))
    _wait_for(driver, f"/c/{stack.campaign}")


def _wait_for(driver, path: str) -> None:  # type: ignore[no-untyped-def]
    """Until the browser has loaded ``path`` (a click's navigation is not awaited)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(driver, 15).until(lambda d: d.current_url.split("?")[0].split("#")[0].endswith(path))
    except TimeoutException:
        raise AssertionError(f"not at {path}: {driver.current_url}\n{driver.page_source[:3000]}") from None


def _submit(driver, button) -> None:  # type: ignore[no-untyped-def]
    """Click a form's button and wait until its answer replaced the page: a form that answers on
    the same address with an element the old page also had (the game master's "done" line)
    would otherwise be read from the old page. The old document is marked and the wait is for a
    loaded document without the mark; Chromium may refuse a query while it swaps documents, so
    such a refusal only means "ask again"."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("document.documentElement.dataset.leaving = 'yes'")
    button.click()
    WebDriverWait(driver, 15, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script(
            "return document.readyState === 'complete' && !document.documentElement.dataset.leaving"
        )
    )


def _order_with_a_mistake_then_fix(driver, stack: Stack, player: str, ship: str, tag: str) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _login(driver, stack, player)
    page = driver.find_element(By.ID, f"ship-{ship}")
    assert "no orders yet" in page.text
    _shot(driver, f"{tag}-1-campaign")

    driver.find_element(By.CSS_SELECTOR, f'a[href="/c/{stack.campaign}/ships/{ship}"]').click()
    first = Select(driver.find_element(By.ID, "f0-sea1"))
    legal = [o.get_attribute("value") for o in first.options if o.get_attribute("value")]
    assert legal, "the form offers the sea areas the map allows"
    first.select_by_value(legal[0])
    second = Select(driver.find_element(By.ID, "f0-sea2"))
    shown = [o.get_attribute("value") for o in second.options if o.get_attribute("value") and o.is_enabled()]
    assert shown and all(len(a) == 3 for a in shown)  # narrowed to those beside the first (rule 6.2)
    minimum = driver.find_element(By.ID, "f0-minimum")
    minimum.clear()
    minimum.send_keys("2")  # the mistake: a minimum with contact "accept" (rule 4.6)
    _shot(driver, f"{tag}-2-form")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]"))

    error = driver.find_element(By.ID, "err-0-minimum")
    assert "rule 4.6" in error.text
    assert driver.find_element(By.ID, "f0-minimum").get_attribute("aria-invalid") == "true"
    assert "Nothing was accepted" in driver.find_element(By.ID, "refused").text
    _shot(driver, f"{tag}-3-refused")

    Select(driver.find_element(By.ID, "f0-mode")).select_by_value("pursue")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]"))
    assert "Orders accepted" in driver.find_element(By.ID, "sent").text
    block = driver.find_element(By.ID, f"ship-{ship}").text
    assert f"sail {legal[0]}" in block and "contact pursue" in block and "the commander's order" in block
    assert "no orders yet" not in block
    driver.set_window_size(1100, 820)
    driver.save_screenshot(str(SHOTS / f"{tag}-4-effective-window.png"))  # the README's picture
    _shot(driver, f"{tag}-4-effective")


def test_two_players_order_the_minister_moves_stores_the_master_closes_and_both_read_reports(
    browser, stack: Stack
) -> None:
    driver = browser
    _order_with_a_mistake_then_fix(driver, stack, "cornwallis", "BR1FL", "british")
    _order_with_a_mistake_then_fix(driver, stack, "ganteaume", "FR1FL", "french")
    _minister_moves_stores(driver, stack)
    _cornwallis_asks_to_be_told(driver, stack)
    _master_closes_and_is_refused_a_taken_id(driver, stack)
    _cornwallis_told_once_each(stack)
    _both_read_their_reports(driver, stack)


def _minister_moves_stores(driver: Any, stack: Stack) -> None:
    """Barham's move past the French in the Channel is refused (rule 3.5); one from London is sent."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _login(driver, stack, "barham")
    driver.find_element(By.LINK_TEXT, "Ports and stores").click()
    ports = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "m0-origin")).options][1:]
    assert "Portsmouth" in ports
    # French ships lie in the Channel (ECH): Portsmouth to Plymouth is refused (rule 3.5)
    Select(driver.find_element(By.ID, "m0-origin")).select_by_value("Portsmouth")
    Select(driver.find_element(By.ID, "m0-destination")).select_by_value("Plymouth")
    driver.find_element(By.ID, "m0-amount").send_keys("20")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]"))
    assert "rule 3.5" in driver.find_element(By.ID, "refused").text
    _shot(driver, "minister-refused")
    Select(driver.find_element(By.ID, "m0-origin")).select_by_value("London")
    Select(driver.find_element(By.ID, "m0-destination")).select_by_value("Chatham")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]"))
    assert "1 store move sent" in driver.find_element(By.ID, "stores-done").text
    _shot(driver, "minister-stores")


def _cornwallis_asks_to_be_told(driver: Any, stack: Stack) -> None:
    """By mail and webhook, when a turn opens and when his reports are ready."""
    from selenium.webdriver.common.by import By

    _login(driver, stack, "cornwallis")
    driver.find_element(By.LINK_TEXT, "Notifications").click()
    assert stack.sinks is not None
    driver.find_element(By.ID, "email").send_keys("cornwallis@fleet.test")
    driver.find_element(By.ID, "webhook").send_keys(stack.sinks.hook_url)
    for kind in ("turn_opened", "reports"):
        driver.find_element(By.ID, f"kind-{kind}").click()
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]"))
    assert "saved" in driver.find_element(By.ID, "notify-done").text
    _shot(driver, "notifications")


def _master_closes_and_is_refused_a_taken_id(driver: Any, stack: Stack) -> None:
    """Turn 1 closed; a campaign id already taken is refused beside its field, the rest kept."""
    from selenium.webdriver.common.by import By

    _login(driver, stack, "admin")
    driver.find_element(By.LINK_TEXT, "Game master").click()
    driver.find_element(By.ID, "close-turn").send_keys("1")
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]"))
    assert "turn 1 closed" in driver.find_element(By.ID, "gm-done").text
    _shot(driver, "game-master")
    driver.find_element(By.ID, "new-admin-token").send_keys(stack.cluster.admin_token)  # the server's
    driver.find_element(By.ID, "new-id").send_keys(stack.campaign)
    _submit(driver, driver.find_element(By.CSS_SELECTOR, "form#create button[type=submit]"))
    said = driver.find_element(By.ID, "err-create-new_id").text
    assert "already exists" in said, said
    assert driver.find_element(By.ID, "new-id").get_attribute("aria-invalid") == "true"
    assert driver.find_element(By.ID, "new-id").get_attribute("value") == stack.campaign
    _shot(driver, "game-master-create-refused")


def _cornwallis_told_once_each(stack: Stack) -> None:
    """Turn 2 opens; his mail and his webhook hear of it and of his reports, once each."""
    stack.client.wait_open(stack.campaign, 2, timeout=120)
    _wait_until(lambda: len(stack.sinks.mails) >= 2 and len(stack.sinks.hooks) >= 2)  # type: ignore[union-attr]
    subjects = sorted(h["subject"] for h in stack.sinks.hooks)
    assert subjects == [
        f"{stack.campaign}: turn 2 is open",
        f"{stack.campaign}: your reports of turn 1 are ready",
    ]
    assert all(m.rcpt_tos == ["cornwallis@fleet.test"] for m in stack.sinks.mails)
    assert len(stack.sinks.mails) == 2 and len(stack.sinks.hooks) == 2  # once each


def _both_read_their_reports(driver: Any, stack: Stack) -> None:
    """Each commander reads turn 1's report, maps and events, in the archive."""
    from selenium.webdriver.common.by import By

    for player, tag in (("cornwallis", "british"), ("ganteaume", "french")):
        _login(driver, stack, player)
        assert driver.find_element(By.ID, "turn").text == "2"
        driver.find_element(By.LINK_TEXT, "Reports").click()
        _shot(driver, f"{tag}-5-archive")
        driver.find_element(By.LINK_TEXT, "Turn 1").click()
        frame = driver.find_element(By.CSS_SELECTOR, "iframe.report")
        driver.switch_to.frame(frame)
        maps = driver.find_elements(By.CSS_SELECTOR, "svg")
        assert maps, "the report shows its maps"
        assert "Events" in driver.find_element(By.TAG_NAME, "nav").text
        driver.switch_to.default_content()
        driver.set_window_size(1100, 1400)
        driver.save_screenshot(str(SHOTS / f"{tag}-6-report.png"))
        driver.get(f"{stack.url}/c/{stack.campaign}/reports/1/body")
        _shot(driver, f"{tag}-7-report-full")


def test_the_campaign_page_reads_on_a_375px_phone(browser, stack: Stack) -> None:
    from selenium.webdriver.common.by import By

    driver = browser
    driver.set_window_size(375, 800)
    _login(driver, stack, "calder")
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 375 + 1, f"the page is {width} px wide on a 375 px screen"
    assert driver.find_element(By.ID, "ship-BR2FL").is_displayed()
    driver.save_screenshot(str(SHOTS / "phone-campaign.png"))
    driver.get(f"{stack.url}/c/{stack.campaign}/ships/BR2FL")
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 375 + 1, f"the order form is {width} px wide on a 375 px screen"
    driver.save_screenshot(str(SHOTS / "phone-order-form.png"))


def test_no_mouse_needed_skip_link_and_labelled_fields(browser, stack: Stack) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver = browser
    driver.delete_all_cookies()
    driver.get(f"{stack.url}/login?campaign={stack.campaign}")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)  # the skip link first
    assert driver.switch_to.active_element.text == "Skip to the content"
    driver.find_element(By.ID, "player").send_keys("calder", Keys.TAB, stack.passwords["calder"], Keys.ENTER)
    _wait_for(driver, f"/c/{stack.campaign}")
    driver.get(f"{stack.url}/c/{stack.campaign}/ships/BR2FL")
    unlabelled = driver.execute_script(
        "return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))"
        ".filter(e => !document.querySelector('label[for=\"' + e.id + '\"]')).map(e => e.name)"
    )
    assert unlabelled == []
