"""The desk played whole in Debian's Chromium (Selenium, /usr/bin/chromedriver)
against the real stack, in a campaign of two turns: the game master chooses
the early close; a commander selects a ship on the map, plots its course on
the order form's map, sends it and confirms; the turn closes as soon as the
last player with ships has confirmed.  Two British commanders write to each
other and a French one reads none of it.  Before the end every side's replay
is refused to a player; the game master closes the last turn, and the
commander steps through every side's replay.  Each step at desktop (1280 px)
and phone (390 px) width: no page wider than the screen, the report's frame
as tall as the report (one scroll).  Screenshots under $PATE_WEB_SHOTS, else a
pytest temporary directory."""

from __future__ import annotations

import operator
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from pate.v1 import admin_pb2
from tests.web.conftest import Stack
from tests.web.test_web_browser import _submit, _wait_for, browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.e2e
DESKTOP, PHONE = (1280, 900), (390, 844)
ALLY, FRENCH = "calder", "ganteaume"
SHIP = "BR1FL"  # cornwallis's flagship, lead of his squadron in the Channel


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = Path(os.environ.get("PATE_WEB_SHOTS") or tmp_path_factory.mktemp("desk-shots"))
    where.mkdir(parents=True, exist_ok=True)
    return where


@pytest.fixture(scope="module")
def short(stack: Stack) -> Stack:
    """A campaign of two turns in the running stack, so that it ends within the test."""
    cid = f"play-{uuid.uuid4().hex[:8]}"
    req = admin_pb2.CreateCampaignRequest(id=cid, scenario="training", passwords=stack.passwords, turns=2)
    stack.client.admin.CreateCampaign(req, metadata=stack.client.admin_md, timeout=60)
    stack.client.wait_open(cid, 1)
    return Stack(stack.cluster, stack.client, cid, stack.passwords)


def _shot(driver, shots: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    """The whole page at the window's width (the window grown to the page's height)."""
    width = driver.get_window_size()["width"]
    driver.execute_script("window.scrollTo(0, 0)")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height, 600), 5000))
    time.sleep(0.3)  # the report's frame refits to the new window before the picture
    driver.save_screenshot(str(shots / f"{name}.png"))
    driver.set_window_size(width, DESKTOP[1] if width > PHONE[0] else PHONE[1])


def _login(driver, s: Stack, player: str) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{s.url}/login?campaign={s.campaign}")
    driver.find_element(By.ID, "player").send_keys(player)
    driver.find_element(By.ID, "password").send_keys(s.passwords[player])
    driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]").click()
    _wait_for(driver, f"/c/{s.campaign}")


def _until(what: str, cond: Callable[[], bool], timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.3)


def _fits(driver, where: str) -> None:  # type: ignore[no-untyped-def]
    wide, screen = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide <= screen, f"{where}: {wide} px wide on a {screen} px screen"


def _early_close(driver, s: Stack, shots: Path) -> list[str]:  # type: ignore[no-untyped-def]
    """The game master closes turns once all have confirmed; who must confirm."""
    from selenium.webdriver.common.by import By

    _login(driver, s, "admin")
    driver.get(f"{s.url}/c/{s.campaign}/gm")
    driver.find_element(By.ID, "early-enabled").click()
    driver.find_element(By.ID, "after-close").click()
    _submit(driver, driver.find_element(By.ID, "save-early-close"))  # the answer is the same page
    _wait_for(driver, f"/c/{s.campaign}/gm")
    assert driver.find_element(By.ID, "early-enabled").is_selected()
    waited = [
        li.get_attribute("id").removeprefix("confirmed-")
        for li in driver.find_elements(By.CSS_SELECTOR, "#confirmations li")
    ]
    assert "cornwallis" in waited and all(
        "not yet" in driver.find_element(By.ID, f"confirmed-{p}").text for p in waited
    )
    _shot(driver, shots, "play-01-gm-early-close")
    return waited


