"""``pate gitm reconcile`` after either side was restored from a backup (docs/gitm.md
"Reconciliation", R1 to R6), against the reference land service in this process, its store in a
SQLite file copied and restored as an operator would."""

from __future__ import annotations

from pathlib import Path

import pytest

from pate.core.orders.model import Amphibious, ShipOrder
from services.gitm_reference import tables as gt
from services.gitm_reference.store import LandStore
from services.resolver import bridge
from services.resolver.gitm import Begin, Complete
from services.resolver.reconcile import reconcile
from services.resolver.reconcile_diff import LATER, OPERATOR, REPAIR
from tests.cases.turn.turn_world import CTX
from tests.unit.turn.gitm_restored import CAMPAIGN, restorable

PORT = "Portsmouth"
LOAD = {"BR2TR": ShipOrder("BR2TR", amphibious=Amphibious(load_units=("BR5IN",), load_supplies=2))}
UNLOAD = {"BR1TR": ShipOrder("BR1TR", amphibious=Amphibious(unload_units=("BR1IN",)))}


def _place(store: LandStore, unit: str) -> str:
    u = next(x for x in store.snapshot(CAMPAIGN).units if x.id == unit)
    return str(u.transport_id or u.city)


def test_a_gitm_restored_from_a_backup_gets_the_transfers_it_lost_sent_again(tmp_path: Path) -> None:
    """R1: the load PATE committed and delivered after GITM's backup is lost with the restore;
    the reconcile lists it, ``--repair`` sends the turn's calls again with their ids (naming no
    hold: the close's hold was lost with the restore), and the two sides agree again (the unit
    aboard in both; the next close refuses nothing)."""
    r = restorable(tmp_path)
    c = r.campaign
    saved = r.backup_gitm()
    c.close_turn(LOAD, None, "")
    assert _place(c.store, "BR5IN") == "BR2TR"
    r.restore_gitm(saved)
    assert _place(c.store, "BR5IN") == PORT  # GITM as its backup had it

    found = reconcile(c.client, r.side(), CTX.map)
    assert not found.settled and not found.repairs
    kinds = {(d.what, d.subject, d.settles) for d in found.found}
    assert ("transfer", f"{CAMPAIGN}:1:BR2TR:1", REPAIR) in kinds
    assert ("aboard", "BR2TR", OPERATOR) in kinds
    assert any(d.what == "stock" and d.subject == PORT for d in found.found)

    fixed = reconcile(c.client, r.side(), CTX.map, repair=True)
    assert fixed.settled, [d.line() for d in fixed.left]
    assert fixed.repairs == ["turn 1's calls sent again"]
    assert fixed.left == []
    assert _place(c.store, "BR5IN") == "BR2TR"
    assert c.client.get(f"{CAMPAIGN}:1:BR2TR:1").state == 2  # COMPLETED
    again = reconcile(c.client, r.side(), CTX.map, repair=True)
    assert again.found == [] and again.repairs == []  # a repair repeated does nothing more

    c.close_turn({}, None, "")  # the next close: GITM's word agrees, nothing undone
    assert "BR5IN" in c.world.ships["BR2TR"].cargo.units
    assert not any(e.kind == "transfer_undone" for e in c.events[2])


