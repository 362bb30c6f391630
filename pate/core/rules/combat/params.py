"""The combat constants of ``data/rules/combat.toml`` as typed, frozen values.

Parsed once per combat phase or simulator run by :meth:`CombatRules.from_rules`;
a missing or malformed entry raises :class:`RulesDataError` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pate.core.ruledata import RuleData, RulesDataError
from pate.core.world.geography import WindStrength
from pate.core.world.ships import ShipType


@dataclass(frozen=True, slots=True)
class StrengthRules:
    """Rule 7.7 and the mechanics page's strength list."""

    marines_per_point: float
    crew_threshold_pct: float
    crew_penalty_per_pct: float
    quality_pct_per_point: float
    close_quality_multiplier: float
    experience_range: tuple[float, float]
    experience_close: tuple[float, float]
    aim_hull_pct: float
    windward_pct: float
    closing_pct: float
    hull_damage_pct: tuple[float, ...]
    rigging_damage_pct: tuple[float, ...]
    break_success_pct: float
    break_failure_pct: float
    run_past_pct: float
    battery_per_defense: float
    battery_damaged_pct: float


@dataclass(frozen=True, slots=True)
class EvasionRules:
    windward_pct: float
    leeward_pct: float
    onshore_coastal_pct: float
    quality_pct_per_point: float
    wind_pct: Mapping[WindStrength, float]


@dataclass(frozen=True, slots=True)
class ClosingRules:
    windward_pct: float
    leeward_pct: float
    quality_pct_per_point: float


@dataclass(frozen=True, slots=True)
class LineRules:
    min_ships: int
    lose_coordination_pct: float
    lose_coordination_per_quality: float
    break_through_pct: float
    break_through_per_quality: float


@dataclass(frozen=True, slots=True)
class OutcomeRules:
    luck_sigma: float
    fire_range: float
    fire_close: float
    close_target_factor: float
    winner_fire_factor: float
    loser_fire_factor: float
    hull_share_aim_hull: float
    hull_share_aim_rigging: float
    battery_hull_share: float
    toughness: Mapping[ShipType, float]
    crew_loss_per_hull: float
    crew_loss_per_rigging: float
    transport_safe_ratio: float
    odds_exponent: float
    odds_cap: float


@dataclass(frozen=True, slots=True)
class CaptureRules:
    min_damage_points: float  # hull + rigging below this: never taken (no surrender unhurt)
    close_pct: float  # modifiers below are percent of the damage chance
    per_hull_pct: float
    per_rigging_pct: float
    per_enemy_rigging_pct: float
    run_past_pct: float
    line_broken_pct: float
    aim_rigging_pct: float
    onshore_coastal_pct: float
    unarmed_pct: float  # a transport group (no guns, 2.1) is taken unhurt at this chance
    covered_pct: float  # the beaten side's screen covers the escape (7.4 carried to 7.8), at full cover
    cover_ratio: float  # full cover: a screen of at least this many times the victors' pursuers
    evader_cover: float  # weight in the screen of a beaten warship that evaded the fight (7.4)
    pursuit_max_rigging: int  # a victor with this much rigging damage or more cannot chase
    max_pct: float


@dataclass(frozen=True, slots=True)
class HarborRules:
    """Coming in under the batteries (docs/rules/combat.md, decision 17)."""

    close_pct: Mapping[WindStrength, float]  # chance a ship comes in, by the wind
    close_quality_pct_per_point: float  # per point of the attackers' mean quality over the defenders'
    ground_per_defense_pct: float  # chance a ship grounds, per point of the port's defense rating
    grounded_strength_pct: float  # a grounded ship's strength modifier: part of her broadside bears
    grounded_target_factor: float  # a grounded ship draws this many times her share of the fire


