"""A client that leaves in the middle of its form's body gets a 400, not a 500 and a traceback
in the log (services/web/desk.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.exceptions import HTTPException
from starlette.requests import Request

from services.web import desk


def _leaving_request() -> Request:
    messages: list[dict[str, Any]] = [
        {"type": "http.request", "body": b"csrf=abc&new_id=so", "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/solo",
        "headers": [(b"content-type", b"application/x-www-form-urlencoded"), (b"content-length", b"999")],
    }
    return Request(scope, receive)


def test_a_body_cut_short_is_a_plain_400() -> None:
    with pytest.raises(HTTPException) as err:
        asyncio.run(desk._read_form(_leaving_request()))
    assert err.value.status_code == 400 and "ended before its body" in err.value.detail
