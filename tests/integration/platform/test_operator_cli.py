"""What an operator meets first: a database that cannot be written, and what
``pate db migrate`` did."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pate.cli.serve import migration_summary
from services.platform.store.db import migrate

ROOT = Path(__file__).resolve().parents[3]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATE_")}
    env.update(PYTHONPATH=str(ROOT), **extra)
    return env


@pytest.mark.parametrize("command", [["serve", "orders"], ["db", "migrate"]])
def test_an_unwritable_default_database_is_one_line_naming_the_setting(command: list[str]) -> None:
    """In the image's layout (a read-only working directory, no PATE_DATABASE_URL) the
    service says which setting to change, with no PermissionError traceback.  Root
    writes through permissions, so there the folder is made impossible instead."""
    with tempfile.TemporaryDirectory() as tmp:
        app = Path(tmp)
        if os.geteuid() == 0:
            (app / "var").write_text("a file where the database's folder would be")
        else:
            app.chmod(0o555)
        try:
            _refused_in(app, command)
        finally:
            app.chmod(0o755)


def _refused_in(app: Path, command: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pate.cli.main", *command],
        cwd=app,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2, run.stdout + run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    assert "PATE_DATABASE_URL" in lines[0] and f"{app}/var/pate.db cannot be written" in lines[0]


def test_migrate_says_from_which_revision_it_upgraded(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    migrate(url, "0002")
    run = subprocess.run(
        [sys.executable, "-m", "pate.cli.main", "db", "migrate"],
        env=_env(PATE_DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "upgraded from revision 0002 to revision" in run.stdout, run.stdout
    again = subprocess.run(
        [sys.executable, "-m", "pate.cli.main", "db", "migrate"],
        env=_env(PATE_DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "is up to date (revision" in again.stdout, again.stdout


def test_the_summary_of_a_fresh_database_and_of_a_partial_upgrade() -> None:
    assert migration_summary("db", None, "0008", "0008") == (
        "database at db upgraded from an empty database to revision 0008"
    )
    assert migration_summary("db", "0002", "0005", "0008").endswith("(the latest is 0008)")
