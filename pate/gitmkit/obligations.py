"""The numbered obligations of the land side (docs/gitm.md "Obligations"):
each row of ``pate gitm check`` names the one it checks."""

from __future__ import annotations

OBLIGATIONS: dict[str, str] = {
    "L1": "capabilities: edition 2 or later, and every call listed is served",
    "L2": "open campaign: the initial positions held; the repeat is a duplicate",
    "L3": "units near: city, strategic square, sizes and stock; unknown city or campaign NOT_FOUND",
    "L4": "refusal: a unit not there, of another state, embarked, not aboard or named twice",
    "L5": "refusal: a unit reserved by another open transfer, not naming that transfer",
    "L6": "refusal: supplies beyond the free stock",
    "L7": "a transfer is refused whole: nothing of it reserved, nor answered as held",
    "L8": "a begun transfer reserves its units (listed, reserved) and supplies",
    "L9": "completion moves units and supplies; landed units are in the city",
    "L10": "cancellation moves nothing and frees the reservation",
    "L11": "the same id gets the same answer, the work done once",
    "L12": "a reused id with other content is ALREADY_EXISTS",
    "L13": "a completion is final: a repeat with the other flag changes nothing",
    "L14": "an unknown transfer is NOT_FOUND",
    "L15": "copies of one call at once: one piece of work, one answer",
    "L16": "answers survive a restart of the land service",
    "L17": "sightings kept once, counted by entry; the repeat a duplicate",
    "L18": "cargo moves: units and supplies follow, once; a stale move refused",
    "L19": "cargo loss: what is aboard is lost or captured, once; the rest listed",
    "L20": "conservation: no unit or supply made or lost on the way",
    "L21": "a malformed request (an off-map city too) is INVALID_ARGUMENT naming its field",
    "L22": "close campaign: open transfers cancelled, no new work",
    "L23": "calls without PATE's caller token are UNAUTHENTICATED",
    "L24": "gRPC health: SERVING for gitm.v1.LandBridge",
    "L25": "port holders (edition 3): the open's holders, occupied by their units",
    "L26": "land snapshot (edition 4): one consistent state, open transfers and reservations as held",
    "L27": "land events (edition 4): in sequence, after the cursor, the same when asked again",
    "L28": "holds (edition 4): one per request, ten minutes, confirmed by a begin, released for good",
    "L29": "error details (edition 4): every error carries its google.rpc.Status, fields named",
    "L30": "error reasons (edition 4): ErrorInfo.reason from the table, the right one for the case",
    "L31": "refusal codes (edition 4): every refusal carries the code of its kind",
    "L32": "campaign named (edition 4): a transfer under another campaign refused, nothing changed",
    "L33": "contract data (edition 4): Capabilities.data_digest is this release's contract.toml digest",
}


def title(number: str) -> str:
    return f"{number} {OBLIGATIONS[number]}"
