"""What the geography asset (data/geography/map.json) is made from, and the
digest of it that the asset records: importable without the build's own
packages, so that a test can tell a stale asset from a fresh one."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pate.datafiles import data_dir

ATLAS_SHA256 = (
    "619477ff690c086885e45cb91707d783805561bd75ae8e437b7d4694b0204e0f"  # world-atlas 2.0.2 land-50m
)
HERE = Path(__file__).resolve().parent
REGENERATE = "python -m pate.databuild.geography --atlas .../world-atlas/land-50m.json (docs/formats/map.md)"


def input_files() -> list[Path]:
    """The files of this repository the asset is made from."""
    data = data_dir()
    return [
        data / "maps" / "europe.toml",
        data / "maps" / "america.toml",
        data / "geography" / "theatre.toml",
        HERE / "geography.py",
        HERE / "coastlines.py",
        HERE / "sea_areas.py",
    ]


def inputs_sha256() -> str:
    digest = hashlib.sha256(ATLAS_SHA256.encode())
    for path in input_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()
