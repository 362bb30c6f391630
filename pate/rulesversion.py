"""The version of the rules a turn is resolved under: the package's version and a digest of
the rules core's code and of the data files (tunable numbers, scenarios, the map).

Stored with every campaign (the version it was created under) and every resolved turn, so
that a replay after an upgrade says "resolved under rules X, replayed under Y" instead of a
bare difference an operator cannot tell from corruption.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import metadata
from pathlib import Path

from pate.datafiles import data_dir

CORE = Path(__file__).resolve().parent / "core"


@cache
def rules_version() -> str:
    """``<package version>+<12 hex digits>``, e.g. ``0.1.0+3f9a1c2b7d4e``."""
    try:
        version = metadata.version("pate")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        version = "0"
    digest = hashlib.sha256()
    for root in (CORE, data_dir()):
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".pyc"):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
    return f"{version}+{digest.hexdigest()[:12]}"
