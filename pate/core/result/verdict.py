"""The result of a campaign, named from its final account (docs/rules/result.md).

The rule book's victory conditions are lost.  The result says no more than the
account shows: which side's score leads and by how much, in the bands of
``data/rules/result.toml``; it claims nothing of the land war, which GITM keeps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pate.core.events import Event
from pate.core.result.account import SideAccount, final_account
from pate.core.ruledata import ResultScoring
from pate.core.world.state import WorldState

DECISIVE = "decisive victory"
MARGINAL = "marginal victory"
DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Verdict:
    kind: str  # DECISIVE | MARGINAL | DRAW
    winner: str  # the leading side's key; "" for a draw
    margin: int  # the leading score less the next
    in_play: int  # every side's points won and lost
    sentence: str


@dataclass(frozen=True, slots=True)
class CampaignResult:
    campaign: str
    turns: int  # turns played
    sides: tuple[SideAccount, ...]
    verdict: Verdict


def judge(sides: Sequence[SideAccount], s: ResultScoring) -> Verdict:
    ranked = sorted(sides, key=lambda a: (-a.score, a.side))
    in_play = sum(a.won + a.lost for a in sides)
    if len(ranked) < 2:
        return Verdict(DRAW, "", 0, in_play, "Draw by the account: no two sides met in this campaign.")
    first, second = ranked[0], ranked[1]
    margin = first.score - second.score
    scores = f"the {first.name} {first.score} points, the {second.name} {second.score}"
    if in_play == 0:
        return Verdict(DRAW, "", 0, 0, "Draw by the account: no side won or lost anything it counts.")
    if margin < s.draw_below:
        sentence = (
            f"Draw by the account: {scores}; a margin of {margin} of the {in_play} points in play,"
            f" less than the {s.draw_below} a victory needs."
        )
        return Verdict(DRAW, "", margin, in_play, sentence)
    decisive = margin >= s.decisive_from and margin * 100 >= s.decisive_share_pct * in_play
    kind = DECISIVE if decisive else MARGINAL
    sentence = (
        f"{kind[0].upper()}{kind[1:]} of the {first.name} by the account: {scores};"
        f" a margin of {margin} of the {in_play} points in play."
    )
    return Verdict(kind, first.side, margin, in_play, sentence)


def campaign_result(
    start: WorldState,
    final: WorldState,
    turns: Mapping[int, Sequence[Event]],
    scoring: ResultScoring,
) -> CampaignResult:
    """The final account of every side and the result it names."""
    sides = final_account(start, final, turns, scoring)
    played = max(turns, default=0)
    return CampaignResult(final.campaign, played, tuple(sides), judge(sides, scoring))
