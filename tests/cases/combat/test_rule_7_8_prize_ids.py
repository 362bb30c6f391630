"""Rule 7.8: a prize's new id, and the defect of one id given twice in a turn."""

from __future__ import annotations

from pate.core.orders.model import CombatStance, Range
from pate.core.world.ships import AtSea, Quality
from tests.unit.combat.combat_world import order, run_phase, ship, world

ENGAGE = CombatStance.ENGAGE


def test_rule_7_8_prize_id_never_reused_within_a_turn() -> None:
    """7.8: a prize "will be renumbered with the lowest number not in use" by
    the captor's state.  Decision (docs/rules/combat.md): an id in use at any
    moment of the turn is never given again that turn.  At tactical area 1
    five French frigates beat the British frigate BR1FR; at tactical area 2,
    fought afterwards, five British frigates beat FR9FR.  The British prize
    may not be BR1FR, the id of the ship taken (or sunk) a moment before."""
    one, two = AtSea("ECH", 1), AtSea("ECH", 2)
    good = {"quality": Quality.EXCELLENT, "experience": 25}
    ships = [ship("BR1FR", one, rigging=3, quality=Quality.POOR)]
    ships += [ship(f"FR{k}FR", one, **good) for k in range(1, 6)]
    ships += [ship(f"BR{k}FR", two, **good) for k in range(2, 7)]
    ships += [ship("FR9FR", two, rigging=3, quality=Quality.POOR)]
    orders = {s.id: order(s.id, stance=ENGAGE, range=Range.CLOSE) for s in ships if s.rigging == 0}
    both = 0
    for seed in range(1, 80):
        ts = run_phase(world(*ships), orders, seed=seed)
        prizes = [e.data["prize"] for e in ts.events if e.kind == "captured"]
        assert len(prizes) == len(set(prizes))
        named = [sid for e in ts.events if e.kind in ("captured", "sunk") for sid in e.ships[:1]]
        assert not set(prizes) & set(named), (seed, prizes, named)
        if len(prizes) == 2 and "BR1FR" in named:
            both += 1
            assert "BR1FR" not in ts.world.ships or ts.world.ships["BR1FR"].state == "BR"
            assert "BR1FR" not in prizes
    assert both > 0, "no seed gave a capture in both battles"
