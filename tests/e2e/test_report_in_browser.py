"""The HTML report of the demo campaign (the training
scenario, turn 1, with the orders of examples/orders/*.txt), opened in
headless Chromium, shows its sea area maps and its ship reports.  The page
is read back from the browser's DOM, and a screenshot is kept in
test-artifacts/reports/demo-report.png."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "cases" / "intel"))

from real_turns import demo_turn  # noqa: E402 (the helper lives beside the rule cases)

from pate.core.codec import from_plain  # noqa: E402
from pate.core.intel.model import PlayerKnowledge  # noqa: E402

pytestmark = pytest.mark.e2e

PLAYER = "barham"  # the British naval minister: every British ship, several sea areas
SHOT = ROOT / "test-artifacts" / "reports" / "demo-report.png"


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    if found is None:
        pytest.skip("headless Chromium is not installed (.ci/run installs it)")
    return found


def _browser(chromium: str, profile: Path, *args: str) -> str:
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
    ]
    done = subprocess.run([chromium, *flags, *args], capture_output=True, text=True, timeout=180, check=True)
    return done.stdout


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, PlayerKnowledge]:
    out = demo_turn()
    html = out.reports[PLAYER]["html"]
    knowledge = from_plain(PlayerKnowledge, json.loads(out.knowledge[PLAYER]))
    path = tmp_path_factory.mktemp("report") / "demo-report.html"
    path.write_text(html, encoding="utf-8")
    return path, knowledge


def test_demo_report_in_headless_chromium(page, tmp_path: Path) -> None:
    path, k = page
    chromium = _chromium()
    dom = _browser(chromium, tmp_path / "profile", "--dump-dom", path.as_uri())

    # the sea area maps: an inline <svg> per area with its code in the middle
    maps = re.findall(r'<svg[^>]*class="seamap".*?</svg>', dom, re.S)
    areas = re.findall(r'<article class="area" id="sea-([A-Z]{3})"', dom)
    assert areas and len(maps) == len(areas)
    for code, svg in zip(areas, maps, strict=True):
        assert f'class="code" text-anchor="middle">{code}</text>' in svg
        assert "Winds are" in svg
    overview = dom.split('id="overview"', 1)[1]
    assert "<svg" in overview  # the whole-map overview

    # the ship reports, as samples 2.3 and 2.4
    assert k.ships
    for r in k.ships:
        assert f'data-ship="{r.id}"' in dom
        assert f"({r.id})</h4>" in dom or f"Report - {r.id}</h4>" in dom
    assert dom.count("Commander:") == len(k.ships)
    assert "Commander:" in dom and "Hull Damage:" in dom

    # the event report
    assert dom.count('<li data-kind="') >= 1 and 'id="events"' in dom

    SHOT.parent.mkdir(parents=True, exist_ok=True)
    SHOT.unlink(missing_ok=True)
    _browser(chromium, tmp_path / "profile", f"--screenshot={SHOT}", "--window-size=1200,2000", path.as_uri())
    assert SHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and SHOT.stat().st_size > 20_000
