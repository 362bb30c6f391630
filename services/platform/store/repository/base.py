"""Helpers shared by the repository modules."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from sqlalchemy import Table

from services.platform.store import tables


def _t(name: str) -> Table:
    return tables.metadata.tables[name]


def now() -> datetime:
    return datetime.now(UTC)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
