"""Old sightings and the view beside the truth in Debian's Chromium, against the
web desk served by uvicorn with the reports service's answers given in process
(the knowledge of three turns of a small world on the real map): on the
replay a sighting two turns old is a faded marker whose tap shows its source
and age; once the campaign has finished the view beside the truth shows what
was missed and what was stale.  With PATE_DOC_SHOTS set, the two screenshots
are written there (docs/images holds the ones the docs show)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from pate.core.codec import canonical_json, to_plain
from pate.core.intel.knowledge import knowledge_for
from pate.datafiles import load_world_map
from pate.reports.truth import truth_json
from pate.v1 import admin_pb2, desk_pb2
from services.platform.bus.natsserver import free_port
from services.web import security
from services.web.backend import Backend, Session
from services.web.backend_errors import ForbiddenError
from services.web.routes import create_app
from tests.web.test_web_browser import browser  # noqa: F401  (the fixture)
from tests.web.test_web_http import settings

pytestmark = pytest.mark.e2e

TURN_3 = [("FR3FL", "NOC", 1), ("BR2FL", "NOC", 1), ("BR4SL", "BAH", 2)]
LATER = [("FR3FL", "SOC", 2), ("BR2FL", "WCA", 2), ("BR4SL", "BAH", 2)]


def _turns() -> tuple[dict[int, str], str]:
    """The player's knowledge of turns 3 to 5 (each fed the picture of the one before) and the
    truth at the end of turn 5."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cases" / "intel"))
    from intel_world import intel_events, rules, sea, ship, world

    world_map, data = load_world_map(), rules()
    out: dict[int, str] = {}
    picture: tuple = ()
    end = None
    for turn, places in ((3, TURN_3), (4, LATER), (5, LATER)):
        start = world([ship(i, sea(a, t)) for i, a, t in places], turn=turn)
        end = replace(start, turn=turn + 1)
        events = intel_events(start, start, seed=3)
        k = knowledge_for("villeneuve", start, end, events, world_map, data, previous=picture)
        picture = k.picture
        out[turn] = canonical_json(to_plain(k))
    assert end is not None
    return out, truth_json(end.ships.values())


class Reports(Backend):
    """The reports service's answers for one player, and its rule for the truth."""

    knowledge: dict[int, str]
    truth_body: str
    status = admin_pb2.TURN_STATUS_FINISHED

    async def my_campaign(self, s: Session) -> desk_pb2.MyCampaign:
        mine = desk_pb2.MyCampaign(player_id=s.player, roles=["commander"])
        mine.campaign.status = self.status
        return mine

    async def list_reports(self, s: Session) -> list[int]:
        return sorted(self.knowledge, reverse=True)

    async def report(self, s: Session, turn: int, fmt: str) -> str:
        return self.knowledge[turn]

    async def truth(self, campaign: str, turn: int, s: Session | None = None) -> str:
        if s is not None and self.status != admin_pb2.TURN_STATUS_FINISHED:
            raise ForbiddenError("the truth of the campaign is shown once it has finished")
        return self.truth_body


@pytest.fixture
def desk() -> Iterator[str]:
    import uvicorn

    s = settings(None)
    backend = Reports(s.orders_addr, s.reports_addr)
    backend.knowledge, backend.truth_body = _turns()
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(backend, s), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started and time.monotonic() < end:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _log_in(driver, url: str) -> None:  # type: ignore[no-untyped-def]
    driver.get(url + "/help/orders")
    session = Session("t" * 24, "demo", "villeneuve", time.time() + 3600)
    driver.add_cookie({"name": security.SESSION_COOKIE, "value": session.cookie(), "path": "/"})
    driver.add_cookie({"name": security.BROWSER_COOKIE, "value": "browser-1", "path": "/"})


def _shot(driver, name: str) -> None:  # type: ignore[no-untyped-def]
    where = os.environ.get("PATE_DOC_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(where) / name))


def test_an_old_sighting_tells_its_source_and_the_truth_stands_beside(browser, desk: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 1000)
    _log_in(browser, desk)
    browser.get(desk + "/c/demo/replay?turn=5")
    stale = browser.find_element(By.CSS_SELECTOR, "g.icon.stale")
    assert stale.get_attribute("data-age") == "2" and stale.get_attribute("opacity") == "0.45"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", stale)
    stale.send_keys("\n")  # Enter, as a tap or a long press would
    popup = browser.find_element(By.CSS_SELECTOR, ".marker-menu.sighting")
    assert "named by FR3FL, in contact" in popup.text
    assert "last seen at turn 3, 2 turns ago, not seen since" in popup.text
    _shot(browser, "sighting-two-turns-old.png")

    browser.set_window_size(1280, 1600)  # the two maps and the list below them in one picture
    browser.get(desk + "/c/demo/replay/truth?turn=5")
    lines = browser.find_element(By.ID, "replay-truth-lines").text
    assert "missed: BR4SL in BAH" in lines and "missed: BR2FL in WCA" in lines
    assert "stale: BR2FL (British) at sea in NOC, last seen at turn 3, 2 turns ago" in lines
    assert "really in WCA" in lines
    assert browser.find_elements(By.CSS_SELECTOR, "#truth-head ~ figure svg g.icon.stale")
    _shot(browser, "replay-beside-the-truth.png")
