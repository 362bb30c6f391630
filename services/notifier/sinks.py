"""Where notifications go: email over SMTP (PATE_SMTP_URL) and webhooks (a
JSON POST that Discord, Slack and plain receivers accept).  Each send has a
timeout and reports success or failure; it never raises into the caller."""

from __future__ import annotations

import http.client
import json
import re
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from services.notifier import webhooks
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


# A player's words reach his allies' channels as words: Discord's markdown links and Slack's
# control sequences (<!channel>, <@U123>, <https://x|masked link>) are written out, not obeyed.
_DISCORD_MARKUP = re.compile(r"([\\\[\]()<>@*_~`|#])")


def _discord(text: str) -> str:
    return _DISCORD_MARKUP.sub(r"\\\1", text)


def _slack(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def post_webhook(
    url: str, subject: str, body: str, extra: dict[str, str], allow: frozenset[str] = frozenset()
) -> bool:
    """True when the receiver answered 2xx; a refused URL, a redirect, an error or a
    receiver past the delivery deadline is a failure (services/notifier/webhooks.py)."""
    payload = {
        "content": f"**{_discord(subject)}**\n{_discord(body)}"[:1900],
        "allowed_mentions": {"parse": []},  # Discord: no @everyone, role or user is pinged
        "text": f"*{_slack(subject)}*\n{_slack(body)}",
        "subject": subject,
        **extra,
    }
    data = json.dumps(payload).encode()
    try:
        status = webhooks.post(url, data, allow)
    except webhooks.WebhookRefusedError as err:
        log.warning("webhook_refused", reason=str(err)[:120])  # never the URL or its address
        return False
    except (OSError, http.client.HTTPException) as err:
        log.warning("webhook_failed", error=type(err).__name__)
        return False
    return 200 <= status < 300