def _order_on_the_map(driver, s: Stack, shots: Path) -> str:  # type: ignore[no-untyped-def]
    """Select his flagship from the campaign page's map, plot a course, send it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _login(driver, s, "cornwallis")
    # nothing ordered yet: the ships attached to his flagship copy only its default orders
    assert driver.find_element(By.ID, "ships-ordered").text.startswith("0 of 4 ships have orders")
    driver.find_element(By.CSS_SELECTOR, 'a.map-place[data-goto="ECH"]').click()
    assert driver.find_element(By.CSS_SELECTOR, ".place.chosen").get_attribute("data-place") == "ECH"
    _shot(driver, shots, "play-02-campaign-map")
    driver.find_element(By.CSS_SELECTOR, f"#ship-{SHIP} a.open-panel").click()
    sea1 = Select(driver.find_element(By.ID, "f0-sea1"))  # the order panel beside the map
    legal = [o.get_attribute("value") for o in sea1.options if o.get_attribute("value")]
    first = next(a for a in legal if len(a) == 3)
    driver.find_element(By.CSS_SELECTOR, f'.route-map g.area-code[data-area="{first}"] text').click()
    assert Select(driver.find_element(By.ID, "f0-sea1")).first_selected_option.get_attribute("value") == first
    pick = next(
        b for b in driver.find_elements(By.CSS_SELECTOR, "#route-choices .route-choice") if len(b.text) == 3
    )
    second = pick.text
    pick.click()
    assert f"{first} → {second}" in driver.find_element(By.ID, "route-now").text
    _shot(driver, shots, "play-03-route-plotted")
    driver.find_element(By.CSS_SELECTOR, "form.orders button[type=submit]").click()
    assert "Orders accepted" in driver.find_element(By.ID, "sent").text
    assert f"sail {first}" in driver.find_element(By.ID, f"ship-{SHIP}").text
    # the flagship and the two ships attached to it (rule 4.2); his frigate keeps the defaults
    assert driver.find_element(By.ID, "ships-ordered").text.startswith("3 of 4")
    return first


def _confirm(driver, s: Stack, player: str) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    if player != "cornwallis":
        _login(driver, s, player)
    driver.find_element(By.ID, "confirm-orders").click()
    # the page after the post, not the one before it: it says so, or the turn has closed
    _until(
        f"{player}'s confirmation",
        lambda: (
            bool(driver.find_elements(By.ID, "confirmed"))
            or driver.find_element(By.ID, "turn-status").text != "open"
        ),
        30,
    )


def _all_confirm(driver, s: Stack, shots: Path, waited: list[str]) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    _confirm(driver, s, "cornwallis")
    assert "You confirmed your orders for turn 1" in driver.find_element(By.ID, "confirmed").text
    _shot(driver, shots, "play-04-confirmed")
    others = [p for p in waited if p != "cornwallis"]
    for player in others[:-1]:
        _confirm(driver, s, player)
    assert s.client.campaign(s.campaign).turn == 1  # one still to confirm: the turn waits
    _login(driver, s, "admin")
    driver.get(f"{s.url}/c/{s.campaign}/gm")
    assert "not yet" in driver.find_element(By.ID, f"confirmed-{others[-1]}").text
    _shot(driver, shots, "play-05-gm-who-confirmed")
    _confirm(driver, s, others[-1])
    s.client.wait_open(s.campaign, 2, timeout=180)  # closed early, with no deadline passed
    driver.get(f"{s.url}/c/{s.campaign}")
    assert driver.find_element(By.ID, "turn").text == "2"


def _messages(driver, s: Stack, shots: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    words = {
        "cornwallis": "Meet me off Ushant, the Channel squadron sails at dawn.",
        ALLY: "Understood: I bring BR2FL and her frigate by the evening.",
    }
    for writer, reader in (("cornwallis", ALLY), (ALLY, "cornwallis")):
        _login(driver, s, writer)
        driver.get(f"{s.url}/c/{s.campaign}/messages")
        options = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "to")).options]
        assert f"player:{reader}" in options and f"player:{FRENCH}" not in options
        Select(driver.find_element(By.ID, "to")).select_by_value(f"player:{reader}")
        driver.find_element(By.ID, "body").send_keys(words[writer])
        driver.find_element(By.CSS_SELECTOR, "form.card button[type=submit]").click()
        assert "Your message is sent" in driver.find_element(By.ID, "message-sent").text
    listed = driver.find_element(By.ID, "messages").text
    assert words["cornwallis"] in listed and words[ALLY] in listed
    _shot(driver, shots, "play-06-messages-ally")
    _login(driver, s, FRENCH)
    driver.get(f"{s.url}/c/{s.campaign}/messages")
    assert driver.find_element(By.ID, "no-messages").is_displayed()
    source = driver.page_source
    assert all(w not in source for w in words.values()) and "Ushant" not in source
    _shot(driver, shots, "play-07-messages-enemy")


def _end_and_replay(driver, s: Stack, shots: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    _login(driver, s, "cornwallis")
    driver.get(f"{s.url}/c/{s.campaign}/replay/all")
    assert "Not found" in driver.page_source  # before the end: his own history only
    _login(driver, s, "admin")
    driver.get(f"{s.url}/c/{s.campaign}/gm")
    driver.find_element(By.ID, "close-turn").send_keys("2")
    driver.find_element(By.CSS_SELECTOR, 'form[action$="/gm/close"] button[type=submit]').click()
    _until("the end", lambda: s.client.campaign(s.campaign).status == admin_pb2.TURN_STATUS_FINISHED)
    _login(driver, s, "cornwallis")
    driver.get(f"{s.url}/c/{s.campaign}/reports")
    driver.find_element(By.ID, "replay-all-link").click()
    assert "start of the campaign" in driver.find_element(By.ID, "replay-now").text
    for turn in (1, 2):
        driver.find_element(By.ID, "replay-next").click()
        assert f"Turn {turn}" in driver.find_element(By.ID, "replay-now").text
        maps = " ".join(m.text for m in driver.find_elements(By.CSS_SELECTOR, ".replay-maps svg"))
        events = driver.find_element(By.ID, "replay-events").text
        assert "FR" in maps + events and "BR" in maps + events  # every side, once it is over
        _shot(driver, shots, f"play-0{7 + turn}-replay-all-turn-{turn}")


def _one_scroll(driver, width: int) -> None:  # type: ignore[no-untyped-def]
    """The report's frame grows to the report's height: nothing scrolls inside it."""
    from selenium.webdriver.common.by import By

    frame = driver.find_element(By.CSS_SELECTOR, "iframe.report")
    heights = "var f = arguments[0]; return [f.contentDocument.documentElement.scrollHeight, f.clientHeight]"
    try:
        _until("the frame fitted", lambda: operator.le(*driver.execute_script(heights, frame)), 10)
    except AssertionError:
        inner, outer = driver.execute_script(heights, frame)
        raise AssertionError(
            f"the report scrolls in its frame ({inner} > {outer} px, {width} wide)"
        ) from None


def _phone_and_desktop(driver, s: Stack, shots: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    pages = {
        "campaign": f"/c/{s.campaign}",
        "order-form": f"/c/{s.campaign}/ships/{SHIP}",
        "messages": f"/c/{s.campaign}/messages",
        "reports": f"/c/{s.campaign}/reports",
        "report": f"/c/{s.campaign}/reports/1",
        "report-page": f"/c/{s.campaign}/reports/1/body",
        "replay-all": f"/c/{s.campaign}/replay/all?turn=1",
    }
    for width, tag in ((PHONE, "phone"), (DESKTOP, "desktop")):
        driver.set_window_size(*width)
        for name, path in pages.items():
            driver.get(s.url + path)
            _fits(driver, f"{path} at {width[0]} px")
            if name == "report":
                _one_scroll(driver, width[0])
                driver.switch_to.frame(driver.find_element(By.CSS_SELECTOR, "iframe.report"))
                _fits(driver, f"the report's frame at {width[0]} px")
                driver.switch_to.default_content()
            _shot(driver, shots, f"play-{tag}-{name}")


@pytest.mark.timeout(1500)  # six players log in one after another, two turns resolve: slow on a busy machine
def test_a_campaign_played_on_the_desk_from_map_to_replay(browser, short: Stack, shots: Path) -> None:  # noqa: F811
    browser.set_window_size(*DESKTOP)
    waited = _early_close(browser, short, shots)
    _order_on_the_map(browser, short, shots)
    _all_confirm(browser, short, shots, waited)
    _messages(browser, short, shots)
    _end_and_replay(browser, short, shots)
    _phone_and_desktop(browser, short, shots)
    assert len(list(shots.glob("play-*.png"))) >= 20
