"""The small edges users met: one clear line each, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pate.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def test_a_non_utf8_order_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "orders.txt"
    bad.write_bytes(b"order BR1FL\n  combat \xff\xfe engage\n")
    args = ["orders", "submit", "--campaign", "c", "--turn", "1", "--file", str(bad)]
    assert main(args) == 2  # read and refused before any login or call
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not UTF-8" in err and "Traceback" not in err


def test_a_bad_pate_value_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATE_DATABASE_URL", "mysql://nope")
    assert main(["turn", "replay", "demo", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "PATE_DATABASE_URL" in err


def test_a_service_with_a_bad_pate_value_says_so_in_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PATE_LOG_LEVEL": "loud", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "services.orders.main"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "PATE_LOG_LEVEL" in done.stderr
    assert "Traceback" not in done.stderr


def test_replay_of_a_missing_database_is_one_line_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "var" / "demo" / "pate.db"
    assert main(["turn", "replay", "demo", "1", "--database", f"sqlite:///{missing}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no database at" in err
    assert not missing.exists() and not missing.parent.exists()


def test_closing_a_turn_names_the_turn(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["campaign", "close", "demo", "--admin-token", "t"])  # --turn is required
    assert "--turn" in capsys.readouterr().err


def test_the_readme_names_battle_files_that_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    named = [w for w in readme.split() if w.startswith("data/battles/") and w.endswith(".json")]
    assert named, "the README shows a battle command"
    for name in named:
        assert (ROOT / name).is_file(), name


def test_migrating_an_unreachable_database_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATE_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    assert main(["db", "migrate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot migrate the database" in err
