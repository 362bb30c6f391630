"""The two sides diverge on land, end to end (docs/gitm.md "Land events", "Holds"): PATE's
services as processes over NATS and a database, the reference GITM land service as its own
process. Each scenario lets the next turn close, then asserts that ``pate gitm reconcile`` finds
the two sides agreeing, that the player whose transport it was reads what happened and why in
the report the reports service gives him, and that no unit is both aboard and ashore."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from gitm.v1 import land_pb2, reference_admin_pb2
from services.gitm_reference.holds import HOLD_SECONDS
from services.gitm_reference.seed import unit_pb
from services.platform.bus.natsserver import NatsServer
from tests.e2e.gitm_divergence import (
    PORT,
    Play,
    backup_sqlite,
    disagreements,
    doubled,
    gitm_url,
    pate,
    playing,
    restore_sqlite,
)

pytestmark = pytest.mark.e2e

LAND = "order BR1TR\n  unload units BR1IN\n"
LOAD = "order BR1TR\n  load units BR5IN\n"


def _agreed(play: Play) -> None:
    """``pate gitm reconcile`` (no repair) finds nothing, and PATE holds no unit twice."""
    run = play.reconcile()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 disagreement(s) found" in run.stdout, run.stdout
    assert doubled(play.world()) == set()


def test_a_reserved_unit_destroyed_on_land_fails_its_landing_and_the_minister_reads_why(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    """BR1TR lands BR1IN at Portsmouth; GITM answers the begin (BR1IN reserved by the transfer)
    and is stuck before the completion, while its own game destroys BR1IN. The completion then
    moves nothing, the next close applies the land event: BR1IN leaves PATE's world, the
    landing failed, and Lord Barham reads why."""
    with playing(tmp_path, nats_url, database_url, "div-destroyed") as play:
        play.orders(1, LAND)
        play.stuck("CompleteTransfer")
        play.close(1)
        transfer = "div-destroyed:1:BR1TR:1"
        play.wait_gitm("BR1IN reserved", lambda: play.reserved("BR1IN") == transfer)
        hit = play.inject(land_pb2.LAND_EVENT_UNIT_DESTROYED, unit_id="BR1IN", reason="stormed by FR3IN")
        assert hit.transfer_id == transfer  # GITM names the reservation
        play.stuck()
        play.delivered(1)
        assert "BR1IN" in play.world().ports[PORT].garrison  # PATE landed it when it resolved turn 1
        play.close(2)

        text = play.report(2)
        assert "The landing of BR1IN at Portsmouth failed: BR1IN was destroyed on land" in text, text
        assert "stormed by FR3IN" in text
        world = play.world()
        assert "BR1IN" not in world.land_units and "BR1IN" not in world.ships["BR1TR"].cargo.units
        assert play.ref.places(play.campaign)["BR1IN"] == "destroyed"
        play.delivered(2)
        _agreed(play)


def test_a_city_taken_with_cargo_waiting_leaves_its_stock_on_the_quay_and_the_minister_reads_why(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    """BR5IN and ten supplies wait on Portsmouth's quay for BR1TR; between two turns GITM's own
    game gives the city to FR. The next close takes GITM's word (the land event, the holder):
    nothing is loaded from FR's depot, and Lord Barham reads why."""
    with playing(tmp_path, nats_url, database_url, "div-city") as play:
        play.close(1)
        play.delivered(1)  # the close's hold released: GITM's own game may act on the city
        event = play.inject(
            land_pb2.LAND_EVENT_CITY_TAKEN, city=PORT, captor="FR", reason="stormed from Boulogne"
        )
        assert event.supplies == 10  # the stock on the quay, taken with the city
        play.orders(2, "order BR1TR\n  load units BR5IN supplies 2\n")
        play.close(2)

        text = play.report(2)
        taken = "Portsmouth was taken on land by FR: stormed from Boulogne; its stock (10 supplies)"
        assert f"{taken} can no longer be loaded" in text, text
        assert "BR5IN: units and supplies are loaded only in a same-side or allied port" in text
        world = play.world()
        assert world.ports[PORT].controller == "FR" and world.ports[PORT].garrison == ("BR5IN",)
        assert world.ships["BR1TR"].cargo.units == ("BR1IN",) and world.ships["BR1TR"].cargo.supplies == 0
        assert play.ref.places(play.campaign)["BR5IN"] == f"city:{PORT}"
        play.delivered(2)
        _agreed(play)


