"""The contract's data (proto/gitm/v1/contract.toml): cities, state codes, digest, limits."""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

CONTRACT_FILE = Path(__file__).resolve().parents[2] / "proto" / "gitm" / "v1" / "contract.toml"

EDITION = 4
IMPLEMENTATION = "gitm-land4 4.0"
DOMAIN = "gitm.pate"
HOLD_SECONDS = 600


@dataclass(frozen=True)
class Contract:
    cities: frozenset[str]
    states: frozenset[str]
    digest: str
    calls: tuple[str, ...]
    hold_seconds: int
    reasons: dict[str, str]


def load(path: Path = CONTRACT_FILE) -> Contract:
    """Reads the file and checks that its digest is the one its own data give.

    The digest is recomputed so that a hand-edited file never answers a digest that
    does not describe the cities this service actually knows (L33, A9).
    """
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    cities = list(data["cities"]["names"])
    states = sorted(data["states"])
    computed = hashlib.sha256(json.dumps([cities, states], separators=(",", ":")).encode("utf-8")).hexdigest()
    stated = data["data"]["digest"]
    if computed != stated:
        raise ValueError(f"{path.name}: [data] digest does not match its cities and states")
    errors = data["errors"]
    reasons = {k: v for k, v in errors.items() if k.isupper() and isinstance(v, str)}
    return Contract(
        cities=frozenset(cities),
        states=frozenset(states),
        digest=stated,
        calls=tuple(data["editions"][f"edition_{EDITION}"]),
        hold_seconds=int(data["holds"]["hold_seconds"]),
        reasons=reasons,
    )
