"""``python -m pate.tools.lockcheck`` (``make lock-check``): the lock files match pyproject.toml.

The lock files are produced by uv (``make lock``: ``uv pip compile --generate-hashes``) and
installed with ``pip install --require-hashes``; this check needs no network: every dependency
pyproject.toml declares is pinned (``==``) in the lock at a version its specifier allows, and
every pin carries hashes.  ``requirements.lock`` holds the runtime dependencies (the image),
``requirements-dev.lock`` those and the dev extra (``make install``, CI), and
``requirements-build.lock`` what building PATE's own package needs (pyproject.toml's
``build-system.requires``: the image installs it hashed and builds without isolation, so no
build tool is fetched unchecked).
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)")


def pins(lock: str) -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) of every requirement of a lock file."""
    out: dict[str, tuple[str, int]] = {}
    current = ""
    for line in lock.splitlines():
        found = _PIN.match(line)
        if found:
            current = canonicalize_name(found.group(1))
            out[current] = (found.group(2), 0)
        if current and "--hash=sha256:" in line:
            version, hashes = out[current]
            out[current] = (version, hashes + line.count("--hash=sha256:"))
    return out


def problems(declared: list[str], lock: str, name: str) -> list[str]:
    pinned = pins(lock)
    out = [f"{name}: {pkg}=={v} has no hash" for pkg, (v, n) in sorted(pinned.items()) if n == 0]
    for text in declared:
        req = Requirement(text)
        key = canonicalize_name(req.name)
        if key not in pinned:
            out.append(f"{name}: {req.name} (pyproject.toml) is not pinned: run make lock")
        elif not req.specifier.contains(pinned[key][0], prereleases=True):
            out.append(
                f"{name}: {req.name}=={pinned[key][0]} does not satisfy {req} (pyproject.toml): run make lock"
            )
    return out


def main() -> int:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = pyproject["project"]
    runtime = list(project["dependencies"])
    dev = runtime + list(project["optional-dependencies"]["dev"])
    build = list(pyproject["build-system"]["requires"])
    found: list[str] = []
    locks = (
        ("requirements.lock", runtime),
        ("requirements-dev.lock", dev),
        ("requirements-build.lock", build),
    )
    for name, declared in locks:
        path = ROOT / name
        if not path.exists():
            found.append(f"{name}: missing: run make lock")
            continue
        found += problems(declared, path.read_text(), name)
    for line in found:
        print(f"lockcheck: {line}", file=sys.stderr)
    if not found:
        print("lockcheck: the runtime, dev and build locks match pyproject.toml, every pin hashed")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