def test_a_pate_restored_from_a_backup_cancels_what_it_never_committed_and_waits_for_its_replay(
    tmp_path: Path,
) -> None:
    """R3: an open transfer of a turn PATE has committed, which PATE's record does not hold, is
    cancelled (its unit free again); R4: the transfer of the turn PATE lost with its restore,
    begun in GITM, is left for PATE's own resolution of that turn, which completes it by its id."""
    r = restorable(tmp_path)
    c = r.campaign
    c.close_turn({}, None, "")  # turn 1: nothing moves
    # begun by a PATE whose record of turn 1 was then replaced: its id will never be sent again
    stray = Begin(f"{CAMPAIGN}:1:BR2TR:1", CAMPAIGN, 1, PORT, "BR2TR", "load", ("BR6IN",), 0, "BR")
    assert c.client.begin(stray).state == 1  # BEGUN: BR6IN reserved
    saved = r.backup_pate()
    c.close_turn(UNLOAD, None, "", deliver=False)  # turn 2 resolved; the bridge sends its begins only
    begins = [
        x for x in bridge.calls_of(CAMPAIGN, 2, c.events[2], c.starts[2], c.world) if isinstance(x, Begin)
    ]
    assert [b.transfer_id for b in begins] == [f"{CAMPAIGN}:2:BR1TR:1"]
    bridge.deliver(c.client, begins)
    r.restore_pate(saved)  # PATE is back at the start of turn 2, its record of it lost

    found = reconcile(c.client, r.side(), CTX.map)
    by = {(d.what, d.subject): d for d in found.found}
    assert by[("transfer", stray.transfer_id)].settles == REPAIR
    assert by[("transfer", f"{CAMPAIGN}:2:BR1TR:1")].settles == LATER
    assert not found.settled

    fixed = reconcile(c.client, r.side(), CTX.map, repair=True)
    assert fixed.repairs == [f"cancelled {stray.transfer_id}"]
    assert fixed.settled and [d.settles for d in fixed.left] == [LATER]
    units = {u.id: u for u in c.store.snapshot(CAMPAIGN).units}
    assert units["BR6IN"].reserved_by == "" and units["BR6IN"].city == PORT

    c.close_turn(UNLOAD, None, "")  # PATE resolves turn 2 again, with the same landing
    after = reconcile(c.client, r.side(), CTX.map)
    assert after.found == [], [d.line() for d in after.found]
    assert "BR1IN" in c.world.ports[PORT].garrison and _place(c.store, "BR1IN") == PORT


def test_a_transfer_gitm_completed_that_pate_never_committed_is_left_to_the_operators(
    tmp_path: Path,
) -> None:
    """R6: no call of the contract takes back a completion; the reconcile reports it and exits
    not settled, after repairing what it can."""
    r = restorable(tmp_path)
    c = r.campaign
    c.close_turn({}, None, "")
    c.close_turn({}, None, "")  # PATE is at turn 3
    stray = Begin(f"{CAMPAIGN}:1:BR2TR:7", CAMPAIGN, 1, PORT, "BR2TR", "load", ("BR6IN",), 0, "BR")
    c.client.begin(stray)
    c.client.complete(Complete(stray.transfer_id, False))
    fixed = reconcile(c.client, r.side(), CTX.map, repair=True)
    assert not fixed.settled and fixed.repairs == []
    left = {(d.what, d.subject, d.settles) for d in fixed.left}
    assert ("transfer", stray.transfer_id, OPERATOR) in left
    assert ("aboard", "BR2TR", OPERATOR) in left


def test_a_campaign_gitm_lost_whole_is_opened_again_and_every_turn_sent_again(tmp_path: Path) -> None:
    """R1 for a GITM restored from a backup older than the campaign: GetLandSnapshot answers
    NOT_FOUND; ``--repair`` sends turn 0 (the open, under the same id) and every delivered turn
    again, in order, and the two sides agree."""
    r = restorable(tmp_path)
    c = r.campaign
    c.close_turn(LOAD, None, "")
    with c.store.engine.begin() as conn:
        for table in reversed(gt.metadata.sorted_tables):
            conn.execute(table.delete())
    c.store.reopen()

    found = reconcile(c.client, r.side(), CTX.map)
    assert [(d.what, d.settles) for d in found.found] == [("campaign", REPAIR)] and not found.settled
    fixed = reconcile(c.client, r.side(), CTX.map, repair=True)
    assert fixed.repairs == ["turn 0's calls sent again", "turn 1's calls sent again"]
    assert fixed.settled and fixed.left == [], [d.line() for d in fixed.left]
    assert _place(c.store, "BR5IN") == "BR2TR"


def test_a_repair_met_by_an_outage_is_reported_in_one_line_not_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`pate gitm reconcile --repair` during GITM's outage says what was not sent and exits as a
    command does, with no traceback; the next run repairs it."""
    from services.platform.bus.consumer import BusyError, TransientError
    from services.resolver import reconcile as rec

    for error in (TransientError("GITM at x: UNAVAILABLE"), BusyError("GITM at x: RESOURCE_EXHAUSTED")):

        def down(client: object, calls: object, error: Exception = error) -> None:
            raise error

        monkeypatch.setattr(rec.bridge, "deliver", down)
        said = rec._send(None, [], "turn 3 sent again")  # type: ignore[arg-type]
        assert said.startswith("turn 3 sent again: not sent") and "run the repair again" in said
