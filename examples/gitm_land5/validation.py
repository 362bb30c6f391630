"""Requests checked against land.proto's buf.validate rules before any work ("Limits")."""

from __future__ import annotations

import protovalidate
from google.protobuf.message import Message

from .errors import malformed


def _path(violation: protovalidate.Violation) -> str:
    parts = []
    path = violation.proto.field
    for element in path.elements if path is not None else []:
        name = element.field_name
        subscript = element.subscript  # protovalidate's own protobuf runtime: a Oneof(field, value)
        if subscript is not None and getattr(subscript, "field", "") == "index":
            name += f"[{subscript.value}]"
        elif subscript is not None:
            name += f"[{getattr(subscript, 'value', '')}]"
        parts.append(name)
    return ".".join(parts) or "request"


def check(request: Message, extra: list[tuple[str, str]] | None = None) -> None:
    """INVALID_ARGUMENT naming every field at fault, with the rule's message."""
    fields: list[tuple[str, str]] = []
    seen: set[str] = set()
    for violation in protovalidate.collect_violations(request):
        path = _path(violation)
        if path in seen:
            continue
        seen.add(path)
        fields.append((path, violation.proto.message or violation.proto.rule_id))
    for path, why in extra or []:
        if path not in seen:
            seen.add(path)
            fields.append((path, why))
    if fields:
        raise malformed(fields)
