"""The end of a campaign: every side's final account and the result it names
(docs/rules/result.md; the rule book's victory conditions are lost)."""

from pate.core.result.account import TYPES, SideAccount, final_account
from pate.core.result.sides import Side, campaign_sides
from pate.core.result.verdict import DECISIVE, DRAW, MARGINAL, CampaignResult, Verdict, campaign_result, judge

__all__ = [
    "DECISIVE",
    "DRAW",
    "MARGINAL",
    "TYPES",
    "CampaignResult",
    "Side",
    "SideAccount",
    "Verdict",
    "campaign_result",
    "campaign_sides",
    "final_account",
    "judge",
]
