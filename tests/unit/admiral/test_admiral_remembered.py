"""The bot admiral reads the player's picture (docs/rules/intel.md, "The
picture") with the ages the player's map shows: an enemy seen earlier and not
since is remembered where it was seen, worth half as much for every turn of
its age, and a report kept before the picture has none."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from pate.admiral.plan import Plan
from pate.admiral.view import read_view
from pate.core.codec import to_plain
from pate.core.intel.knowledge import knowledge_for

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "cases" / "intel"))
from intel_world import MAP, intel_events, rules, sea, ship, world

RULES = rules()


def _turn(ships, previous=(), *, turn=3):
    start = world(ships, turn=turn)
    end = replace(start, turn=turn + 1)
    return knowledge_for(
        "villeneuve", start, end, intel_events(start, start, seed=3), MAP, RULES, previous=previous
    )


SEEN = [ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1))]
LEFT = [ship("FR3FL", sea("SOC", 3)), ship("BR2FL", sea("WCA", 2))]


def test_an_enemy_seen_two_turns_ago_is_remembered_with_its_age() -> None:
    k = _turn(SEEN)
    k = _turn(LEFT, k.picture, turn=4)
    k = _turn(LEFT, k.picture, turn=5)
    view = read_view(to_plain(k), MAP)
    assert view.enemy_weight.get("NOC", 0.0) == 0.0  # nothing of it seen this turn
    assert view.remembered == {"NOC": (1.3, 2)}  # a flagship (WEIGHT), two turns old
    plan = Plan(view, chart=None, level=None, seed=1)  # type: ignore[arg-type]
    assert plan.danger("NOC") == 1.3 * 0.25


def test_a_report_without_a_picture_remembers_nothing() -> None:
    report = to_plain(_turn(LEFT))
    del report["picture"]
    assert read_view(report, MAP).remembered == {}
