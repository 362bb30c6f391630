"""A service starting on a database at the newest migration skips Alembic (one query instead of
loading it and its scripts); anything else still goes through Alembic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory

from services.platform.store import db

pytestmark = pytest.mark.integration


def test_the_head_read_from_the_files_is_alembics() -> None:
    assert db.head_revision() == ScriptDirectory.from_config(db.alembic_config()).get_current_head()


def test_only_a_database_at_the_head_counts_as_current(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        assert not db.schema_is_current(engine)  # a new database: no alembic_version yet
        db.migrate(engine, "0011")
        assert not db.schema_is_current(engine)
        db.migrate(engine)
        assert db.schema_is_current(engine)
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
        assert not db.schema_is_current(engine)  # newer than this code: Alembic says so
    finally:
        engine.dispose()


def test_starting_on_a_current_database_does_not_import_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    db.migrate(url)
    probe = (
        "import sys\nfrom services.platform.store.db import migrate\n"
        f"migrate({url!r})\nprint('alembic' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "False"
