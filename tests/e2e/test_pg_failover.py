"""The database primary is lost in the middle of turns and its synchronous replica promoted
(benchmarks/failover.py, docs/operations.md "Database failover"): nothing lost, nothing doubled,
and every campaign reaches its next turn and plays one more on the new primary."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import failover, pgpair

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not pgpair.available(), reason="PostgreSQL's server programs are not installed"),
]


def test_a_primary_killed_mid_turn_loses_nothing_once_its_replica_is_promoted(tmp_path: Path) -> None:
    out = failover.run(campaigns=3, promote_after=2.0, seed=7, workdir=tmp_path)
    assert out.problems == [], failover.report(out)
    # each campaign's turns 1 and 2, and the one whose orders were sent through the kill
    assert len(out.accepted) == 2 * 4
    assert out.late, "orders were being accepted while the primary was lost"


def test_the_pair_replicates_synchronously_and_the_url_follows_the_primary() -> None:
    from sqlalchemy import create_engine, text

    with pgpair.PgPair() as pair:
        engine = create_engine(pair.url("postgres"), isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            assert conn.execute(text("SHOW synchronous_standby_names")).scalar() == pgpair.STANDBY_NAME
            assert conn.execute(text("SELECT inet_server_port()")).scalar() == pair.primary.port
        engine.dispose()
        pair.primary.kill()
        pair.replica.promote()
        with engine.connect() as conn:
            row = conn.execute(text("SELECT inet_server_port(), pg_is_in_recovery()")).one()
        engine.dispose()
        assert tuple(row) == (pair.replica.port, False)
