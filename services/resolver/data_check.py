"""The contract data of both sides compared before a campaign opens (docs/gitm.md A9): PATE's
``[data] digest`` of proto/gitm/v1/contract.toml (its cities and state codes) against the one
the land service says it loaded (``Capabilities.data_digest``, edition 4).

A mismatch means the two sides read different maps: every city PATE names could be one GITM
does not know.  So it is never silent: the error is logged, the open is not sent, and the
turn-0 message is set aside at once (:class:`~services.platform.bus.consumer.PermanentError`):
its ``poison_message`` audit row and the failed turn the game master sees carry the message
below; every later turn of the campaign waits for turn 0 (``bridge.must_wait``), so all its
GITM calls are held until the operators align the data and send turn 0 again
(``pate campaign retry``).  A service that says no digest (edition 3 or older) is not compared."""

from __future__ import annotations

from services.platform.bus.consumer import PermanentError
from services.platform.telemetry.logging import get_logger
from services.resolver.editions import Capabilities
from services.resolver.gitm import OpenCampaign

log = get_logger("gitm-bridge")
MISMATCH = "gitm_data_mismatch"


class DataMismatchError(PermanentError):
    """The land service loaded other contract data than PATE's: the open is not sent."""


def mismatch(caps: Capabilities, call: OpenCampaign) -> str:
    """The operators' message when the two digests differ, else ""."""
    theirs, ours = caps.data_digest, call.data_digest
    if not theirs or not ours or theirs == ours:
        return ""
    # the failed turn of the campaign shows 200 characters: "DataMismatchError: " and this
    return (
        f"{MISMATCH}: not opened in GITM, its calls held: contract data of GITM {theirs[:8]},"
        f" of PATE {ours[:8]} (docs/gitm.md A9); align them, then pate campaign retry --turn 0"
    )


def before_open(caps: Capabilities, call: OpenCampaign) -> None:
    """Raise :class:`DataMismatchError` (logged as an error) when the digests differ."""
    said = mismatch(caps, call)
    if said:
        log.error(MISMATCH, campaign=call.campaign, theirs=caps.data_digest[:64], ours=call.data_digest)
        raise DataMismatchError(said)
