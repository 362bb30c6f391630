"""``pate account ...`` against the Accounts service: sign up, verify with the mailed token,
log in, claim a game master's seat, play it with the player commands' token file, list and
revoke sessions, reset the password, delete the account.  Passwords come from the
environment, never from arguments."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pate.cli.main import main
from services.notifier import work
from tests.support.accounts import SEAT_PASSWORD, World, game_master_campaign, make_world, serve_accounts
from tests.support.mailsink import smtp_sink

pytestmark = pytest.mark.integration
EMAIL = "jervis@example.org"


@pytest.fixture
def cli(engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    with smtp_sink() as (sink, inbox):
        world = make_world(engine, work.Sender(engine, sink), inbox)
        world.clock.now = datetime.now(UTC)  # the token file compares expiries with the real time
        with serve_accounts(world) as addr:
            monkeypatch.setenv("PATE_ORDERS_ADDR", addr)
            monkeypatch.setenv("PATE_TOKEN_FILE", str(tmp_path / "sessions.json"))
            monkeypatch.delenv("PATE_TLS_CA", raising=False)
            yield world


def pate(monkeypatch: pytest.MonkeyPatch, *args: str, password: str = "", new: str = "") -> int:
    monkeypatch.setenv("PATE_PASSWORD", password)
    monkeypatch.setenv("PATE_NEW_PASSWORD", new)
    return main(["account", *args])


def test_an_account_from_sign_up_to_deletion(
    cli: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game_master_campaign(cli.engine, "cli-seats")
    first = "first password!"
    assert pate(monkeypatch, "signup", "--name", "John Jervis", "--email", EMAIL, password=first) == 0
    assert pate(monkeypatch, "verify", cli.last_token(EMAIL)) == 0
    assert pate(monkeypatch, "login", "--email", EMAIL, password=first) == 0
    assert (
        pate(monkeypatch, "claim", "--campaign", "cli-seats", "--player", "calder", password=SEAT_PASSWORD)
        == 0
    )
    assert pate(monkeypatch, "play", "--campaign", "cli-seats", "--player", "calder") == 0
    stored = json.loads((tmp_path / "sessions.json").read_text())["sessions"]
    assert sorted((s["campaign"], s["player"]) for s in stored) == [
        ("@account", EMAIL),
        ("cli-seats", "calder"),
    ]
    assert first not in (tmp_path / "sessions.json").read_text()
    capsys.readouterr()
    assert pate(monkeypatch, "seats") == 0
    assert "cli-seats" in capsys.readouterr().out
    assert pate(monkeypatch, "sessions") == 0
    # the in-process server logs to the same stdout: the listing's lines start with a session id
    listed = [line for line in capsys.readouterr().out.splitlines() if re.match(r"[0-9a-f]{16}  ", line)]
    assert len(listed) == 2 and any("cli-seats/calder" in line for line in listed)
    seat_session = next(line.split()[0] for line in listed if "cli-seats" in line)
    assert pate(monkeypatch, "revoke", seat_session) == 0
    assert "revoked 1" in capsys.readouterr().out
    assert pate(monkeypatch, "reset", "--email", EMAIL) == 0
    second = "second password"
    assert pate(monkeypatch, "reset", "--token", cli.last_token(EMAIL), new=second) == 0
    assert pate(monkeypatch, "seats") == 2  # the reset ended the session
    assert pate(monkeypatch, "login", "--email", EMAIL, password=first) == 2
    assert pate(monkeypatch, "login", "--email", EMAIL, password=second) == 0
    assert pate(monkeypatch, "delete", password=second) == 0
    assert pate(monkeypatch, "login", "--email", EMAIL, password=second) == 2


def test_tokens_and_account_edits_from_the_command_line(
    cli: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game_master_campaign(cli.engine, "cli-tokens")
    pw = "first password!"
    assert pate(monkeypatch, "signup", "--name", "Jervis", "--email", EMAIL, password=pw) == 0
    assert pate(monkeypatch, "verify", cli.last_token(EMAIL)) == 0
    assert pate(monkeypatch, "login", "--email", EMAIL, password=pw) == 0
    assert (
        pate(monkeypatch, "claim", "--campaign", "cli-tokens", "--player", "calder", password=SEAT_PASSWORD)
        == 0
    )
    capsys.readouterr()
    assert (
        pate(monkeypatch, "token", "create", "--name", "bot", "--seat", "cli-tokens/calder", "--days", "7")
        == 0
    )
    made = capsys.readouterr()
    # alone on its line of standard output (the in-process server's log lines share it here)
    secret = made.out.strip().splitlines()[-1]
    assert re.fullmatch(r"pate_at_[0-9a-f]{12}_[A-Za-z0-9_-]{43}", secret) and "shown this once" in made.err
    assert pate(monkeypatch, "token", "list") == 0
    listed = capsys.readouterr().out
    assert secret[8:20] in listed and secret not in listed and "cli-tokens/calder" in listed
    assert pate(monkeypatch, "token", "revoke", secret[8:20]) == 0
    assert "revoked 1 API token(s)" in capsys.readouterr().out
    assert pate(monkeypatch, "update", "--name", "Sir John", "--time-zone", "Europe/Lisbon") == 0
    assert "Sir John <jervis@example.org>, Europe/Lisbon" in capsys.readouterr().out
    assert pate(monkeypatch, "token", "create", "--name", "x", "--seat", "no-slash") != 0  # CAMPAIGN/PLAYER


def test_prune_unverified_runs_on_the_database(
    cli: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cli.accounts.sign_up("Late", "late@example.org", "a long enough pw", "", cli.addr)
    url = cli.engine.url.render_as_string(hide_password=False)
    assert main(["account", "prune-unverified", "--days", "7", "--database", url]) == 0
    assert "deleted 0 account(s)" in capsys.readouterr().out  # signed up just now
