"""Storms: the lost section 8, rebuilt within rules 1.4, 3.8 and 6.5.

What survives: storms may appear after the first move of the movement phase
(3.8, 6.5 step four) and are likelier the heavier the winds (1.4).  What was
decided (docs/rules/movement.md, "Storms"), every number in
``data/rules/storms.toml``:

- each sea area rolls for a storm at step four, by the strength of its wind
  after the shift; the storm strikes every ship at sea there and every ship in
  the coastal waters of the ports connected to it; harbors are sheltered;
- each ship struck rolls for rigging and hull damage, worse for ships already
  damaged, for transport groups, in heavy winds and on a lee shore; only a
  ship already badly hurt can founder on the worst results (the
  period's ships rode out gales damaged, and foundered when already
  crippled), and hull damage 5 sinks it (rule 2.2);
- at sea a ship may be scattered to another tactical area; in coastal waters
  it may be blown out to sea, or, with the wind onshore, driven into a
  friendly harbor or ashore under a hostile one: wrecked, stranded (damaged,
  her movement over for the turn) or towed off (damaged);
- a ship starting its second move in a storm has a lower chance to sail.

This module decides what happens to one ship; the movement phase moves them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.rng import Rng
from pate.core.ruledata import RuleData
from pate.core.world.geography import WindStrength
from pate.core.world.ships import Ship, ShipType
from pate.core.world.state import Wind

MAX_DAMAGE = 5  # rule 2.2: hull and rigging damage run 0..5; hull 5 sinks


@dataclass(frozen=True, slots=True)
class Band:
    below: int
    rigging: int
    hull: int


@dataclass(frozen=True, slots=True)
class AshoreOutcome:
    """What becomes of a ship driven ashore, for a roll below ``below``."""

    below: int
    kind: str  # "wrecked", "stranded" or "refloated"
    hull: int  # further hull damage
    rigging: int
    crew_pct: int  # crew lost (drowned, or taken ashore under a hostile port)


@dataclass(frozen=True, slots=True)
class StormRules:
    chance: dict[WindStrength, int]
    per_damage_point: int
    transport: int
    heavy_wind: int
    onshore: int
    bands: tuple[Band, ...]
    founder_roll: int
    founder_min_damage: int
    scatter_at_sea: int
    blown_out: int
    driven: int
    ashore: tuple[AshoreOutcome, ...]
    second_move_penalty: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> StormRules:
        chance = d.get("chance", {})
        dmg = d.get("damage", {})
        scatter = d.get("scatter", {})
        raw_bands = dmg.get("bands") or [
            {"below": 30, "rigging": 0, "hull": 0},
            {"below": 60, "rigging": 1, "hull": 0},
            {"below": 85, "rigging": 2, "hull": 0},
            {"below": 95, "rigging": 2, "hull": 1},
        ]
        raw_ashore = scatter.get("ashore") or [
            {"below": 15, "kind": "wrecked", "hull": 0, "rigging": 0, "crew_pct": 30},
            {"below": 70, "kind": "stranded", "hull": 1, "rigging": 2, "crew_pct": 5},
            {"below": 100, "kind": "refloated", "hull": 1, "rigging": 1, "crew_pct": 0},
        ]
        return cls(
            chance={
                WindStrength.LIGHT: int(chance.get("light", 2)),
                WindStrength.MODERATE: int(chance.get("moderate", 8)),
                WindStrength.HEAVY: int(chance.get("heavy", 25)),
            },
            per_damage_point=int(dmg.get("per_damage_point", 5)),
            transport=int(dmg.get("transport", 15)),
            heavy_wind=int(dmg.get("heavy_wind", 10)),
            onshore=int(dmg.get("onshore", 10)),
            bands=tuple(
                Band(int(b["below"]), int(b.get("rigging", 0)), int(b.get("hull", 0)))
                for b in sorted(raw_bands, key=lambda b: int(b["below"]))
            ),
            founder_roll=int(dmg.get("founder_roll", 120)),
            founder_min_damage=int(dmg.get("founder_min_damage", 3)),
            scatter_at_sea=int(scatter.get("at_sea_percent", 50)),
            blown_out=int(scatter.get("blown_out_percent", 40)),
            driven=int(scatter.get("driven_percent", 20)),
            ashore=tuple(
                AshoreOutcome(
                    int(a["below"]),
                    str(a["kind"]),
                    int(a.get("hull", 0)),
                    int(a.get("rigging", 0)),
                    int(a.get("crew_pct", 0)),
                )
                for a in sorted(raw_ashore, key=lambda a: int(a["below"]))
            ),
            second_move_penalty=int(d.get("sailing", {}).get("second_move_penalty", 50)),
        )

    @classmethod
    def of(cls, rules: RuleData) -> StormRules:
        return cls.from_section(rules.section("storms"))


def storm_chance(wind: Wind, params: StormRules) -> int:
    """Rule 1.4: the heavier the wind, the likelier the storm."""
    return params.chance[wind.strength]


def strikes(wind: Wind, params: StormRules, rng: Rng) -> bool:
    """Whether a sea area has a storm this turn (one roll per sea area)."""
    return rng.below(100) < storm_chance(wind, params)


@dataclass(frozen=True, slots=True)
class Blow:
    """What a storm did to one ship."""

    roll: int  # the modified roll
    rigging: int  # points added
    hull: int
    foundered: bool


def danger(ship: Ship, wind: Wind, lee_shore: bool, params: StormRules) -> int:
    """The modifier to a ship's storm roll: damaged ships and transports are
    in more danger, and so is every ship in heavy winds or on a lee shore."""
    extra = params.per_damage_point * (ship.hull + ship.rigging)
    if ship.type is ShipType.TR:
        extra += params.transport
    if wind.strength is WindStrength.HEAVY:
        extra += params.heavy_wind
    if lee_shore:
        extra += params.onshore
    return extra


def blow(ship: Ship, wind: Wind, lee_shore: bool, params: StormRules, rng: Rng) -> Blow:
    """The storm's work on one ship.  A ship founders only on a roll of at
    least ``founder_roll`` and only if she already had ``founder_min_damage``
    points of hull and rigging damage: a sound ship rides out the worst gale
    with the last band's damage (hull damage 5 still sinks her, rule 2.2)."""
    roll = rng.below(100) + danger(ship, wind, lee_shore, params)
    if roll >= params.founder_roll and ship.hull + ship.rigging >= params.founder_min_damage:
        return Blow(roll, 0, 0, foundered=True)
    for band in params.bands:
        if roll < band.below:
            return Blow(roll, band.rigging, band.hull, foundered=False)
    last = params.bands[-1]
    return Blow(roll, last.rigging + 1, last.hull, foundered=False)


def ashore(params: StormRules, rng: Rng) -> AshoreOutcome:
    """Driven ashore under a hostile port: wrecked, stranded or towed off."""
    roll = rng.below(100)
    for outcome in params.ashore:
        if roll < outcome.below:
            return outcome
    return params.ashore[-1]


def damage(ship: Ship, rigging: int, hull: int) -> tuple[Ship, bool]:
    """The ship after the damage, and whether it sank (hull 5, rule 2.2)."""
    new_hull = min(MAX_DAMAGE, ship.hull + hull)
    new_rigging = min(MAX_DAMAGE, ship.rigging + rigging)
    return replace(ship, hull=new_hull, rigging=new_rigging), new_hull >= MAX_DAMAGE
