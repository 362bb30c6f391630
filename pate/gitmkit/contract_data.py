"""The data the gitm.v1 contract depends on, as PATE reads it (docs/gitm.md A8, A9): the cities
on GITM's map and the state codes, and their digest, the ``[data] digest`` line of
``proto/gitm/v1/contract.toml`` (written by ``python -m pate.tools.gitmdata``).  PATE sends the
digest with every ``OpenCampaign``, a land service answers its own in ``GetCapabilities``, and
the kit compares the two (L33)."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from pate.datafiles import load_nations, load_world_map


def cities_states() -> tuple[list[str], list[Any]]:
    """The cities on GITM's map (sorted names) and the states (sorted by code)."""
    cities = sorted(p.name for p in load_world_map().ports.values() if p.on_gitm_map)
    return cities, sorted(load_nations().states.values(), key=lambda s: s.code)


def digest_of(cities: list[str], codes: list[str]) -> str:
    """sha256 of [cities, state codes] as compact JSON lists."""
    return hashlib.sha256(json.dumps([cities, codes], separators=(",", ":")).encode()).hexdigest()


@functools.cache
def data_digest() -> str:
    """The digest of the data of this PATE release (the file's, whenever the file is fresh)."""
    cities, states = cities_states()
    return digest_of(cities, [s.code for s in states])
