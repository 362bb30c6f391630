"""The Alembic migrations build exactly the schema in services/platform/store/tables.py, on both back ends."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from pate.core.codec import canonical_json, to_plain
from pate.datafiles import load_scenario
from services.platform.store import db, desk_tables, tables
from tests.support.servers import sqlite_url

pytestmark = pytest.mark.integration

EXPECTED_TABLES = {
    "turn_failures",
    "turn_defaults",
    "campaigns",
    "world_states",
    "turn_events",
    "resolutions",
    "players",
    "orders",
    "stores_moves",
    "order_requests",
    "audit",
    "knowledge",
    "reports",
    "outbox",
    "processed_messages",
    "sessions",
    "login_throttle",
    "notify_prefs",
    "notifications",
    "assignments",
    "campaign_pauses",
    "order_confirmations",
    "early_close",
    "messages",
    "bot_rules",
    "bot_players",
    "bot_orders",
    "solo_owners",
    "campaign_options",
    "messages_read",
    "absence_rules",
    "absences",
    "standing_instructions",
    "accounts",
    "account_tokens",
    "account_sessions",
    "account_seat_sessions",
    "account_seats",
    # migration 0018, the lobby (docs/lobby.md)
    "lobby_listings",
    "lobby_seats",
    "lobby_asks",
    "reliability_turns",
    "reliability_left",
    "api_tokens",
}


def _assert_matches_metadata(url: str) -> None:
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
            assert names == EXPECTED_TABLES | {"alembic_version"}
            assert compare_metadata(MigrationContext.configure(conn), tables.metadata) == []
            inspector = sa.inspect(conn)
            checks = {c["name"] for t in ("campaigns", "reports") for c in inspector.get_check_constraints(t)}
            assert checks == {"ck_campaigns_status", "ck_reports_format"}
        assert db.current_revision(engine) == "0020_api_tokens"
    finally:
        engine.dispose()


def test_migration_builds_the_declared_schema_on_sqlite(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "nested" / "folder")  # the folder does not exist yet
    db.migrate(url)
    _assert_matches_metadata(url)


def test_migration_builds_the_declared_schema_on_the_test_database(database_url: str) -> None:
    """PostgreSQL when PATE_TEST_DATABASE_URL is set, SQLite otherwise."""
    db.migrate(database_url)
    _assert_matches_metadata(database_url)


def test_migrating_twice_changes_nothing(database_url: str) -> None:
    db.migrate(database_url)
    db.migrate(database_url)
    _assert_matches_metadata(database_url)


def test_processes_migrating_at_once_all_succeed(database_url: str) -> None:
    """Services start together against an empty database."""
    code = "import sys; from services.platform.store.db import migrate; migrate(sys.argv[1])"
    root = Path(__file__).resolve().parents[3]
    procs = [
        subprocess.Popen([sys.executable, "-c", code, database_url], cwd=root, stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    errors = [p.communicate(timeout=120)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
    _assert_matches_metadata(database_url)


def test_tables_hold_the_declared_constraints(engine: sa.Engine) -> None:
    campaign = {
        "id": "c1",
        "name": "Trafalgar",
        "scenario": "s",
        "seed": 2**40,
        "turns": 15,
        "turn": 1,
        "status": "OPEN",
    }
    with engine.begin() as conn:
        conn.execute(tables.campaigns.insert().values(**campaign))
    row = db_row(engine, tables.campaigns)
    assert row.seed == 2**40 and row.version == 0
    assert row.created_at.tzinfo is not None
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
        conn.execute(tables.campaigns.insert().values(**{**campaign, "id": "c2", "status": "PAUSED"}))
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:  # foreign key to campaigns
        conn.execute(
            tables.knowledge.insert().values(campaign="nope", turn=1, player="p", knowledge_json="{}")
        )
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
        conn.execute(tables.reports.insert().values(campaign="c1", turn=1, player="p", format="pdf", body=""))


def db_row(engine: sa.Engine, table: sa.Table) -> sa.Row[object]:
    with db.reader(engine) as conn:
        return conn.execute(sa.select(table)).one()


def test_sqlite_connections_use_wal_and_foreign_keys(tmp_path: Path) -> None:
    engine = db.make_engine(sqlite_url(tmp_path))
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000
    finally:
        engine.dispose()


def test_postgresql_urls_use_psycopg_3() -> None:
    assert db.normalize_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert db.normalize_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert db.normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_migration_0006_gives_each_campaign_the_rules_of_its_first_stored_world(database_url: str) -> None:
    """Campaigns made before 0006 take combat_rules from their first turn's world,
    "pate" when they have no world or it names none."""
    db.migrate(database_url, "0005")
    engine = db.make_engine(database_url)
    eia = to_plain(replace(load_scenario("training").world, combat_rules="eia-advanced"))
    worlds = [
        ("eia", 1, canonical_json(eia)),
        ("eia", 2, canonical_json({**eia, "combat_rules": "pate"})),  # a later turn does not count
        ("old", 1, canonical_json({k: v for k, v in eia.items() if k != "combat_rules"})),
    ]
    try:
        with engine.begin() as conn:
            for cid in ("eia", "old", "none"):
                conn.execute(
                    sa.text(
                        "INSERT INTO campaigns (id, name, scenario, seed, turns, turn, status) "
                        "VALUES (:id, 'n', 's', 1, 15, 2, 'OPEN')"
                    ),
                    {"id": cid},
                )
            for cid, turn, text in worlds:
                conn.execute(
                    sa.text(
                        "INSERT INTO world_states (campaign, turn, state_json, sha256, created_at) "
                        "VALUES (:c, :t, :s, 'x', CURRENT_TIMESTAMP)"
                    ),
                    {"c": cid, "t": turn, "s": text},
                )
        db.migrate(database_url)
        with db.reader(engine) as conn:
            rows = conn.execute(sa.select(tables.campaigns.c.id, tables.campaigns.c.combat_rules)).all()
        assert dict(tuple(r) for r in rows) == {"eia": "eia-advanced", "old": "pate", "none": "pate"}
    finally:
        engine.dispose()


def test_request_ids_stored_before_0003_belong_to_their_orders_author(database_url: str) -> None:
    """Migration 0003 keys request ids by player; earlier ids keep replaying for their author."""
    db.migrate(database_url, "0002")
    engine = db.make_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO campaigns (id, name, scenario, seed, turns, turn, status) "
                    "VALUES ('c1', 'n', 's', 1, 15, 1, 'OPEN')"
                )
            )
            conn.execute(
                sa.text(
                    "INSERT INTO orders (campaign, turn, ship_id, author_player, author_role, seq, "
                    "order_json, client_request_id) VALUES ('c1', 1, 'BR1FL', 'nelson', 'commander', 1, "
                    "'{}', 'r1')"
                )
            )
            conn.execute(
                sa.text(
                    "INSERT INTO order_requests (campaign, client_request_id, response) "
                    "VALUES ('c1', 'r1', :r), ('c1', 'r2', :r)"
                ),
                {"r": b"x"},
            )
        db.migrate(database_url)
        with db.reader(engine) as conn:
            rows = conn.execute(
                sa.select(tables.order_requests.c.client_request_id, tables.order_requests.c.player).order_by(
                    tables.order_requests.c.client_request_id
                )
            ).all()
        assert [tuple(r) for r in rows] == [("r1", "nelson"), ("r2", "")]
    finally:
        engine.dispose()


def test_migration_0014_gives_existing_campaigns_no_gitm_whoever_runs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Campaigns made before 0014 are naval only even when the migrating process has
    PATE_GITM_ADDR; ``pate db gitm`` then marks the ones a deployment played with GITM
    (docs/gitm.md, "Campaigns with and without GITM")."""
    url = f"sqlite:///{tmp_path / 'gitm.db'}"
    db.migrate(url, "0013")
    engine = db.make_engine(url)
    try:
        with engine.begin() as conn:
            for cid in ("old", "other"):
                conn.execute(
                    sa.text(
                        "INSERT INTO campaigns (id, name, scenario, seed, turns, turn, status) "
                        "VALUES (:id, 'n', 's', 1, 15, 2, 'OPEN')"
                    ),
                    {"id": cid},
                )
        monkeypatch.setenv("PATE_GITM_ADDR", "gitm:7000")
        db.migrate(url)
        gitm = sa.select(tables.campaigns.c.id, tables.campaigns.c.gitm).order_by(tables.campaigns.c.id)
        with db.reader(engine) as conn:
            assert conn.execute(gitm).all() == [("old", False), ("other", False)]
        env = {"PYTHONPATH": str(Path(__file__).resolve().parents[3]), "PATE_DATABASE_URL": url}
        done = subprocess.run(
            [sys.executable, "-m", "pate.cli.main", "db", "gitm", "old"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0 and "1 campaign(s) marked played with GITM" in done.stdout, done
        with db.reader(engine) as conn:
            assert conn.execute(gitm).all() == [("old", True), ("other", False)]
    finally:
        engine.dispose()


def test_migration_0015_counts_the_messages_sent_before_it_as_read(tmp_path: Path) -> None:
    """The unread count starts at the upgrade: a player is not told of the campaign's whole
    history of letters as news (docs/web.md, "Messages")."""
    url = f"sqlite:///{tmp_path / 'read.db'}"
    db.migrate(url, "0014")
    engine = db.make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO campaigns (id, name, scenario, seed, turns, turn, status) "
                    "VALUES ('old', 'n', 's', 1, 15, 2, 'OPEN')"
                )
            )
            for pid in ("a", "b"):
                conn.execute(
                    sa.text(
                        "INSERT INTO players (campaign, id, name, state, password_hash)"
                        " VALUES ('old', :p, :p, 'BR', 'x')"
                    ),
                    {"p": pid},
                )
            for n in (1, 2):
                conn.execute(
                    sa.text(
                        "INSERT INTO messages (campaign, turn, sender, sender_state, to_kind, to_value, body)"
                        " VALUES ('old', 1, 'a', 'BR', 'state', 'BR', :b)"
                    ),
                    {"b": f"letter {n}"},
                )
        db.migrate(url)
        with db.reader(engine) as conn:
            t = desk_tables.messages_read
            got = {r.player: r.last_read for r in conn.execute(sa.select(t.c.player, t.c.last_read))}
        assert got == {"a": 2, "b": 2}
    finally:
        engine.dispose()