@dataclass(frozen=True, slots=True)
class CombatRules:
    base_strength: Mapping[ShipType, float]
    max_crew: Mapping[ShipType, int]
    max_marines: Mapping[ShipType, int]
    strength: StrengthRules
    evasion: EvasionRules
    closing: ClosingRules
    line: LineRules
    outcome: OutcomeRules
    capture: CaptureRules
    harbor: HarborRules
    experience_thresholds_pct: tuple[float, ...]
    prize_crew_pct: int
    battery_damaged_on_loss_pct: float
    battery_damaged_on_win_pct: float

    @classmethod
    def from_rules(cls, rules: RuleData) -> CombatRules:
        classes = rules.ship_classes
        return cls.from_section(
            rules.section("combat"),
            base_strength={t: float(c.base_strength) for t, c in classes.items()},
            max_crew={t: c.max_crew for t, c in classes.items()},
            max_marines={t: c.max_marines for t, c in classes.items()},
        )

    @classmethod
    def from_section(
        cls,
        section: Mapping[str, Any],
        *,
        base_strength: Mapping[ShipType, float],
        max_crew: Mapping[ShipType, int],
        max_marines: Mapping[ShipType, int],
    ) -> CombatRules:
        r = _Reader(section)
        rules = cls(
            base_strength=dict(base_strength),
            max_crew=dict(max_crew),
            max_marines=dict(max_marines),
            strength=_strength(r),
            evasion=EvasionRules(
                windward_pct=r.num("evasion", "windward_pct"),
                leeward_pct=r.num("evasion", "leeward_pct"),
                onshore_coastal_pct=r.num("evasion", "onshore_coastal_pct"),
                quality_pct_per_point=r.num("evasion", "quality_pct_per_point"),
                wind_pct={w: r.num("evasion", "wind_pct", w.value) for w in WindStrength},
            ),
            closing=ClosingRules(
                windward_pct=r.num("closing", "windward_pct"),
                leeward_pct=r.num("closing", "leeward_pct"),
                quality_pct_per_point=r.num("closing", "quality_pct_per_point"),
            ),
            line=LineRules(
                min_ships=int(r.num("line", "min_ships")),
                lose_coordination_pct=r.num("line", "lose_coordination_pct"),
                lose_coordination_per_quality=r.num("line", "lose_coordination_per_quality"),
                break_through_pct=r.num("line", "break_through_pct"),
                break_through_per_quality=r.num("line", "break_through_per_quality"),
            ),
            outcome=_outcome(r),
            capture=_capture(r),
            harbor=_harbor(r),
            experience_thresholds_pct=r.nums("experience", "gain_thresholds_pct"),
            prize_crew_pct=int(r.num("prize", "crew_pct")),
            battery_damaged_on_loss_pct=r.num("battery", "damaged_on_loss_pct"),
            battery_damaged_on_win_pct=r.num("battery", "damaged_on_win_pct"),
        )
        if r.problems:
            raise RulesDataError(r.problems)
        return rules


def _strength(r: _Reader) -> StrengthRules:
    rng_a, rng_b = (*r.nums("strength", "experience_range"), 0.0, 0.0)[:2]
    cls_a, cls_b = (*r.nums("strength", "experience_close"), 0.0, 0.0)[:2]
    hull = r.nums("strength", "hull_damage_pct")
    rigging = r.nums("strength", "rigging_damage_pct")
    if len(hull) != 5:
        r.problems.append("combat.strength.hull_damage_pct: needs 5 values (hull damage 0..4)")
    if len(rigging) != 6:
        r.problems.append("combat.strength.rigging_damage_pct: needs 6 values (rigging damage 0..5)")
    return StrengthRules(
        marines_per_point=r.num("strength", "marines_per_point"),
        crew_threshold_pct=r.num("strength", "crew_threshold_pct"),
        crew_penalty_per_pct=r.num("strength", "crew_penalty_per_pct"),
        quality_pct_per_point=r.num("strength", "quality_pct_per_point"),
        close_quality_multiplier=r.num("strength", "close_quality_multiplier"),
        experience_range=(rng_a, rng_b),
        experience_close=(cls_a, cls_b),
        aim_hull_pct=r.num("strength", "aim_hull_pct"),
        windward_pct=r.num("strength", "windward_pct"),
        closing_pct=r.num("strength", "closing_pct"),
        hull_damage_pct=hull,
        rigging_damage_pct=rigging,
        break_success_pct=r.num("strength", "break_success_pct"),
        break_failure_pct=r.num("strength", "break_failure_pct"),
        run_past_pct=r.num("strength", "run_past_pct"),
        battery_per_defense=r.num("strength", "battery_per_defense"),
        battery_damaged_pct=r.num("strength", "battery_damaged_pct"),
    )


