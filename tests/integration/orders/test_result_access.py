"""Who reads a campaign's result, and the account the orders service makes of the stored
worlds and events, on a migrated database (docs/web.md, "The result of a campaign")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine

from pate.v1 import desk_pb2
from services.orders import options
from services.orders.result import Reader, compute, may_read, result_pb
from tests.support.passwords import open_training_campaign

AT = datetime(2026, 1, 1, 12, tzinfo=UTC)
C = "ended"


@pytest.fixture
def campaign(engine: Engine) -> Engine:
    with engine.begin() as conn:
        open_training_campaign(conn, C, 5, deadline=AT + timedelta(hours=10), turn_seconds=86400)
    return engine


@pytest.mark.parametrize(
    ("status", "reader", "spectators", "allowed"),
    [
        ("OPEN", Reader.MASTER, False, True),  # the game master: any time
        ("OPEN", Reader.PLAYER, True, False),  # a player: not while it runs
        ("OPEN", Reader.SPECTATOR, True, False),  # a spectator: not while it runs, whatever the option
        ("FINISHED", Reader.PLAYER, False, True),  # every player once it is finished
        ("FINISHED", Reader.SPECTATOR, False, False),  # a spectator only when the game master allows it
        ("FINISHED", Reader.SPECTATOR, True, True),
        (None, Reader.MASTER, True, False),  # no campaign, nothing to read
    ],
)
def test_who_reads_the_result(status: str | None, reader: Reader, spectators: bool, allowed: bool) -> None:
    assert may_read(status, reader, spectators) is allowed


def test_the_spectators_option_is_off_by_default_and_kept_beside_show_ready(campaign: Engine) -> None:
    with campaign.begin() as conn:
        assert not options.options(conn, C).spectators_see_result
        wanted = desk_pb2.CampaignOptions(show_ready=False, spectators_see_result=True)
        got = options.set_options(conn, C, wanted)
    assert got.spectators_see_result and not got.show_ready
    with campaign.begin() as conn:
        assert options.options(conn, C).spectators_see_result


def test_an_account_before_any_turn_is_a_draw_with_nothing_in_play(campaign: Engine) -> None:
    """Decision (docs/rules/result.md): "a campaign where nothing was won or lost is a draw"."""
    with campaign.begin() as conn:
        res = compute(conn, C)
    out = result_pb(C, res, final=False)
    assert [s.side for s in out.sides] == ["FR", "BR"]  # largest navy at the start first (10 ships to 9)
    assert out.result == "draw" and out.points_in_play == 0 and out.turns == 0
    assert out.sides[0].ships_start.sl == out.sides[0].ships_end.sl > 0
