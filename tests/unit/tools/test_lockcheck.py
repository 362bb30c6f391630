"""The lock files pin every declared dependency with hashes, and the check says what is off."""

from __future__ import annotations

from pate.tools import lockcheck

LOCK = """alembic==1.20.1 \\
    --hash=sha256:aa \\
    --hash=sha256:bb
    # via pate (pyproject.toml)
grpcio==1.85.3
"""


def test_the_committed_lock_files_match_pyproject() -> None:
    assert lockcheck.main() == 0


def test_an_unpinned_a_disallowed_and_an_unhashed_requirement_are_each_named() -> None:
    found = lockcheck.problems(["alembic>=2", "grpcio", "sqlalchemy>=2"], LOCK, "x.lock")
    assert found == [
        "x.lock: grpcio==1.85.3 has no hash",
        "x.lock: alembic==1.20.1 does not satisfy alembic>=2 (pyproject.toml): run make lock",
        "x.lock: sqlalchemy (pyproject.toml) is not pinned: run make lock",
    ]
    assert lockcheck.pins(LOCK)["alembic"] == ("1.20.1", 2)
