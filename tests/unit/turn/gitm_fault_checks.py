"""The checks of a fault campaign (gitm_fault_campaign.py): every unit in one place, every
supply counted, on PATE's side and GITM's, whatever the faults did."""

from __future__ import annotations

from services.gitm_reference import tables as gt
from tests.unit.turn.gitm_fault_campaign import PORT, SUPPLIES, UNITS, Campaign


def _lost_events(c: Campaign) -> dict[str, str]:
    """Units recorded lost or captured with their event, less those a later
    transfer_undone recovered (GITM never let them aboard)."""
    out: dict[str, str] = {}
    for turn in sorted(c.events):
        for e in c.events[turn]:
            if e.kind in ("cargo_lost", "cargo_captured"):
                for u in e.data["units"]:
                    out[u] = "lost" if e.kind == "cargo_lost" else f"captured:{e.data['captor']}"
            if e.kind == "transfer_undone" and e.data["recovered"]:
                for u in e.data["units"]:
                    out.pop(u, None)
            if e.kind == "transfer_undone" and e.data["lost"]:
                out.update(dict.fromkeys(e.data["units"], "lost"))
    return out


def _lost_supplies(c: Campaign) -> int:
    lost = 0
    for events in c.events.values():
        for e in events:
            if e.kind in ("cargo_lost", "cargo_captured"):
                lost += int(e.data["supplies"])
            if e.kind == "transfer_undone" and e.data["recovered"]:
                lost -= int(e.data["supplies"])
            if e.kind == "transfer_undone" and e.data["lost"]:
                lost += int(e.data["supplies"])
    return lost


def assert_conserved(c: Campaign) -> None:
    w = c.world
    pate: dict[str, list[str]] = {}
    for name, port in w.ports.items():
        for u in port.garrison:
            pate.setdefault(u, []).append(f"city:{name}")
    for sid, s in w.ships.items():
        for u in s.cargo.units:
            pate.setdefault(u, []).append(f"aboard:{sid}")
    for u, fate in _lost_events(c).items():
        pate.setdefault(u, []).append(fate)
    assert {u: len(places) for u, places in pate.items()} == dict.fromkeys(UNITS, 1), pate
    with c.store.engine.connect() as conn:
        rows = conn.execute(gt.units.select()).all()
        stocks = conn.execute(gt.stocks.select()).all()
        gitm_lost = conn.execute(gt.losses_total.select()).all()
    gitm = {}
    for r in rows:
        assert not r.reserved_by, f"{r.id} still reserved by {r.reserved_by}"
        assert sum(bool(x) for x in (r.city, r.transport, r.fate)) == 1, r
        gitm[r.id] = (
            r.fate + (f":{r.captor}" if r.captor else "")
            if r.fate
            else (f"aboard:{r.transport}" if r.transport else f"city:{r.city}")
        )
    assert gitm == {u: places[0] for u, places in pate.items()}
    # supplies: the same in each place, none made or lost on the way
    pate_supplies = {f"city:{PORT}": w.ports[PORT].supplies} | {
        f"aboard:{k}": s.cargo.supplies for k, s in w.ships.items()
    }
    gitm_supplies = {("city:" if r.kind == "city" else "aboard:") + r.place: r.supplies for r in stocks}
    assert {k: v for k, v in pate_supplies.items() if v} == {k: v for k, v in gitm_supplies.items() if v}
    lost = _lost_supplies(c)
    assert sum(pate_supplies.values()) + lost == SUPPLIES
    assert sum(r.supplies for r in gitm_lost) == lost
