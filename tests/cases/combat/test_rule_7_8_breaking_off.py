"""Rule 7.8 read with 7.4: a beaten fleet breaking off (docs/rules/combat.md,
decision 10, "Breaking off").

7.8: "At the end of combat, all unsunk ships on the losing side attempt to
escape the battle.  Those that do not escape are taken as prizes."  7.4:
evaders "will succeed as long as the number of warships on their side that
are not evading is at least half the number of enemy warships that are not
evading"; "If the ships are to windward, then escape is very unlikely; if the
ships are to leeward then escape is very likely unless the battle is in
coastal waters of a port and the winds are onshore"; "If the battle is fought
in a harbor, then evading the battle is impossible."

Decision: the beaten side's screen (its sound warships and the warships that
evaded the fight) against the victors' pursuers (warships afloat whose rigging
lets them chase) covers the share min(1, screen / (cover_ratio x pursuers)) of
the escape, times 7.4's chance of getting away; each beaten ship's capture
chance is cut by covered_pct x that share.
"""

from __future__ import annotations

import dataclasses

from pate.core.orders.model import CombatStance, Range
from pate.core.rng import Rng, derive_seed
from pate.core.rules.combat import Outcome, Where
from pate.core.rules.combat.engine import fight_prepared
from pate.core.rules.combat.model import Battle
from pate.core.rules.combat.outcome import Pursuit, capture_chance, cover_share
from pate.core.rules.combat.params import CombatRules
from pate.core.rules.combat.prepare import Columns, prepare
from pate.core.world.ships import Quality
from tests.unit.combat.combat_world import RULES, battle, bship

ENGAGE = CombatStance.ENGAGE
C = RULES.capture


def _share(
    b: Battle, *, victors_rigging: int = 0, sound: int = 0, evaded: int = 0, windward: int = 0
) -> float:
    """The cover of side 1, beaten by side 0: side 1's first ``sound`` ships
    unhurt, the rest battered (hull 2, rigging 2)."""
    p = prepare(b, RULES)
    cols = Columns(b)
    captors = [i for i in range(len(b.ships)) if p.side[i] == 0]
    losers = [i for i in range(len(b.ships)) if p.side[i] == 1]
    for i in captors:
        cols.rigging[i] = victors_rigging
    for n, i in enumerate(losers):
        cols.hull[i], cols.rigging[i] = (0, 0) if n < sound else (2, 2)
    return cover_share(p, cols, captors, losers, evaded=evaded, windward=windward)


def _fleets(victors: int, beaten: int, **kw: object) -> Battle:
    ships = [bship(f"a{k}", 0) for k in range(victors)]
    ships += [bship(f"b{k}", 1) for k in range(beaten)]
    return battle(*ships, **kw)


def test_rule_7_8_a_covered_ship_is_harder_to_take_however_battered() -> None:
    """Decision: the cut applies after the cap, so a dismasted ship the screen
    covers may still be towed off (Villaret's five at the First of June)."""
    calm = Pursuit(enemy_rigging=0.0, line_broken=False, aimed_rigging=0.0, embayed=False)
    half = dataclasses.replace(calm, cover=0.5)
    full = dataclasses.replace(calm, cover=1.0)
    for hull, rigging in ((1, 1), (2, 2), (4, 5)):
        bare = capture_chance(C, calm, close=True, hull=hull, rigging=rigging, run_past=False)
        assert bare > 0
        got = capture_chance(C, half, close=True, hull=hull, rigging=rigging, run_past=False)
        assert abs(got - bare * (1 + C.covered_pct * 0.5 / 100)) < 1e-9
        got = capture_chance(C, full, close=True, hull=hull, rigging=rigging, run_past=False)
        assert abs(got - bare * (1 + C.covered_pct / 100)) < 1e-9
    assert C.covered_pct < 0  # the data really covers


