"""Rule cases for rule 5.4: the intelligence phase's reports."""

from __future__ import annotations

import math

from intel_world import MAP, coastal, intel_events, sea, ship, turn_knowledge, world

from pate.core.rules.detection import Category
from pate.core.rules.gathering import INTELLIGENCE
from pate.reports import render_reports

EXACT = {"reports": {"report_percent": 100, "number_spread_percent": 0, "wrong_state_percent": 0}}
EXACT["reports"]["wrong_class_percent"] = 0


def _reports(k):
    return {(i.place, i.state, i.category): i.estimate for i in k.intelligence}


def test_rule_5_4_reports_ships_that_started_where_the_players_ships_ended() -> None:
    """5.4: "During the intelligence phase, players will receive reports of the
    presence of ships that started the turn in the same sea area or port as
    their ships ended the turn." """
    start = world([ship("FR3FL", sea("SOC", 1)), *(ship(f"BR{n}SL", sea("NOC", n)) for n in (1, 2, 3))])
    start = world([*start.ships.values(), ship("BR7FR", coastal("Dominica"))])
    end = world([ship("FR3FL", sea("NOC", 4)), *(ship(f"BR{n}SL", sea("NOC", n)) for n in (1, 2, 3))])
    k = turn_knowledge("villeneuve", start, end, intel=EXACT)
    assert _reports(k) == {("NOC", "BR", Category.LINE): 3}  # Dominica is a port of its own
    text = render_reports(k, MAP)["text"]
    assert "Reports say about 3 British ships of the line were in the Northern Caribbean" in text


def test_rule_5_4_reported_ships_may_have_sailed_away() -> None:
    """5.4: "The ships so reported may have sailed to new locations during the
    turn." """
    start = world([ship("FR3FL", sea("SOC", 1)), ship("BR2SL", coastal("Dominica"))])
    end = world([ship("FR3FL", coastal("Dominica")), ship("BR2SL", sea("BAH", 2))])
    k = turn_knowledge("villeneuve", start, end, intel=EXACT)
    assert _reports(k) == {("Dominica", "BR", Category.LINE): 1}
    assert k.ships[0].visible == ()  # gone: no contact, only the report


def test_rule_5_4_ships_that_arrived_during_the_turn_are_not_reported() -> None:
    """5.4 reports ships that *started* the turn there (and never one's own
    side: they need no spies)."""
    start = world([ship("FR3FL", sea("SOC", 1)), ship("BR2SL", sea("BAH", 1)), ship("SP4SL", sea("NOC", 2))])
    end = world([ship("FR3FL", sea("NOC", 1)), ship("BR2SL", sea("NOC", 3)), ship("SP4SL", sea("NOC", 2))])
    assert turn_knowledge("villeneuve", start, end, intel=EXACT).intelligence == ()


def test_rule_5_4_reports_may_be_inaccurate_in_identity_and_number() -> None:
    """5.4: "These reports may not be accurate, and the number of ships
    reported may not be accurate." (data/rules/intel.toml: reported 80%,
    wrong flag 10%, line taken for frigates or the reverse 15%, number
    +-50%)"""
    spain = ship("SP1SL", sea("PAN", 1))  # a third navy, whose flag a report may show by mistake
    start = world(
        [ship("FR3FL", sea("SOC", 1)), spain, *(ship(f"BR{n}SL", sea("NOC", 1)) for n in range(1, 9))]
    )
    end = world(
        [ship("FR3FL", sea("NOC", 2)), spain, *(ship(f"BR{n}SL", sea("BAH", 1)) for n in range(1, 9))]
    )
    n = 1500
    groups = reported = wrong_flag = wrong_class = 0
    numbers = set()
    for seed in range(n):
        for e in intel_events(start, end, seed=seed):
            if e.kind != INTELLIGENCE:
                continue
            reported += 1
            for g in e.data["groups"]:
                groups += 1
                wrong_flag += g["state"] != "BR"
                wrong_class += g["category"] != "line"
                numbers.add(g["estimate"])
    for count, trials, p in ((reported, n, 0.8), (wrong_flag, groups, 0.1), (wrong_class, groups, 0.15)):
        assert abs(count / trials - p) < 4 * math.sqrt(p * (1 - p) / trials), (count, trials, p)
    assert min(numbers) == 4 and max(numbers) == 12  # 8 ships, +-50%


def test_rule_5_4_a_wrong_flag_is_that_of_a_navy_in_the_world() -> None:
    """5.4: "These reports may not be accurate" (docs/rules/intel.md, item 10):
    a group reported under a wrong flag shows the flag of another state with
    ships in the world, never one of a state without any (a play-test of
    grand1805 reported Moroccan ships of the line in the Skagerrak)."""
    spain = ship("SP1SL", sea("PAN", 1))
    start = world(
        [ship("FR3FL", sea("SOC", 1)), spain, *(ship(f"BR{n}SL", sea("NOC", 1)) for n in range(1, 9))]
    )
    end = world(
        [ship("FR3FL", sea("NOC", 2)), spain, *(ship(f"BR{n}SL", sea("BAH", 1)) for n in range(1, 9))]
    )
    flags = {
        g["state"]
        for seed in range(400)
        for e in intel_events(start, end, seed=seed)
        if e.kind == INTELLIGENCE
        for g in e.data["groups"]
    }
    assert flags == {"BR", "SP"}  # the true flag, or the only other navy's
    alone = [s for s in start.ships.values() if s.id != "SP1SL"]
    flags_of_two = {
        g["state"]
        for seed in range(400)
        for e in intel_events(
            world(alone), world(s for s in end.ships.values() if s.id != "SP1SL"), seed=seed
        )
        if e.kind == INTELLIGENCE
        for g in e.data["groups"]
    }
    assert flags_of_two == {"BR"}  # two navies: no flag to mistake
