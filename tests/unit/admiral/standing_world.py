"""Cornwallis's report of the training scenario's start (his Channel squadron in ECH: BR1FL
leading BR1SL and BR2SL, and the frigate BR1FR) with the French out of sight, and what the
bot orders for him with standing instructions; the enemy is added to the report as his
frigates would sight it."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from pate.admiral.decide import decide
from pate.admiral.standing import read_standing
from pate.core.orders.model import ShipOrder
from pate.core.world.state import TurnKind
from pate.engine.bots import load_levels
from pate.engine.context import turn_context
from tests.unit.admiral.test_admiral_campaigns import run

CTX = turn_context()
LEVEL = load_levels()["bold"]


@cache
def _start() -> str:
    return run("training", "pate", "all", 1)[0].knowledge["cornwallis"]


def report() -> dict[str, Any]:
    """His report with the French squadron he is in contact with taken out: a quiet Channel."""
    r = copy.deepcopy(json.loads(_start()))
    for s in r["ships"]:
        s["visible"] = [v for v in s["visible"] if v["side"] != "enemy"]
    return r


def sighted(r: dict[str, Any], area: str, line: int, port: str | None = None) -> dict[str, Any]:
    """``line`` French ships of the line sighted in ``area`` (in ``port`` when given)."""
    r["sightings"].append(
        {
            "by": "BR1FR",
            "category": "line",
            "estimate": line,
            "place": "coastal" if port else "sea",
            "port": port,
            "sea_area": area,
            "state": "FR",
            "tactical": None,
        }
    )
    return r


def orders(r: dict[str, Any], text: str = "", kind: TurnKind = TurnKind.CAMPAIGN) -> dict[str, ShipOrder]:
    mine = {s["id"] for s in r["ships"]}
    standing = read_standing(text, mine, CTX.map, {"BR"}) if text else ()
    d = decide(r, CTX.map, CTX.rules, LEVEL, 7, kind, standing=standing)
    return {o.ship_id: o for o in d.orders}
