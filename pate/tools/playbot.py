"""A player bot for headless play-tests: next turn's orders from one player's report.

The project's rule: "Play whole campaigns headless now and then and read the
reports as a player would: that finds what single cases miss."  This bot plays
every player of a campaign through ``pate campaign simulate``, one turn at a
time, so that fleets actually do things: squadrons hunt what their ships have
seen or blockade an enemy port, weaker ones evade, frigates scout, raid
commerce and cross the Atlantic (rule 6.11), transport groups load the land
units they see and land them in another friendly port (4.9).

Each player's orders come only from that player's own report JSON (what the
player knows, docs/formats/reports.md) and the public map: never from the
world state.  Choices are drawn from a random stream seeded by (seed, turn,
ship), so the same reports give the same orders.

    python -m pate.tools.playbot play --scenario trafalgar --turns 15 --seed 3 \\
        --combat-rules eia-advanced --out /tmp/play
    python -m pate.tools.playbot orders OUT/turn-4/reports --turn 5 > turn-05.txt
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pate.core.world.geography import WorldMap
from pate.datafiles import load_world_map

Report = Mapping[str, Any]

FULL_STORES = 24  # what the bot keeps aboard in port (rule 3.4: the standard load)
LOW_STORES = 12  # below this a squadron at sea goes home to take stores
CROSSING_CHANCE = 0.3  # a frigate on the Atlantic edge crosses (rule 6.11)
RAID_CHANCE = 0.5  # a frigate raids commerce rather than only scouting (4.8)
BLOCKADE_CHANCE = 0.5  # a squadron with nothing to hunt blockades an enemy port


def stream(seed: int, turn: int, ship: str) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{turn}:{ship}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def area_of(ship: Mapping[str, Any], world_map: WorldMap) -> str | None:
    loc = ship["location"]
    if loc["kind"] == "AtSea":
        return str(loc["area"])
    if loc["kind"] == "InPort":
        return world_map.ports[loc["port"]].sea_area
    return None  # crossing the Atlantic: no orders to give (6.11)


def path_to(world_map: WorldMap, start: str, goals: set[str]) -> list[str]:
    """The sea areas after ``start`` on a shortest way to one of ``goals`` (same map)."""
    seen = {start: ""}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in goals:
            way = [here]
            while seen[way[-1]] != start and seen[way[-1]]:
                way.append(seen[way[-1]])
            return list(reversed(way)) if here != start else []
        for nxt in sorted(world_map.sea_areas[here].adjacent):
            if nxt not in seen and world_map.sea_areas[nxt].map == world_map.sea_areas[start].map:
                seen[nxt] = here
                queue.append(nxt)
    return []


class Bot:
    """The orders of one player, from that player's report alone."""

    def __init__(self, report: Report, world_map: WorldMap, seed: int) -> None:
        self.report = report
        self.map = world_map
        self.seed = seed
        self.turn = int(report["next_turn"])
        self.enemies = set(report["enemies"])
        self.friendly_ports = {p["name"] for p in report["ports"]}

    def my_leads(self) -> list[Mapping[str, Any]]:
        """Ships this player gives orders to: active leads and single ships."""
        return [s for s in self.report["ships"] if s["active"] and s["attached_to"] is None]

    def enemy_areas(self) -> set[str]:
        areas = {s["sea_area"] for s in self.report["sightings"] if s["state"] in self.enemies}
        for ship in self.report["ships"]:
            if any(v["side"] == "enemy" for v in ship["visible"]):
                here = area_of(ship, self.map)
                if here:
                    areas.add(here)
        return areas

    def enemy_ports(self) -> list[str]:
        return sorted(p.name for p in self.map.ports.values() if p.controller in self.enemies)

    def orders(self) -> list[str]:
        blocks: list[str] = []
        for ship in self.my_leads():
            lines = [
                line for line in self.ship_orders(ship, stream(self.seed, self.turn, ship["id"])) if line
            ]
            if lines:
                blocks.append("\n".join([f"order {ship['id']}", *(f"  {line}" for line in lines)]))
        return blocks

    def ship_orders(self, ship: Mapping[str, Any], rng: random.Random) -> list[str]:
        here = area_of(ship, self.map)
        if here is None:
            return []
        lines: list[str] = []
        in_port = ship["location"]["kind"] == "InPort"
        if in_port and ship["stores"] < FULL_STORES:
            lines.append(f"stores {FULL_STORES}")
        kind = ship["type"]
        if kind == "TR":
            return lines + self.transport(ship, here, in_port, rng)
        if kind == "FR":
            return lines + self.frigate(ship, here, rng)
        return lines + self.squadron(ship, here, in_port, rng)

    def move(self, ship: Mapping[str, Any], way: list[str], port: str | None = None, where: str = "") -> str:
        """A move line along ``way`` (the sea areas after the ship's own): a
        ship in port first sails to its port's sea area (rule 6.4); at most
        two sea areas (4.5); a port is entered last, and only from a sea area
        it lies on, never straight from another port (6.5)."""
        loc = ship["location"]
        if loc["kind"] == "InPort":
            way = [self.map.ports[loc["port"]].sea_area, *way]
        way = way[:2]
        words = list(way)
        if port is not None and port in self.map.ports:
            reach = self.map.ports[port].reachable_sea_areas
            last = way[-1] if way else (None if loc["kind"] == "InPort" else loc["area"])
            if last in reach:
                words += ["port", port, where] if where else ["port", port]
        return "move " + " ".join(words) if words else ""

    def wander(self, here: str, rng: random.Random, steps: int = 2) -> list[str]:
        way: list[str] = []
        for _ in range(steps):
            choices = sorted(
                a
                for a in self.map.sea_areas[way[-1] if way else here].adjacent
                if self.map.sea_areas[a].map == self.map.sea_areas[here].map
            )
            if not choices:
                break
            way.append(rng.choice(choices))
        return way

    def frigate(self, ship: Mapping[str, Any], here: str, rng: random.Random) -> list[str]:
        area = self.map.sea_areas[here]
        if area.atlantic_edge and ship["location"]["kind"] == "AtSea" and rng.random() < CROSSING_CHANCE:
            far = sorted(a.code for a in self.map.sea_areas.values() if a.map != area.map and a.atlantic_edge)
            move = self.move(ship, [rng.choice(far)] if far else self.wander(here, rng))
        else:
            move = self.move(ship, self.wander(here, rng))
        if rng.random() < RAID_CHANCE:
            return [move, "contact pursue max 2", "combat engage aim rigging", "commerce raid"]
        return [move, "contact evade separate", "combat evade flee sea"]

    def squadron(self, ship: Mapping[str, Any], here: str, in_port: bool, rng: random.Random) -> list[str]:
        strength = 1 + len(ship["attached"])
        seen = [
            s
            for s in self.report["sightings"]
            if s["state"] in self.enemies and s["sea_area"] == here and s["category"] == "line"
        ]
        if sum(int(s["estimate"]) for s in seen) > 2 * strength:
            return ["contact evade", "combat evade flee harbor"]  # outnumbered: stay clear (4.6)
        hunt = ["contact pursue max 30", "combat engage close aim hull"]
        if not in_port and ship["stores"] < LOW_STORES and ship["base"]:
            return [self.to_port(ship, here, ship["base"], "harbor"), *hunt]
        targets = self.enemy_areas() - {here}
        if targets and rng.random() >= BLOCKADE_CHANCE:
            way = path_to(self.map, here, targets)
            if way:
                return [self.move(ship, way), *hunt]
        ports = [p for p in self.enemy_ports() if self.map.ports[p].sea_area != here]
        if ports:
            return [self.to_port(ship, here, rng.choice(ports), "coastal"), *hunt]  # blockade (6.5)
        return [self.move(ship, self.wander(here, rng)), *hunt]

    def to_port(self, ship: Mapping[str, Any], here: str, port: str, where: str) -> str:
        if port not in self.map.ports:
            return ""
        way = path_to(self.map, here, set(self.map.ports[port].reachable_sea_areas))
        return self.move(ship, way, port, where)

    def transport(self, ship: Mapping[str, Any], here: str, in_port: bool, rng: random.Random) -> list[str]:
        """A shuttle (4.9): load the land units seen in the home port, carry
        them to a friendly port a sea area away, land them, sail home."""
        loc = ship["location"]
        aboard = list(ship["carrying"])
        home = in_port and loc["port"] == ship["base"]
        lines = ["contact evade separate", "combat evade flee harbor"]
        if home and not aboard:
            units = sorted(ship["land_units"])
            return [f"load units {units[0]}", *lines] if units and loc["harbor"] else lines
        if in_port and aboard and not home:
            return [f"unload units {' '.join(aboard)}", *lines]
        if not aboard:
            return [self.to_port(ship, here, ship["base"], "harbor"), *lines]
        ports = sorted(
            p
            for p in self.friendly_ports
            if p in self.map.ports and p != ship["base"] and p != loc.get("port")
        )
        near = [
            p for p in ports if len(path_to(self.map, here, set(self.map.ports[p].reachable_sea_areas))) <= 1
        ]
        if not near:
            return [self.move(ship, self.wander(here, rng, 1)), *lines]
        return [self.to_port(ship, here, rng.choice(near), "harbor"), *lines]


