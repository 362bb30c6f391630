"""A CPU quota per process, as a Kubernetes CPU limit gives a pod.

Each capped process gets its own CPU cgroup below one group of this benchmark
run: cgroup v1 (``cpu.cfs_quota_us`` under ``/sys/fs/cgroup/cpu``) or cgroup v2
(``cpu.max``, where the ``cpu`` controller is available).  Creating cgroups
needs root; :func:`unavailable` says in one line why capping cannot be done.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

PERIOD_US = 100_000  # the kernel's default CFS period
V1_ROOT = Path("/sys/fs/cgroup/cpu")
V2_ROOT = Path("/sys/fs/cgroup")


def _flavour() -> str:
    if (V1_ROOT / "cpu.cfs_quota_us").exists():
        return "v1"
    controllers = V2_ROOT / "cgroup.controllers"
    if controllers.exists() and "cpu" in controllers.read_text().split():
        return "v2"
    return ""


def unavailable() -> str | None:
    """Why no process can be capped here, or None when it can."""
    flavour = _flavour()
    if not flavour:
        return "no CPU cgroup controller (neither /sys/fs/cgroup/cpu nor a cgroup v2 'cpu' controller)"
    root = V1_ROOT if flavour == "v1" else V2_ROOT
    if not os.access(root, os.W_OK):
        return f"{root} is not writable (creating CPU cgroups needs root)"
    return None


@dataclass
class CpuCaps:
    """CPU cgroups of one benchmark run, each with a quota of ``cores``."""

    cores: float
    groups: list[Path] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.flavour = _flavour()
        root = V1_ROOT if self.flavour == "v1" else V2_ROOT
        self.base = root / f"pate-bench-{os.getpid()}"
        self.base.mkdir(exist_ok=True)
        if self.flavour == "v2":  # children of base may then have their own cpu.max
            (root / "cgroup.subtree_control").write_text("+cpu")
            (self.base / "cgroup.subtree_control").write_text("+cpu")

    @property
    def quota_us(self) -> int:
        return max(1000, round(self.cores * PERIOD_US))  # the kernel refuses less than 1 ms

    def cap(self, name: str, pid: int) -> Path:
        """Move process ``pid`` (all its threads) into a new group of its own."""
        group = self.base / name
        group.mkdir(exist_ok=True)
        if self.flavour == "v1":
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(self.quota_us))
        else:
            (group / "cpu.max").write_text(f"{self.quota_us} {PERIOD_US}")
        (group / "cgroup.procs").write_text(str(pid))
        self.groups.append(group)
        return group

    def throttled_seconds(self, group: Path) -> float:
        """How long the group's processes waited for quota, from its cpu.stat."""
        stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines() if line)
        if self.flavour == "v1":
            return int(stat.get("throttled_time", 0)) / 1e9  # nanoseconds
        return int(stat.get("throttled_usec", 0)) / 1e6

    def close(self) -> None:
        """Remove the groups (their processes have exited: an empty group can be removed)."""
        for group in reversed(self.groups):
            _rmdir(group)
        self.groups.clear()
        _rmdir(self.base)

    def __enter__(self) -> CpuCaps:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _rmdir(path: Path) -> None:
    with contextlib.suppress(OSError):  # a process still in it: left for the next boot
        path.rmdir()
