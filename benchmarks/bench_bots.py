"""The bot admirals, measured (``python -m benchmarks bots``; docs/bots.md).

Whole campaigns played headless through the engine the services use, the
bot players' orders written each turn from their own knowledge:

- **bot against default orders** (rule 4.11): one side played by the bold
  bot, the other left to its defaults, each side in turn;
- **bot against bot, by level**: cautious and bold against each other;
- **Trafalgar's historical result**: in the bot-against-bot campaigns of
  the trafalgar scenario, how often the Combined Fleet (FR, SP) escapes or
  wins;
- the time the bot takes for the orders of the British naval minister of
  grand1805 (213 ships).

A side's score: ships lost and taken (a ship lost by the other side counts
as taken, whatever sank her: storms at sea are part of the campaign), and
merchants lost and taken (rule 4.8).  Its balance weighs ships by class
(FL 1.5, SL 1, FR 0.5, TR 0.25) and a merchant 0.1; a side wins a campaign
when its balance is above the other's.

Every part is played under each chosen combat rule set (``pate``,
``eia-advanced``, ``eia-advanced-revolution``) with each chosen naval rule
set (``pate`` orders and movement, ``eia-operations``).  Options (or the
``BOTS_*`` environment variables of the same names) pick what runs, so that
the full run fits or several processes share it:
``--sections speed,default,levels``, ``--rules pate,eia-advanced``,
``--naval pate,eia-operations``, ``--scenarios training,trafalgar,grand1805``,
``--campaigns k`` (scales the campaigns of
each scenario, 20, 20 and 5, by k/20) and ``--level-runs n`` (the campaigns
of a pair of levels in a scenario; by default as many as against default
orders).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from pate.admiral.decide import decide
from pate.admiral.levels import Level
from pate.core.events import Event
from pate.core.world.state import COMBAT_RULESETS, NAVAL_RULESETS, WorldState
from pate.datafiles import load_scenario
from pate.engine.bots import load_levels, seats
from pate.engine.context import turn_context
from pate.engine.simulate import simulate

SCENARIOS = (("training", 20), ("trafalgar", 20), ("grand1805", 5))
VALUE = {"FL": 1.5, "SL": 1.0, "FR": 0.5, "TR": 0.25}
MERCHANT = 0.1
COMBINED = frozenset({"FR", "SP"})


@dataclass(frozen=True)
class Plan:
    """What one run of the bench plays (the options of the module doc)."""

    sections: frozenset[str] = frozenset({"speed", "default", "levels"})
    rules: tuple[str, ...] = COMBAT_RULESETS
    naval: tuple[str, ...] = NAVAL_RULESETS
    campaigns: int = 20  # the campaigns of a scenario scale by campaigns/20
    level_runs: int = 0  # campaigns per pair of levels and scenario; 0: as many as the scenario's
    scenarios: tuple[tuple[str, int], ...] = SCENARIOS

    def count(self, n: int) -> int:
        return max(1, n * self.campaigns // 20)

    def runs(self, n: int) -> int:
        return self.level_runs or self.count(n)


@dataclass
class Side:
    states: frozenset[str]
    ships_lost: int = 0
    ships_taken: int = 0
    trade_lost: int = 0
    trade_taken: int = 0
    balance: float = 0.0
    line_lost: int = 0
    line_start: int = 0


@dataclass
class Campaign:
    sides: list[Side] = field(default_factory=list)
    refusals: int = 0

    def side_of(self, states: frozenset[str]) -> Side:
        return next(s for s in self.sides if s.states & states)


def sides_of(world: WorldState) -> list[frozenset[str]]:
    """The alliances among the states with players: two states allied
    (directly or through a third) are one side."""
    states = sorted({p.state for p in world.players.values() if p.state})
    groups: list[set[str]] = []
    for s in states:
        joined = [g for g in groups if any(world.diplomacy.allied(s, o) for o in g)]
        merged = {s}.union(*joined)
        groups = [g for g in groups if g not in joined] + [merged]
    return sorted((frozenset(g) for g in groups), key=sorted)


def warring_sides(world: WorldState) -> list[frozenset[str]]:
    """The sides at war with another (a neutral state has no enemy to beat)."""
    sides = sides_of(world)
    return [a for a in sides if any(_at_war(world, a, b) for b in sides if b is not a)]


def _at_war(world: WorldState, a: frozenset[str], b: frozenset[str]) -> bool:
    return any(world.diplomacy.hostile(x, y) for x in a for y in b)


def score(start: WorldState, end: WorldState, events: Sequence[Event]) -> Campaign:
    out = Campaign([Side(g) for g in sides_of(start)])
    side = {st: s for s in out.sides for st in s.states}
    value_lost = {id(s): 0.0 for s in out.sides}
    for sid, ship in start.ships.items():
        own = side.get(ship.state)
        if own is None:
            continue
        if ship.type.value in ("FL", "SL"):
            own.line_start += 1
        if sid not in end.ships:
            own.ships_lost += 1
            own.line_lost += ship.type.value in ("FL", "SL")
            value_lost[id(own)] += VALUE[ship.type.value]
    for e in events:
        if e.kind == "trade_summary" and e.data["state"] in side:
            side[e.data["state"]].trade_lost += int(e.data["taken"])
            side[e.data["state"]].trade_taken += int(e.data["prizes"])
        elif e.kind == "trade_ships_taken":  # the EiA operations rules' trade ships, raided on their route
            if e.data["state"] in side:
                side[e.data["state"]].trade_lost += int(e.data["taken"])
            if e.data["by"] in side:
                side[e.data["by"]].trade_taken += int(e.data["taken"])
    for s in out.sides:
        foes = [o for o in out.sides if o is not s and _at_war(start, s.states, o.states)]
        s.ships_taken = sum(o.ships_lost for o in foes)
        taken = sum(value_lost[id(o)] for o in foes)
        s.balance = taken + MERCHANT * s.trade_taken - value_lost[id(s)] - MERCHANT * s.trade_lost
    return out


def play(
    scenario: str,
    rules: str,
    seed: int,
    bots: Mapping[str, Level],
    turns: int | None = None,
    naval: str = "pate",
) -> Campaign:
    ctx = turn_context()
    sc = load_scenario(scenario)
    world = replace(sc.world, combat_rules=rules, naval_rules=naval, seed=seed)
    players = seats(world, bots)
    events: list[Event] = []
    start = end = world
    refusals = 0
    run = simulate(
        ctx,
        world,
        campaign=f"bench-{scenario}-{seed}",
        seed=seed,
        turns=turns or world.turns,
        orders={},
        render=False,
        place=sc.placement == "random",
        strict=False,
        bots=players,
    )
    for out in run:
        if out.turn == 0:
            start = out.world
        events += out.events
        refusals += len(out.refusals)
        end = out.world
    result = score(start, end, events)
    result.refusals = refusals
    return result


def _label(rules: str, naval: str) -> str:
    return rules if naval == "pate" else f"{rules}+{naval}"


def _against_default(plan: Plan, rules: str, naval: str) -> list[tuple[str, str]]:
    levels = load_levels()
    out: list[tuple[str, str]] = []
    for scenario, n in plan.scenarios:
        world = load_scenario(scenario).world
        groups = warring_sides(world)
        wins, draws, refused, tally = 0, 0, 0, [0, 0, 0, 0]
        k = plan.count(n)
        for i in range(k):
            bot_side = groups[i % len(groups)]
            c = play(scenario, rules, 1000 + i, dict.fromkeys(bot_side, levels["bold"]), naval=naval)
            mine = c.side_of(bot_side)
            best_other = max(s.balance for s in c.sides if s is not mine)
            print(
                f"  {_label(rules, naval)} {scenario} {i}: bot {'+'.join(sorted(bot_side))} balance"
                f" {mine.balance:+.1f} {best_other:+.1f} refusals {c.refusals} {_tally(mine)}",
                file=sys.stderr,
                flush=True,
            )
            wins += mine.balance > best_other
            draws += mine.balance == best_other
            refused += c.refusals
            tally = [a + b for a, b in zip(tally, _tally(mine), strict=True)]
        out.append(
            (
                f"{_label(rules, naval)} {scenario}: bold bot vs default orders, bot side wins",
                f"{wins}/{k} ({100 * wins // k}%), {draws} drawn; per campaign: {_tally_text(tally, k)}; "
                f"refusals {refused}",
            )
        )
    return out


def _tally(s: Side) -> list[int]:
    return [s.ships_lost, s.ships_taken, s.trade_lost, s.trade_taken]


def _tally_text(t: Sequence[int], k: int) -> str:
    return f"ships lost {t[0] / k:.1f}, taken {t[1] / k:.1f}; trade lost {t[2] / k:.1f}, taken {t[3] / k:.1f}"


def _by_level(plan: Plan, rules: str, naval: str) -> list[tuple[str, str]]:
    levels = load_levels()
    pairs = [("bold", "bold"), ("cautious", "cautious"), ("bold", "cautious"), ("cautious", "bold")]
    out: list[tuple[str, str]] = []
    for scenario, n in plan.scenarios:
        world = load_scenario(scenario).world
        a, b = warring_sides(world)[0], warring_sides(world)[1:]
        rest = frozenset().union(*b)
        runs = plan.runs(n)
        name = _label(rules, naval)
        for first, second in pairs:
            wins = [0, 0]
            escaped = 0
            tally = [[0, 0, 0, 0], [0, 0, 0, 0]]
            refused = 0
            for i in range(runs):
                bots = {**dict.fromkeys(a, levels[first]), **dict.fromkeys(rest, levels[second])}
                c = play(scenario, rules, 2000 + i, bots, naval=naval)
                sa, sb = c.side_of(a), c.side_of(rest)
                wins[0] += sa.balance > sb.balance
                wins[1] += sb.balance > sa.balance
                refused += c.refusals
                for j, s in enumerate((sa, sb)):
                    tally[j] = [x + y for x, y in zip(tally[j], _tally(s), strict=True)]
                got = scenario == "trafalgar" and _escaped(c, sa, sb)
                escaped += got
                # one line a campaign, so that a run cut short can still be counted
                print(
                    f"  {name} {scenario} {first}-{second} {i}: balance {sa.balance:+.1f} {sb.balance:+.1f}"
                    f" refusals {c.refusals} escaped {int(got)} {_tally(sa)}",
                    file=sys.stderr,
                    flush=True,
                )
            label = f"{name} {scenario}: {'+'.join(sorted(a))} {first} vs {'+'.join(sorted(rest))} {second}"
            figure = f"wins {wins[0]}-{wins[1]} of {runs}; refusals {refused}; {'+'.join(sorted(a))}: "
            figure += _tally_text(tally[0], runs)
            out.append((label, figure))
            if scenario == "trafalgar":
                out.append(
                    (
                        f"{name} trafalgar ({first} vs {second}): Combined Fleet escapes or wins",
                        f"{escaped}/{runs}",
                    )
                )
    return out


def _escaped(c: Campaign, sa: Side, sb: Side) -> bool:
    """Trafalgar's historical result: the Combined Fleet escapes (loses under a
    quarter of its ships of the line) or wins."""
    combined = c.side_of(COMBINED)
    other = sa if combined is sb else sb
    return combined.balance >= other.balance or combined.line_lost * 4 < combined.line_start


def _speed() -> list[tuple[str, str]]:
    """Every British player's orders in grand1805 (the whole state: 213
    ships), each from his own report of the start."""
    ctx = turn_context()
    sc = load_scenario("grand1805")
    level = load_levels()["bold"]
    british = sorted(pid for pid, p in sc.world.players.items() if p.state == "BR")
    run = simulate(
        ctx,
        sc.world,
        campaign="speed",
        seed=1,
        turns=1,
        orders={},
        render=False,
        place=sc.placement == "random",
        bots=dict.fromkeys(british, level),
    )
    first = next(iter(run))
    world = first.world
    reports = {pid: json.loads(first.knowledge[pid]) for pid in british}
    ships = sum(1 for s in world.ships.values() if s.state == "BR")
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        orders = sum(
            len(decide(reports[pid], ctx.map, ctx.rules, level, world.seed, world.kind).orders)
            for pid in british
        )
        times.append(time.perf_counter() - t0)
    return [
        (
            f"grand1805: all British orders ({len(british)} players, {ships} ships, {orders} orders)",
            f"{min(times) * 1000:.0f} ms best of 5, {max(times) * 1000:.0f} ms worst",
        )
    ]


def parse(opts: Sequence[str] = ()) -> Plan:
    """The plan from the options, each defaulting to its ``BOTS_*`` variable."""
    env = os.environ.get
    ap = argparse.ArgumentParser(prog="python -m benchmarks bots")
    ap.add_argument("--sections", default=env("BOTS_SECTIONS") or "speed,default,levels")
    ap.add_argument("--rules", default=env("BOTS_RULES") or ",".join(COMBAT_RULESETS))
    ap.add_argument("--naval", default=env("BOTS_NAVAL") or ",".join(NAVAL_RULESETS))
    ap.add_argument("--campaigns", type=int, default=int(env("BOTS_CAMPAIGNS") or "20"))
    ap.add_argument("--scenarios", default=env("BOTS_SCENARIOS") or ",".join(n for n, _ in SCENARIOS))
    ap.add_argument("--level-runs", type=int, default=int(env("BOTS_LEVEL_RUNS") or "0"))
    a = ap.parse_args(list(opts))
    rules = tuple(r for r in COMBAT_RULESETS if r in a.rules.split(","))
    naval = tuple(r for r in NAVAL_RULESETS if r in a.naval.split(","))
    if not rules or not naval or a.campaigns < 1 or a.level_runs < 0:
        ap.error("--rules and --naval need a known rule set; --campaigns at least 1, --level-runs 0 or more")
    sections = frozenset(a.sections.split(","))
    scenarios = tuple(sc for sc in SCENARIOS if sc[0] in a.scenarios.split(","))
    return Plan(sections, rules, naval, a.campaigns, a.level_runs, scenarios)


def run(opts: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Every part the options pick, under every pair of rule sets chosen."""
    plan = parse(opts)
    out = _speed() if "speed" in plan.sections else []
    configs = [(r, n) for n in plan.naval for r in plan.rules]
    for rules, naval in configs:
        out += _against_default(plan, rules, naval) if "default" in plan.sections else []
    for rules, naval in configs:
        out += _by_level(plan, rules, naval) if "levels" in plan.sections else []
    return out
