"""The words of each notification (plain functions of the event)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime


def when(deadline: datetime | None) -> str:
    return deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline else "none (the game master closes the turn)"


def turn_opened(campaign: str, turn: int, deadline: datetime | None) -> tuple[str, str]:
    return (
        f"{campaign}: turn {turn} is open",
        f"Turn {turn} of campaign {campaign} is open for orders. Deadline: {when(deadline)}.",
    )


def reports_ready(campaign: str, turn: int) -> tuple[str, str]:
    return (
        f"{campaign}: your reports of turn {turn} are ready",
        f"Your event and position reports of turn {turn} of campaign {campaign}"
        " are ready on the Ship Order Desk.",
    )


def deadline_near(
    campaign: str, turn: int, deadline: datetime, hours: float, ships: Sequence[str]
) -> tuple[str, str]:
    listed = ", ".join(ships)
    return (
        f"{campaign}: deadline of turn {turn} in {hours:.0f} hours",
        f"The deadline of turn {turn} of campaign {campaign} is {when(deadline)},"
        f" in about {hours:.0f} hours.\nThese ships of yours have no orders yet and will carry out"
        f" the default orders (rule 4.11): {listed}.",
    )


def campaign_finished(campaign: str, turns: int) -> tuple[str, str]:
    return (
        f"{campaign}: the campaign is over",
        f"Campaign {campaign} ended after {turns} turns. Every side's final account and the result"
        f" by the account are on the Ship Order Desk, at /c/{campaign}/result (docs/rules/result.md);"
        " the replay now shows every side, and your view beside the truth.",
    )
