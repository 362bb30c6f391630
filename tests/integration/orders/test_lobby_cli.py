"""``pate lobby ...`` against the Lobby service: the game master publishes and reads the asks,
an account browses, asks, is approved, reads its record and gives its seat up."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pate.cli.main import main
from tests.support.accounts import PASSWORD, game_master_campaign
from tests.support.lobby import ADMIN, Desk, lobby_desk, serve_lobby

pytestmark = pytest.mark.integration


@pytest.fixture
def cli(engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Desk]:
    with lobby_desk(engine) as desk:
        desk.world.clock.now = datetime.now(UTC)  # the token file compares expiries with the real time
        with serve_lobby(desk) as addr:
            monkeypatch.setenv("PATE_ORDERS_ADDR", addr)
            monkeypatch.setenv("PATE_TOKEN_FILE", str(tmp_path / "sessions.json"))
            monkeypatch.setenv("PATE_ADMIN_TOKEN", ADMIN)
            monkeypatch.delenv("PATE_TLS_CA", raising=False)
            yield desk


def out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_publish_browse_ask_approve_and_leave(
    cli: Desk, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game_master_campaign(cli.world.engine, "cli-lobby")
    published = out(
        capsys, "lobby", "publish", "cli-lobby", "--policy", "approval", "--start", "when_full",
        "--seat", "ganteaume", "--time-zone", "Europe/Paris", "--description", "A quiet blockade",
    )  # fmt: skip
    assert "ganteaume: French commander" in published and "A quiet blockade" in published
    assert "cli-lobby" in out(capsys, "lobby", "browse", "--scenario", "training", "--free")
    assert "no campaign in the lobby matches" in out(capsys, "lobby", "browse", "--scenario", "grand1805")
    cli.world.member("keith@example.org", "Keith")
    monkeypatch.setenv("PATE_PASSWORD", PASSWORD)
    assert main(["account", "login", "--email", "keith@example.org"]) == 0
    asked = out(capsys, "lobby", "ask", "cli-lobby", "ganteaume")
    ask_id = asked.rsplit("(", 1)[1].split(")")[0]
    listed = out(capsys, "lobby", "requests", "cli-lobby")
    assert ask_id in listed and "Keith: 100%" in listed
    assert "approved" in out(capsys, "lobby", "approve", "cli-lobby", ask_id)
    assert "running" in out(capsys, "lobby", "show", "cli-lobby")  # the one seat filled it
    assert "0 of 0 turns sent" in out(capsys, "lobby", "record")
    assert "gave ganteaume" in out(capsys, "lobby", "leave", "cli-lobby", "ganteaume")
    assert "1 left" in out(capsys, "lobby", "record")