def _outcome(r: _Reader) -> OutcomeRules:
    return OutcomeRules(
        luck_sigma=r.num("outcome", "luck_sigma"),
        fire_range=r.num("outcome", "fire_range"),
        fire_close=r.num("outcome", "fire_close"),
        close_target_factor=r.num("outcome", "close_target_factor"),
        winner_fire_factor=r.num("outcome", "winner_fire_factor"),
        loser_fire_factor=r.num("outcome", "loser_fire_factor"),
        hull_share_aim_hull=r.num("outcome", "hull_share_aim_hull"),
        hull_share_aim_rigging=r.num("outcome", "hull_share_aim_rigging"),
        battery_hull_share=r.num("outcome", "battery_hull_share"),
        toughness={t: r.num("outcome", "toughness", t.value) for t in ShipType},
        crew_loss_per_hull=r.num("outcome", "crew_loss_per_hull"),
        crew_loss_per_rigging=r.num("outcome", "crew_loss_per_rigging"),
        transport_safe_ratio=r.num("outcome", "transport_safe_ratio"),
        odds_exponent=r.num("outcome", "odds_exponent"),
        odds_cap=r.num("outcome", "odds_cap"),
    )


def _capture(r: _Reader) -> CaptureRules:
    return CaptureRules(
        min_damage_points=r.num("capture", "min_damage_points"),
        close_pct=r.num("capture", "close_pct"),
        per_hull_pct=r.num("capture", "per_hull_pct"),
        per_rigging_pct=r.num("capture", "per_rigging_pct"),
        per_enemy_rigging_pct=r.num("capture", "per_enemy_rigging_pct"),
        run_past_pct=r.num("capture", "run_past_pct"),
        line_broken_pct=r.num("capture", "line_broken_pct"),
        aim_rigging_pct=r.num("capture", "aim_rigging_pct"),
        onshore_coastal_pct=r.num("capture", "onshore_coastal_pct"),
        unarmed_pct=r.num("capture", "unarmed_pct"),
        covered_pct=r.num("capture", "covered_pct"),
        cover_ratio=r.num("capture", "cover_ratio"),
        evader_cover=r.num("capture", "evader_cover"),
        pursuit_max_rigging=int(r.num("capture", "pursuit_max_rigging")),
        max_pct=r.num("capture", "max_pct"),
    )


def _harbor(r: _Reader) -> HarborRules:
    rules = HarborRules(
        close_pct={w: r.num("harbor", "close_pct", w.value) for w in WindStrength},
        close_quality_pct_per_point=r.num("harbor", "close_quality_pct_per_point"),
        ground_per_defense_pct=r.num("harbor", "ground_per_defense_pct"),
        grounded_strength_pct=r.num("harbor", "grounded_strength_pct"),
        grounded_target_factor=r.num("harbor", "grounded_target_factor"),
    )
    for wind, pct in rules.close_pct.items():
        if not 0 <= pct <= 100:
            r.problems.append(f"combat.harbor.close_pct.{wind.value}: a chance in percent, 0 to 100")
    if rules.ground_per_defense_pct < 0:
        r.problems.append("combat.harbor.ground_per_defense_pct: cannot be negative")
    if not -100 <= rules.grounded_strength_pct <= 0:
        r.problems.append("combat.harbor.grounded_strength_pct: -100 to 0 (grounding never helps)")
    if rules.grounded_target_factor < 1:
        r.problems.append("combat.harbor.grounded_target_factor: at least 1 (a grounded ship is exposed)")
    return rules


class _Reader:
    """Reads numbers out of the nested section, collecting every problem."""

    def __init__(self, section: Mapping[str, Any]) -> None:
        self.section = section
        self.problems: list[str] = []

    def _get(self, path: tuple[str, ...]) -> Any:
        node: Any = self.section
        for key in path:
            if not isinstance(node, Mapping) or key not in node:
                self.problems.append(f"combat.{'.'.join(path)}: missing")
                return None
            node = node[key]
        return node

    def num(self, *path: str) -> float:
        value = self._get(path)
        if value is None:
            return 0.0
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problems.append(f"combat.{'.'.join(path)}: not a number")
            return 0.0
        return float(value)

    def nums(self, *path: str) -> tuple[float, ...]:
        value = self._get(path)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value
        ):
            self.problems.append(f"combat.{'.'.join(path)}: not a list of numbers")
            return ()
        return tuple(float(v) for v in value)
