"""The rows of edition 4's appended fields (docs/gitm.md "Answers to the land team's review"):
every request names its campaign (P7, L32) and the land side says which contract data it loaded
(A9, L33).  Each is skipped for a service below edition 4, which cannot know the fields."""

from __future__ import annotations

from collections.abc import Callable

import grpc

from gitm.v1 import land_pb2
from pate.gitmkit.contract_data import data_digest
from pate.gitmkit.land import LOAD, Land
from pate.gitmkit.rows import CheckFailedError, SkippedError, bounded, expect, short

BEGUN = land_pb2.TRANSFER_STATE_BEGUN
WRONG = (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND)


def _edition_4(land: Land) -> land_pb2.Capabilities:
    caps = land.call("GetCapabilities", land_pb2.GetCapabilitiesRequest())
    if caps.edition < 4:
        raise SkippedError(f"edition {caps.edition}: the field is of edition 4")
    return caps  # type: ignore[no-any-return]


def _refused(what: str, call: Callable[[], object]) -> str:
    """``call`` must fail INVALID_ARGUMENT naming campaign_id, or NOT_FOUND; the code's name."""
    try:
        answer = call()
    except grpc.RpcError as exc:
        code = exc.code() if isinstance(exc, grpc.Call) else None
        details = (exc.details() if isinstance(exc, grpc.Call) else "") or ""
        expect(code in WRONG, f"{what} answered {code.name if code else '?'}: {bounded(details, 80)}")
        if code == grpc.StatusCode.INVALID_ARGUMENT:
            expect("campaign_id" in details, f"{what}: the message does not name campaign_id: {details}")
        return code.name if code else "?"
    raise CheckFailedError(f"{what} answered OK: {short(answer)}")


def campaign_named(land: Land) -> str:
    """L32: a transfer asked or completed under another campaign than its own is INVALID_ARGUMENT
    naming campaign_id (or NOT_FOUND), and nothing changes; named with its own, or with none
    (a PATE older than the field), it is answered."""
    _edition_4(land)
    tid = land.new_id("campaign-named")
    begun = land.begin(tid, LOAD, [land.layout.a])
    expect(begun.accepted and begun.state == BEGUN, f"the begin: {short(begun)}")
    other = land.other_campaign("other")
    try:
        asked = _refused(f"GetTransfer naming campaign {other}", lambda: land.get(tid, other))
        done = _refused(f"CompleteTransfer naming campaign {other}", lambda: land.complete(tid, False, other))
        still = land.get(tid, "")
        expect(still.state == BEGUN, f"after a completion naming another campaign: {short(still)}")
        own = land.get(tid)
        expect(own.state == BEGUN, f"GetTransfer naming its own campaign: {short(own)}")
    finally:
        land.complete(tid, cancelled=True)
    return f"another campaign: GetTransfer {asked}, CompleteTransfer {done}; none or its own: answered"


def data_named(land: Land) -> str:
    """L33: Capabilities.data_digest is the digest of this release's contract.toml [data]."""
    caps = _edition_4(land)
    ours = data_digest()
    expect(caps.data_digest, "Capabilities.data_digest is empty: say the digest of the contract data loaded")
    expect(
        caps.data_digest == ours,
        f"Capabilities.data_digest {bounded(caps.data_digest, 70)}, contract.toml's {ours}:"
        " load this release's",
    )
    return f"the contract data {ours[:16]}... loaded"
