"""The contract's data: the cities of GITM's map, the state codes and their digest."""

import tomllib
from dataclasses import dataclass
from pathlib import Path

CONTRACT = Path(__file__).resolve().parents[2] / "proto" / "gitm" / "v1" / "contract.toml"
EDITION = 4
IMPLEMENTATION = "gitm_land7"
HOLD_SECONDS = 600


@dataclass(frozen=True)
class ContractData:
    cities: frozenset[str]
    states: frozenset[str]
    digest: str
    calls: tuple[str, ...]


def load(path: Path = CONTRACT) -> ContractData:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return ContractData(
        cities=frozenset(data["cities"]["names"]),
        states=frozenset(data["states"]),
        digest=str(data["data"]["digest"]),
        calls=tuple(data["editions"][f"edition_{EDITION}"]),
    )
