"""What the land service serves (docs/gitm.md "Versioning"), so that PATE
adapts to it instead of setting its turns aside.

Edition 2 services answer ``GetCapabilities`` with their edition and the
calls they serve; PATE sends only those.  A service that answers
``GetCapabilities`` UNIMPLEMENTED is of edition 1: PATE assumes the calls of
edition 1 and drops any of them that answers UNIMPLEMENTED.  A call PATE does
not send is audited (``gitm_call_skipped``); the four calls of L1 are
required of every edition, and a service without one of them is a bug of the
land side (its message is retried, then set aside)."""

from __future__ import annotations

from dataclasses import dataclass

REQUIRED = frozenset({"BeginTransfer", "CompleteTransfer", "UnitsNear", "GetTransfer"})
EDITION_1 = REQUIRED | {"ReportSightings", "ReportCargoLoss", "ReportCargoMoves"}
EDITION_2 = EDITION_1 | {"GetCapabilities", "OpenCampaign", "CloseCampaign"}
EDITION_3 = EDITION_2 | {"PortHolders"}  # docs/gitm.md "Port holders"
# docs/gitm.md "Reconciliation", "Land events" and "Holds" (a service that gives holds lists ReleaseHold)
EDITION_4 = EDITION_3 | {"GetLandSnapshot", "ListLandEvents", "ReleaseHold"}
# the edition PATE speaks, sent with every call as CALLER_EDITION (docs/gitm.md, A14): a land
# service tells an older PATE (an empty OpenCampaignRequest.holders) from "no city has a holder"
PATE_EDITION = 4  # edition 4: PATE reads ListLandEvents at each close
SKIPPED = "skipped: "  # the reason of a call PATE did not make
# how long PATE trusts a GetCapabilities answer (docs/gitm.md "Versioning"): a land service
# upgraded or downgraded is noticed within this, at the latest at the first turn after it
CAPABILITIES_TTL_SECONDS = 300.0


@dataclass(frozen=True, slots=True)
class Capabilities:
    edition: int
    calls: frozenset[str]
    data_digest: str = ""  # edition 4 (docs/gitm.md A9): the contract data it loaded; "" not said

    def serves(self, call: str) -> bool:
        return call in self.calls or call in REQUIRED

    def without(self, call: str) -> Capabilities:
        return Capabilities(self.edition, self.calls - {call}, self.data_digest)


FIRST_EDITION = Capabilities(1, EDITION_1)


def from_answer(edition: int, calls: list[str], data_digest: str = "") -> Capabilities:
    """A service's own word; an edition below 2 or a list of unknown names is read as it is."""
    return Capabilities(max(1, edition), frozenset(c for c in calls if c in EDITION_4), data_digest[:128])
