"""``pate login`` / ``pate logout`` against running services: the password is
read from PATE_PASSWORD (or a prompt), never an argument; the token is kept
in an owner-only token file and used by the player commands."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.flow import Client

pytestmark = pytest.mark.integration

CAMPAIGN = "cli-login"


@pytest.fixture(scope="module")
def client(desk_cluster: tuple[Client, str]) -> Client:
    c, _ = desk_cluster
    c.create(CAMPAIGN)
    c.wait_open(CAMPAIGN, 1)
    return c


def pate(
    client: Client, token_file: Path, *args: str, password: str = ""
) -> subprocess.CompletedProcess[str]:
    env = dict(client.cluster.env, PATE_TOKEN_FILE=str(token_file))
    env.pop("PATE_PASSWORD", None)
    if password:
        env["PATE_PASSWORD"] = password
    return subprocess.run(
        [sys.executable, "-m", "pate.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def test_login_keeps_an_owner_only_token_and_the_commands_use_it(client: Client, tmp_path: Path) -> None:
    token_file = tmp_path / "state" / "sessions.json"
    password = client.passwords[CAMPAIGN, "cornwallis"]
    run = pate(
        client, token_file, "login", "--campaign", CAMPAIGN, "--player", "cornwallis", password=password
    )
    assert run.returncode == 0, run.stderr
    assert "logged in as cornwallis" in run.stdout
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(token_file.parent).st_mode) == 0o700
    body = token_file.read_text()
    assert password not in body
    (stored,) = json.loads(body)["sessions"]
    assert (stored["campaign"], stored["player"]) == (CAMPAIGN, "cornwallis") and len(stored["token"]) >= 43

    show = pate(client, token_file, "orders", "show", "--campaign", CAMPAIGN, "BR1FR")
    assert show.returncode == 0, show.stderr
    assert "# BR1FR" in show.stdout
    report = pate(client, token_file, "reports", "get", "--campaign", CAMPAIGN, "--turn", "0")
    assert report.returncode == 0, report.stderr

    out = pate(client, token_file, "logout", "--campaign", CAMPAIGN)
    assert out.returncode == 0, out.stderr
    assert json.loads(token_file.read_text())["sessions"] == []
    again = pate(client, token_file, "orders", "show", "--campaign", CAMPAIGN)
    assert again.returncode == 2 and "pate login --campaign cli-login" in again.stderr
    # the server refuses the token too: it was revoked, not only forgotten
    import grpc

    from pate.v1 import reports_pb2
    from tests.e2e.flow import bearer

    with pytest.raises(grpc.RpcError) as err:
        client.reports.ListReports(
            reports_pb2.ListReportsRequest(campaign_id=CAMPAIGN), metadata=bearer(stored["token"]), timeout=10
        )
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_no_password_on_the_command_line(client: Client, tmp_path: Path) -> None:
    token_file = tmp_path / "sessions.json"
    run = pate(client, token_file, "login", "--campaign", CAMPAIGN, "--player", "barham", "--password", "x")
    assert run.returncode == 2 and "unrecognized arguments: --password" in run.stderr
    # no terminal and no PATE_PASSWORD: a clear line, no prompt that would hang
    run = pate(client, token_file, "login", "--campaign", CAMPAIGN, "--player", "barham")
    assert run.returncode == 2 and "PATE_PASSWORD" in run.stderr and "Traceback" not in run.stderr
    wrong = pate(
        client, token_file, "login", "--campaign", CAMPAIGN, "--player", "barham", password="wrong-one"
    )
    assert wrong.returncode == 2 and "UNAUTHENTICATED" in wrong.stderr
    assert not token_file.exists()


def test_campaign_create_takes_chosen_passwords_from_a_file_and_prints_the_generated_once(
    client: Client, tmp_path: Path
) -> None:
    chosen = tmp_path / "passwords.json"
    chosen.write_text(json.dumps({"barham": "barhams-own-choice"}))
    run = pate(
        client,
        tmp_path / "t.json",
        "campaign",
        "create",
        "cli-created",
        "--scenario",
        "training",
        "--passwords-file",
        str(chosen),
    )
    assert run.returncode == 0, run.stderr
    campaign_line, header, *rows = run.stdout.splitlines()
    assert "logins" not in json.loads(campaign_line) and "generated passwords" in header
    generated = dict(row.split() for row in rows)
    assert "barham" not in generated and {"cornwallis", "ganteaume", "admin"} <= set(generated)
    assert "barhams-own-choice" not in run.stdout
    login = pate(
        client,
        tmp_path / "t.json",
        "login",
        "--campaign",
        "cli-created",
        "--player",
        "barham",
        password="barhams-own-choice",
    )
    assert login.returncode == 0, login.stderr
    login = pate(
        client,
        tmp_path / "t.json",
        "login",
        "--campaign",
        "cli-created",
        "--player",
        "cornwallis",
        password=generated["cornwallis"],
    )
    assert login.returncode == 0, login.stderr


def test_campaign_show_and_list_print_the_rule_set(client: Client, tmp_path: Path) -> None:
    """``pate campaign show`` and ``list`` say which combat rules a campaign plays."""
    token = ("--admin-token", client.cluster.admin_token)
    show = pate(client, tmp_path / "t.json", "campaign", "show", CAMPAIGN, *token)
    assert show.returncode == 0, show.stderr
    assert json.loads(show.stdout)["combatRules"] == "pate"
    listed = pate(client, tmp_path / "t.json", "campaign", "list", *token)
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [r["combatRules"] for r in rows if r["id"] == CAMPAIGN] == ["pate"]
