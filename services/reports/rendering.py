"""Text and HTML reports rendered on first request, then kept.

The reports stage stores each player's structured report (their knowledge);
the other formats are rendered from it alone (rule 3.11) the first time
anyone asks and stored beside it, so later reads are a single row.  Two first
readers racing render the same bytes: the second insert is dropped.
"""

from __future__ import annotations

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from pate.engine.context import turn_context
from pate.engine.pipeline import reports_for
from services.platform.store import repository as repo

RENDERED = ("text", "html")


def render(knowledge_json: str) -> dict[str, str]:
    """The text and HTML reports of one player's knowledge."""
    rendered = reports_for(turn_context(), knowledge_json)
    return {fmt: rendered[fmt] for fmt in RENDERED}


def keep(engine: Engine, campaign: str, turn: int, player: str, bodies: dict[str, str]) -> None:
    """Store rendered reports unless a concurrent first read stored them already."""
    try:
        with engine.begin() as conn:
            _insert_missing(conn, campaign, turn, player, bodies)
    except IntegrityError:
        pass  # the same bytes, stored by the other reader


def _insert_missing(conn: Connection, campaign: str, turn: int, player: str, bodies: dict[str, str]) -> None:
    for fmt, body in bodies.items():
        if repo.load_report(conn, campaign, turn, player, fmt) is None:
            repo.save_report(conn, campaign, turn, player, fmt, body)


BOT_NOTE = "Your orders of turn {turn} were written for you by the bot admiral; they counted as yours."


def with_bot_note(fmt: str, body: str, turn: int) -> str:
    """A report of a turn the bot admiral played for the player says so at
    its top (docs/bots.md); the stored report, made from the knowledge alone,
    is left as it is."""
    note = BOT_NOTE.format(turn=turn)
    if fmt == "text":
        return f"{note}\n\n{body}"
    if fmt == "html":
        start = body.find("<body")
        end = body.find(">", start) + 1 if start >= 0 else 0
        return f'{body[:end]}<p id="bot-admiral" class="bot">{note}</p>{body[end:]}'
    return body
