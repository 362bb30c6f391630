"""The contract data this service loaded: proto/gitm/v1/contract.toml (cities, states, digest)."""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

_FILE = Path(__file__).resolve().parents[2] / "proto" / "gitm" / "v1" / "contract.toml"


@dataclass(frozen=True)
class ContractData:
    cities: frozenset[str]
    states: frozenset[str]
    digest: str
    hold_seconds: int


def load(path: Path = _FILE) -> ContractData:
    """Reads the file and checks its digest against the cities and codes it lists."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    cities = list(data["cities"]["names"])
    codes = sorted(data["states"])
    digest = data["data"]["digest"]
    # The digest is announced as sha256 of [cities, state codes] as compact JSON lists; a
    # file whose lists do not give it was edited by hand, so refuse to serve from it.
    mine = hashlib.sha256(json.dumps([cities, codes], separators=(",", ":")).encode()).hexdigest()
    if mine != digest:
        raise SystemExit(f"contract data {path}: digest {digest} does not match its lists")
    return ContractData(
        cities=frozenset(cities),
        states=frozenset(codes),
        digest=digest,
        hold_seconds=int(data["holds"]["hold_seconds"]),
    )
