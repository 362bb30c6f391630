"""Request checks: the proto's buf.validate rules first (docs/gitm.md "Limits")."""

import protovalidate
from google.protobuf.message import Message

from examples.gitm_land7.errors import Fault

_VALIDATOR = protovalidate.Validator()


def _path(violation: protovalidate.Violation) -> str:
    parts: list[str] = []
    field = violation.proto.field
    for element in field.elements if field is not None else []:
        text = element.field_name
        subscript = getattr(element, "subscript", None)
        if subscript is not None:
            text += f"[{subscript.value}]"
        parts.append(text)
    return ".".join(parts)


def check_request(request: Message) -> None:
    """INVALID_ARGUMENT naming every field at fault, with the rule's message."""
    violations = _VALIDATOR.collect_violations(request)
    if not violations:
        return
    fields: list[tuple[str, str]] = []
    for violation in violations:
        path = _path(violation)
        message = violation.proto.message or violation.proto.rule_id
        fields.append((path, message))
    first = fields[0]
    raise Fault("MALFORMED_REQUEST", f"{first[0]} {first[1]}", fields)