def test_the_land_moving_between_the_question_and_the_reservation_undoes_the_load_and_tells_why(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    """BR1TR loads BR5IN at Portsmouth. The close's UnitsNear holds the city; GITM is then stuck
    before the begin. While the hold lasts GITM's own game may not touch BR5IN (L28); once its
    ten minutes have passed BR5IN marches out of the city. The begin, sent at last, is refused,
    the next close undoes the load (BR5IN ashore, not aboard), and Lord Barham reads why."""
    with playing(tmp_path, nats_url, database_url, "div-moved") as play:
        play.orders(1, LOAD)
        play.stuck("BeginTransfer")
        play.close(1)
        assert play.world().ships["BR1TR"].cargo.units == ("BR1IN", "BR5IN")  # PATE loaded it
        with pytest.raises(grpc.RpcError) as held:
            play.inject(land_pb2.LAND_EVENT_UNIT_DESTROYED, unit_id="BR5IN")
        assert held.value.code() == grpc.StatusCode.FAILED_PRECONDITION  # L28: the hold keeps it
        play.stuck("BeginTransfer", clock_ahead=HOLD_SECONDS + 1)
        marched = reference_admin_pb2.StationedUnit(
            campaign_id=play.campaign, unit=unit_pb(play.world().land_units["BR5IN"], False), city=PORT
        )  # into Portsmouth's strategic square, out of the city itself
        play.ref.admin.Station(reference_admin_pb2.StationRequest(units=[marched]), timeout=10)
        play.stuck(clock_ahead=HOLD_SECONDS + 1)
        play.delivered(1)
        play.close(2)

        text = play.report(2)
        refused = "The land side refused the loading of BR1TR Portsmouth transports at Portsmouth:"
        assert f"{refused} the land around Portsmouth changed before the transfer could be made" in text, text
        assert "hold_expired" not in text  # the land service's words stay in the audit and the log
        assert "; BR5IN back ashore" in text
        world = play.world()
        assert world.ships["BR1TR"].cargo.units == ("BR1IN",)
        assert world.ports[PORT].garrison == () and world.ports[PORT].strategic_units == ("BR5IN",)
        assert play.ref.places(play.campaign)["BR5IN"] == f"city:{PORT}"
        play.delivered(2)
        _agreed(play)


def test_gitm_restored_from_an_older_backup_gets_the_lost_load_again_and_nothing_is_doubled(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    """GITM's store is backed up after turn 1; BR1TR loads BR5IN in turn 2, turn 3 passes, both
    sides agree; GITM is then restored from the backup (BR5IN ashore again, the load unknown to
    it) and turn 4 closes: PATE keeps BR5IN aboard, not ashore too. The reconcile lists the lost
    load (R1) and what is aboard (R6); ``--repair`` sends turns 2 to 4 again with their ids, and
    the two sides agree: BR5IN aboard in both. Lord Barham's load stands: nothing to tell him."""
    with playing(tmp_path, nats_url, database_url, "div-gitm-restored") as play:
        play.close(1)
        play.delivered(1)
        saved = tmp_path / "gitm-reference.backup"
        backup_sqlite(gitm_url(tmp_path), saved)
        play.orders(2, LOAD)
        play.close(2)
        play.close(3)
        play.delivered(3)
        assert play.ref.places(play.campaign)["BR5IN"] == "aboard:BR1TR"
        assert play.ref.restart is not None  # its own process: stopped, restored, started
        play.ref.restart(lambda: restore_sqlite(saved, gitm_url(tmp_path)))
        assert play.ref.places(play.campaign)["BR5IN"] == f"city:{PORT}"
        play.close(4)
        play.delivered(4)
        world = play.world()
        assert world.ships["BR1TR"].cargo.units == ("BR1IN", "BR5IN") and world.ports[PORT].garrison == ()

        found = play.reconcile()
        assert found.returncode == 1, found.stdout + found.stderr
        lines = disagreements(found.stdout)
        assert any(
            x.startswith("transfer div-gitm-restored:2:BR1TR:1:") and "[repair: R1" in x for x in lines
        )
        assert any(x.startswith("aboard BR1TR:") and "[operator: R6" in x for x in lines), lines
        fixed = play.reconcile(repair=True)
        assert fixed.returncode == 0, fixed.stdout + fixed.stderr
        assert "turn 2's calls sent again\n" in fixed.stdout and "after the repairs: 0 left" in fixed.stdout
        assert play.ref.places(play.campaign)["BR5IN"] == "aboard:BR1TR"
        play.close(5)
        text = play.report(5)
        assert "Carrying: BR1IN, BR5IN" in text and "The land side refused" not in text, text
        play.delivered(5)
        _agreed(play)


def test_pate_restored_from_an_older_backup_lands_again_under_the_same_id_and_the_sides_agree(
    tmp_path: Path, own_nats: NatsServer
) -> None:
    """PATE's database is backed up at the start of turn 2; Lord Barham lands BR1IN and both sides
    agree; PATE is then restored from the backup (its record of turn 2 and his orders gone, the
    stream rebuilt as docs/operations.md says) while GITM keeps the landing. The reconcile sends
    the completion PATE has not committed to the operators (R6), as the docs say; Lord Barham
    gives his orders again, turn 2 closes again, the landing reaches GITM under the same id and
    gets its stored answer, and the two sides agree."""
    url = f"sqlite:///{tmp_path / 'pate.db'}"
    with playing(tmp_path, own_nats.url, url, "div-pate-restored") as play:
        play.close(1)
        play.delivered(1)
        saved = tmp_path / "pate.backup"
        backup_sqlite(url, saved)
        play.orders(2, LAND)
        play.close(2)
        play.delivered(2)
        assert play.ref.places(play.campaign)["BR1IN"] == f"city:{PORT}"

        def restore() -> None:
            restore_sqlite(saved, url)
            rebuilt = pate(play.cluster, "stream", "rebuild", "--yes")
            assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr

        play.restart_pate(restore)
        play.client.wait_open(play.campaign, 2)
        world = play.world()
        assert world.ships["BR1TR"].cargo.units == ("BR1IN",)  # PATE as its backup had it
        found = play.reconcile()
        assert found.returncode == 1, found.stdout + found.stderr
        lines = disagreements(found.stdout)
        landing = "transfer div-pate-restored:2:BR1TR:1: PATE has not committed its turn; GITM completed"
        assert any(x.startswith(landing) and "[operator: R6" in x for x in lines), lines
        assert any(x.startswith("aboard BR1TR:") and "[operator: R6" in x for x in lines), lines

        play.orders(2, LAND)  # his orders of turn 2 were lost with PATE's restore: he gives them again
        play.close(2)
        text = play.report(2)
        assert "BR1TR Portsmouth transports unloaded BR1IN at Portsmouth (rule 3.9)" in text, text
        world = play.world()
        assert world.ships["BR1TR"].cargo.units == () and "BR1IN" in world.ports[PORT].garrison
        play.delivered(2)
        _agreed(play)
