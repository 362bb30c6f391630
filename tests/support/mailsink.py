"""A local SMTP server (aiosmtpd) that keeps what it receives: the sink the notifier's tests
send to, for the tests of account mail."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from typing import Any

from services.notifier.sinks import Smtp
from services.platform.bus.natsserver import free_port


class Inbox:
    def __init__(self) -> None:
        self.mails: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        self.mails.append(envelope)
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [message_from_bytes(m.content) for m in self.mails if address in m.rcpt_tos]


def text(mail: Message) -> str:
    payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def link_token(mail: Message) -> str:
    """The single-use token a mail carries (token_urlsafe(32): 43 characters)."""
    found = re.findall(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])", text(mail))
    assert len(found) == 1, found
    return str(found[0])


@contextmanager
def smtp_sink() -> Iterator[tuple[Smtp, Inbox]]:
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        sink = Smtp.from_url(f"smtp://127.0.0.1:{controller.port}?from=desk@pate.test")
        assert sink is not None
        yield sink, inbox
    finally:
        controller.stop()
