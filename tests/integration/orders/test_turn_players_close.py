"""The early close and civil disorder wait for the same players
(services/orders/turn_players.py): a commander whose ships all cross the
Atlantic holds back neither, a naval minister is waited for by both, and a
player who confirmed has not missed the deadline."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine

from pate.core.world.ships import InAtlantic
from pate.datafiles import load_scenario
from pate.v1 import desk_pb2
from services.orders import campaigns, civil, confirm, earlyclose
from services.platform.store import bots
from services.platform.store import repository as repo
from tests.support.passwords import EveryPlayer

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
C = "cross"


def _campaign(engine: Engine) -> None:
    sc = load_scenario("training")
    crossing = InAtlantic(destination="X", arrives_turn=4, group="g")
    ships = {
        k: replace(s, location=crossing) if s.commander == "calder" else s for k, s in sc.world.ships.items()
    }
    with engine.begin() as conn:
        campaigns.create_campaign(
            conn,
            C,
            replace(sc, world=replace(sc.world, ships=ships)),
            "training",
            seed=5,
            turns=3,
            first_deadline=AT + timedelta(hours=10),
            turn_seconds=86400,
            combat_rules="",
            password_hashes=EveryPlayer(),
        )
        deadline = AT + timedelta(hours=10)
        repo.set_status(conn, C, turn=1, expect=("STARTING",), status="OPEN", deadline=deadline)
        earlyclose.set_setting(conn, C, desk_pb2.EarlyClose(enabled=True))
        civil.set_civil_disorder(conn, C, 1)


def test_the_minister_holds_the_turn_and_the_crossing_commander_does_not(engine: Engine) -> None:
    _campaign(engine)
    with engine.begin() as conn:
        for p in ("allemand", "cornwallis", "decres", "ganteaume"):
            assert not confirm.confirm(conn, C, 1, p, True, AT).turn_closed
        shown = {c.player_id for c in confirm.confirmations(conn, C, 1, repo.load_world(conn, C, 1))}
        assert "barham" in shown and "calder" not in shown
        assert confirm.confirm(conn, C, 1, "barham", True, AT).turn_closed
        missed = {p: s.missed for p, s in bots.bot_players(conn, C).items()}
    assert "calder" not in missed
    assert missed["barham"] == 0  # he confirmed the default orders: present, not absent
