"""Broken on purpose: variants of the reference land service, at least one per
numbered obligation of the land side (docs/gitm.md "Obligations") and one per
rule a row checks beside its first, switched on by name
(``PATE_GITM_FAULTS=mutant=NAME`` or ``ReferenceAdmin.SetFaults``).

The conformance suite's mutation test runs ``pate gitm check`` against every
variant, served in another process over gRPC, and checks that each is caught
by the row of the obligation it breaks."""

from __future__ import annotations

# name -> (the obligation it breaks, whose row must fail; what it does wrong)
MUTANTS: dict[str, tuple[str, str]] = {
    "caps_lie": ("L1", "lists ReportCargoMoves among its calls, then answers it UNIMPLEMENTED"),
    "open_ignores_supplies": ("L2", "opens a campaign without its supply stocks"),
    "near_unopened_ok": ("L3", "UnitsNear of a campaign never opened answers OK, not NOT_FOUND"),
    "near_hides_strategic": ("L3", "UnitsNear leaves out the units of the strategic square"),
    "no_refusals": ("L4", "accepts transfers of units a land game must refuse"),
    "twice_taken": ("L4", "takes a transfer that names one unit twice"),
    "ignore_reservations": ("L5", "accepts a unit already reserved by another open transfer"),
    "reason_names_holder": ("L5", "a reservation's refusal names the transfer that holds the unit"),
    "no_supply_check": ("L6", "accepts more supplies than are free"),
    "partial": ("L7", "refuses a transfer but reserves its good units all the same"),
    "refusal_holds_units": ("L7", "a refused transfer answers the units and supplies asked, as if held"),
    "no_reserve": ("L8", "a begun transfer reserves nothing"),
    "near_hides_reserved": ("L8", "UnitsNear leaves out the units a begun load reserves"),
    "land_strategic": ("L9", "landed units arrive in the strategic square, not in the city"),
    "cancel_keeps_reservation": ("L10", "a cancelled transfer leaves its units and supplies reserved"),
    "forget": ("L11", "no idempotency: a repeated call is done again"),
    "accept_reused": ("L12", "accepts a reused id with other content"),
    "flip_completion": ("L13", "a repeated CompleteTransfer with the opposite flag changes the outcome"),
    "unknown_ok": ("L14", "answers OK for a transfer it never began"),
    "racy": ("L15", "copies of one call arriving together are not served one after the other"),
    "volatile": ("L16", "keeps its answers in memory: a restart forgets them"),
    "ignore_sightings": ("L17", "acknowledges sightings without keeping them"),
    "moves_units_only": ("L18", "a cargo move carries the units and leaves the supplies behind"),
    "loss_keeps_units": ("L19", "answers a cargo loss and keeps the units aboard"),
    "lose_supplies": ("L20", "a completed transfer's supplies leave their place and arrive nowhere"),
    "unknown_on_bad": ("L21", "answers a malformed request UNKNOWN instead of INVALID_ARGUMENT"),
    "open_unmapped_ok": ("L21", "OpenCampaign takes a city that is not on the GITM map"),
    "close_ignored": ("L22", "a closed campaign goes on taking new work"),
    "no_auth": ("L23", "takes calls without PATE's caller token"),
    "no_health": ("L24", "serves no gRPC health"),
    "holders_forgotten": ("L25", "serves PortHolders but answers no city's holder"),
    "snapshot_hides_open": ("L26", "GetLandSnapshot leaves out the transfers still open"),
    "events_unopened_ok": ("L27", "ListLandEvents of a campaign never opened answers OK, not NOT_FOUND"),
    "hold_not_repeatable": ("L28", "UnitsNear asked again with the same hold request gives another hold"),
    "hold_released_confirms": ("L28", "a BeginTransfer naming a released hold is accepted"),
    "hold_request_opaque": (
        "L28",
        "a hold_request_id with a space (PATE's, for Le Havre) is INVALID_ARGUMENT",
    ),
    "vague_field": ("L21", 'edition 4: a BadRequest names the field "request", the message the real one'),
    "bare_errors": ("L29", "edition 4: errors carry no google.rpc.Status details"),
    "wrong_reason": (
        "L30",
        "edition 4: every NOT_FOUND says CAMPAIGN_NOT_OPENED, a transfer never begun too",
    ),
    "refusal_no_code": ("L31", "edition 4: refusals carry no code"),
    "campaign_blind": ("L32", "CompleteTransfer and GetTransfer ignore the campaign they name"),
    "stale_data": ("L33", "GetCapabilities answers the digest of other contract data"),
}