def orders_text(reports: Iterable[Report], world_map: WorldMap, seed: int) -> str:
    """Every player's orders, one block a ship: players who command ships
    first, then naval ministers for the ships left (rule 4.1: the minister's
    order would replace the commander's, so he orders only the rest)."""
    ordered: set[str] = set()
    out: list[str] = []
    for report in sorted(reports, key=lambda r: (bool(r["naval_minister"]), r["player"])):
        if not report.get("state"):
            continue  # the administrator's report
        bot = Bot(report, world_map, seed)
        blocks = [b for b in bot.orders() if b.split("\n", 1)[0].split()[1] not in ordered]
        ordered.update(b.split("\n", 1)[0].split()[1] for b in blocks)
        if blocks:
            out.append(f"# {report['player_name']} ({report['player']})")
            out.extend(blocks)
    return "\n\n".join(out) + "\n"


def read_reports(directory: Path) -> list[Report]:
    return [json.loads(p.read_text()) for p in sorted(directory.glob("*.json"))]


def play(
    scenario: str, turns: int, seed: int, out: Path, combat_rules: str | None, compact: bool = False
) -> int:
    """The whole campaign through ``pate campaign simulate``, one turn at a
    time: turn N's orders are written from the reports of turn N-1."""
    from pate.cli.main import main as pate

    orders = out / "orders"
    orders.mkdir(parents=True, exist_ok=True)
    for stale in orders.glob("turn-*.txt"):  # a run before this one into the same folder
        stale.unlink()
    world_map = load_world_map()
    common = ["--compact"] if compact else []
    first = ["campaign", "simulate", "--scenario", scenario, "--seed", str(seed), "--turns", str(turns)]
    first += ["--out", str(out)]
    if combat_rules:
        first += ["--combat-rules", combat_rules]
    # The start (turn 0) depends on no orders, but the command sets the
    # campaign's length only when it starts one: start it once without
    # orders, then play each turn again from the saved state before it.
    if rc := pate([*first, *common]):
        return rc
    for turn in range(1, turns + 1):
        text = orders_text(read_reports(out / f"turn-{turn - 1}" / "reports"), world_map, seed)
        (orders / f"turn-{turn:02d}.txt").write_text(text)
        args = ["campaign", "simulate", "--from", str(out / f"turn-{turn - 1}"), "--turns", "1"]
        if rc := pate([*args, "--orders", str(orders), *common]):
            return rc
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pate.tools.playbot", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play a whole campaign headless")
    p.add_argument("--scenario", required=True)
    p.add_argument("--turns", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--combat-rules", default=None)
    p.add_argument("--compact", action="store_true")
    p.add_argument("--out", type=Path, required=True)
    o = sub.add_parser("orders", help="one turn's orders from a folder of reports")
    o.add_argument("reports", type=Path)
    o.add_argument("--seed", type=int, required=True)
    args = parser.parse_args(argv)
    if args.command == "play":
        return play(args.scenario, args.turns, args.seed, args.out, args.combat_rules, args.compact)
    sys.stdout.write(orders_text(read_reports(args.reports), load_world_map(), args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
