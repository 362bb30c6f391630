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
when its balance is above the other's.  ``BOTS_CAMPAIGNS=k`` scales the
numbers of campaigns (20, 20, 5) by k/20 for a quick look.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from pate.admiral.decide import decide
from pate.admiral.levels import Level
from pate.core.events import Event
from pate.core.world.state import COMBAT_RULESETS, WorldState
from pate.datafiles import load_scenario
from pate.engine.bots import load_levels, seats
from pate.engine.context import turn_context
from pate.engine.simulate import simulate

SCENARIOS = (("training", 20), ("trafalgar", 20), ("grand1805", 5))
VALUE = {"FL": 1.5, "SL": 1.0, "FR": 0.5, "TR": 0.25}
MERCHANT = 0.1
COMBINED = frozenset({"FR", "SP"})
LEVEL_RUNS = int(os.environ.get("BOTS_LEVEL_RUNS", "3"))  # campaigns per pair of levels and scenario


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
    for s in out.sides:
        foes = [o for o in out.sides if o is not s and _at_war(start, s.states, o.states)]
        s.ships_taken = sum(o.ships_lost for o in foes)
        taken = sum(value_lost[id(o)] for o in foes)
        s.balance = taken + MERCHANT * s.trade_taken - value_lost[id(s)] - MERCHANT * s.trade_lost
    return out


def play(
    scenario: str, rules: str, seed: int, bots: Mapping[str, Level], turns: int | None = None
) -> Campaign:
    ctx = turn_context()
    sc = load_scenario(scenario)
    world = replace(sc.world, combat_rules=rules, seed=seed)
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


def _count(n: int) -> int:
    k = os.environ.get("BOTS_CAMPAIGNS")
    return max(1, n * int(k) // 20) if k and k.isdigit() and int(k) > 0 else n


def _against_default(rules: str) -> list[tuple[str, str]]:
    levels = load_levels()
    out: list[tuple[str, str]] = []
    for scenario, n in SCENARIOS:
        world = load_scenario(scenario).world
        groups = warring_sides(world)
        wins, draws, refused, tally = 0, 0, 0, [0, 0, 0, 0]
        for i in range(_count(n)):
            bot_side = groups[i % len(groups)]
            c = play(scenario, rules, 1000 + i, dict.fromkeys(bot_side, levels["bold"]))
            print(
                f"  {rules} {scenario} {i}: bot {sorted(bot_side)} {_tally(c.side_of(bot_side))}",
                file=sys.stderr,
                flush=True,
            )
            mine = c.side_of(bot_side)
            best_other = max(s.balance for s in c.sides if s is not mine)
            wins += mine.balance > best_other
            draws += mine.balance == best_other
            refused += c.refusals
            tally = [a + b for a, b in zip(tally, _tally(mine), strict=True)]
        k = _count(n)
        out.append(
            (
                f"{rules} {scenario}: bold bot vs default orders, bot side wins",
                f"{wins}/{k} ({100 * wins // k}%), {draws} drawn; per campaign: {_tally_text(tally, k)}; "
                f"refusals {refused}",
            )
        )
    return out


def _tally(s: Side) -> list[int]:
    return [s.ships_lost, s.ships_taken, s.trade_lost, s.trade_taken]


def _tally_text(t: Sequence[int], k: int) -> str:
    return f"ships lost {t[0] / k:.1f}, taken {t[1] / k:.1f}; trade lost {t[2] / k:.1f}, taken {t[3] / k:.1f}"


def _by_level(rules: str) -> list[tuple[str, str]]:
    levels = load_levels()
    pairs = [("bold", "bold"), ("cautious", "cautious"), ("bold", "cautious"), ("cautious", "bold")]
    out: list[tuple[str, str]] = []
    for scenario, n in SCENARIOS:
        world = load_scenario(scenario).world
        a, b = warring_sides(world)[0], warring_sides(world)[1:]
        rest = frozenset().union(*b)
        k = _count(n)
        for first, second in pairs:
            runs = max(1, min(LEVEL_RUNS, k // len(pairs)))
            wins = [0, 0]
            escaped = 0
            tally = [[0, 0, 0, 0], [0, 0, 0, 0]]
            refused = 0
            for i in range(runs):
                bots = {**dict.fromkeys(a, levels[first]), **dict.fromkeys(rest, levels[second])}
                c = play(scenario, rules, 2000 + i, bots)
                print(f"  {rules} {scenario} {first}-{second} {i}", file=sys.stderr, flush=True)
                sa, sb = c.side_of(a), c.side_of(rest)
                wins[0] += sa.balance > sb.balance
                wins[1] += sb.balance > sa.balance
                refused += c.refusals
                for j, s in enumerate((sa, sb)):
                    tally[j] = [x + y for x, y in zip(tally[j], _tally(s), strict=True)]
                if scenario == "trafalgar":
                    combined = c.side_of(COMBINED)
                    other = sa if combined is sb else sb
                    escaped += (
                        combined.balance >= other.balance or combined.line_lost * 4 < combined.line_start
                    )
            label = f"{rules} {scenario}: {'+'.join(sorted(a))} {first} vs {'+'.join(sorted(rest))} {second}"
            figure = f"wins {wins[0]}-{wins[1]} of {runs}; refusals {refused}; {'+'.join(sorted(a))}: "
            figure += _tally_text(tally[0], runs)
            out.append((label, figure))
            if scenario == "trafalgar":
                out.append(
                    (
                        f"{rules} trafalgar ({first} vs {second}): Combined Fleet escapes or wins",
                        f"{escaped}/{runs}",
                    )
                )
    return out


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


def run() -> list[tuple[str, str]]:
    """``BOTS_SECTIONS`` (speed, default, levels; all by default) picks the
    parts, so that two processes can share the run."""
    chosen = set((os.environ.get("BOTS_SECTIONS") or "speed,default,levels").split(","))
    rulesets = [r for r in COMBAT_RULESETS if r in (os.environ.get("BOTS_RULES") or r).split(",")]
    out = _speed() if "speed" in chosen else []
    for rules in rulesets:
        out += _against_default(rules) if "default" in chosen else []
    for rules in rulesets:
        out += _by_level(rules) if "levels" in chosen else []
    return out