def test_rule_7_4_half_the_pursuers_cover_the_whole_escape() -> None:
    """7.4: "at least half the number of enemy warships".  Four victors, the
    beaten side to leeward: two sound ships cover it all, one covers half,
    none nothing; the share is 7.4's leeward chance (80, +5 a point of
    quality, the wind) of the cover."""
    b = _fleets(4, 6)
    leeward = RULES.evasion.leeward_pct / 100  # Average quality, moderate winds
    assert _share(b, sound=0) == 0.0
    assert abs(_share(b, sound=1) - 0.5 * leeward) < 1e-9
    assert abs(_share(b, sound=2) - leeward) < 1e-9
    assert abs(_share(b, sound=4) - leeward) < 1e-9


def test_rule_7_4_evaders_screen_the_beaten_side() -> None:
    """Decision: the beaten side's warships that evaded the fight (7.4) are in
    its screen, weighted by ``evader_cover`` (St Vincent's lee division)."""
    assert C.evader_cover == 1  # the calibration's choice: an evader screens like a sound ship
    b = _fleets(4, 3)
    assert _share(b, evaded=0) == 0.0
    assert _share(b, evaded=1) == _share(b, sound=1) > 0.0
    assert _share(b, evaded=2) == _share(b, sound=2) > _share(b, evaded=1)


def test_rule_7_8_victors_with_shot_away_rigging_cannot_pursue() -> None:
    """Decision: a victor whose rigging damage reaches ``pursuit_max_rigging``
    cannot chase; the screen covers more against fewer pursuers, all of it
    when none can chase."""
    b = _fleets(4, 6)
    sound = _share(b, sound=1)
    crippled = _share(b, sound=1, victors_rigging=C.pursuit_max_rigging)
    assert crippled > sound
    assert abs(crippled - RULES.evasion.leeward_pct / 100) < 1e-9
    assert _share(b, sound=1, victors_rigging=C.pursuit_max_rigging - 1) == sound


def test_rule_7_4_the_gauge_and_a_lee_shore_decide_how_much_the_screen_covers() -> None:
    """7.4: escape "very unlikely" to windward, "very likely" to leeward,
    "unlikely" in coastal waters with onshore winds, impossible in a harbor:
    the screen covers in that measure (the Nile: embayed, at anchor)."""
    ev = RULES.evasion
    leeward = _share(_fleets(4, 6), sound=2, windward=0)
    windward = _share(_fleets(4, 6), sound=2, windward=1)
    embayed = _share(_fleets(4, 6, where=Where.COASTAL, onshore=True), sound=2, windward=0)
    harbor = _share(_fleets(4, 6, where=Where.HARBOR), sound=2, windward=0)
    assert abs(leeward - ev.leeward_pct / 100) < 1e-9
    assert abs(windward - ev.windward_pct / 100) < 1e-9
    assert abs(embayed - ev.onshore_coastal_pct / 100) < 1e-9
    assert harbor == 0.0


def _taken(b: Battle, rules: CombatRules, n: int = 400) -> int:
    p = prepare(b, rules)
    runs = [fight_prepared(p, Rng(derive_seed("case", 3, k))) for k in range(n)]
    return sum(o is Outcome.CAPTURED for r in runs for o in r.outcome)


def test_rule_7_8_a_beaten_fleet_with_a_screen_gets_away_at_sea_not_in_a_harbor() -> None:
    """The rule at work: five strong ships close on eight poor ones; at sea the
    beaten fleet's screen saves ships the victors would otherwise take, and
    in a harbor (no evasion, 7.4) it saves none.  Same seed, same result."""
    strong = {"stance": ENGAGE, "range": Range.CLOSE, "quality": Quality.EXCELLENT, "experience": 25}
    ships = [bship(f"a{k}", 0, **strong) for k in range(5)]  # type: ignore[arg-type]
    ships += [bship(f"b{k}", 1, quality=Quality.POOR) for k in range(8)]
    bare = dataclasses.replace(RULES, capture=dataclasses.replace(C, covered_pct=0.0))
    at_sea = battle(*ships, windward=0)
    in_harbor = battle(*ships, where=Where.HARBOR)
    assert _taken(at_sea, RULES) < 0.9 * _taken(at_sea, bare)
    assert _taken(in_harbor, RULES) == _taken(in_harbor, bare)
    assert _taken(at_sea, RULES) == _taken(at_sea, RULES)
