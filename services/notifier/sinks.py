"""Where notifications go: email over SMTP (PATE_SMTP_URL) and webhooks (a
JSON POST that Discord, Slack and plain receivers accept).  Each send has a
timeout and reports success or failure; it never raises into the caller."""

from __future__ import annotations

import json
import smtplib
import urllib.request
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from services.platform.config import ConfigError
from services.platform.telemetry.logging import get_logger

TIMEOUT = 10.0
log = get_logger("notifier")


@dataclass(frozen=True)
class Smtp:
    """``smtp://[user:password@]host:port[?from=desk@example.org]``; ``smtps://`` for TLS from the start."""

    host: str
    port: int
    tls: bool
    user: str
    password: str
    sender: str

    @classmethod
    def from_url(cls, url: str) -> Smtp | None:
        if not url:
            return None
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ConfigError(
                f"PATE_SMTP_URL: expected smtp://host:port or smtps://host:port, not {parts.scheme!r}"
            )
        sender = parse_qs(parts.query).get("from", ["pate@localhost"])[0]
        return cls(
            host=parts.hostname,
            port=parts.port or (465 if parts.scheme == "smtps" else 25),
            tls=parts.scheme == "smtps",
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            sender=sender,
        )

    def send(self, to: str, subject: str, body: str) -> bool:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.sender, to, subject
        msg.set_content(body)
        try:
            klass = smtplib.SMTP_SSL if self.tls else smtplib.SMTP
            with klass(self.host, self.port, timeout=TIMEOUT) as server:
                if self.user:
                    server.login(self.user, self.password)
                server.send_message(msg)
            return True
        except (OSError, smtplib.SMTPException) as err:
            log.warning("email_failed", error=type(err).__name__)  # never the address or the text
            return False


def post_webhook(url: str, subject: str, body: str, extra: dict[str, str]) -> bool:
    text = f"**{subject}**\n{body}"
    data = json.dumps({"content": text[:1900], "text": text, "subject": subject, **extra}).encode()
    req = urllib.request.Request(url, data=data, headers={"content-type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            return bool(200 <= resp.status < 300)
    except (OSError, ValueError) as err:
        log.warning("webhook_failed", error=type(err).__name__)
        return False
