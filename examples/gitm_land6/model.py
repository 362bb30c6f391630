"""Shared reading of the land: map, fingerprints, where units stand, what is reserved."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

from examples.gitm_land6 import errors
from gitm.v1 import land_pb2 as pb

_CONTRACT = Path(__file__).resolve().parents[2] / "proto" / "gitm" / "v1" / "contract.toml"
with _CONTRACT.open("rb") as _handle:
    _DATA = tomllib.load(_handle)
CITIES: frozenset[str] = frozenset(_DATA["cities"]["names"])
DIGEST: str = _DATA["data"]["digest"]
CALLS: list[str] = list(_DATA["editions"]["edition_4"])
HOLD_SECONDS = int(_DATA["holds"]["hold_seconds"])


def fingerprint(message: Message, *ignored: str) -> str:
    """The request's content, without the fields that are not part of it."""
    copy = type(message)()
    copy.CopyFrom(message)
    copy.DiscardUnknownFields()  # a newer PATE's fields are no part of the content
    for name in ignored:
        copy.ClearField(name)
    return hashlib.sha256(copy.SerializeToString(deterministic=True)).hexdigest()


def to_dict(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def from_dict(data: dict[str, Any], cls: type[Message]) -> Any:
    return json_format.ParseDict(data, cls())


def campaign(state: dict[str, Any], campaign_id: str) -> dict[str, Any]:
    found = state["campaigns"].get(campaign_id)
    if found is None:
        raise errors.no_campaign(campaign_id)
    return found


def open_transfers(state: dict[str, Any], campaign_id: str) -> list[dict[str, Any]]:
    return [
        t
        for t in state["transfers"].values()
        if t["campaign"] == campaign_id and t["state"] == pb.TRANSFER_STATE_BEGUN
    ]


def reserving(state: dict[str, Any], campaign_id: str) -> list[dict[str, Any]]:
    """The open transfers whose reservation still holds (a cargo loss frees a landing's)."""
    return [t for t in open_transfers(state, campaign_id) if not t.get("freed")]


def reserved_by(state: dict[str, Any], campaign_id: str) -> dict[str, str]:
    """Unit id -> the open transfer that reserves it."""
    out: dict[str, str] = {}
    for transfer in reserving(state, campaign_id):
        for unit in transfer["units"]:
            out[unit] = transfer["id"]
    return out


def reserved_supplies(state: dict[str, Any], campaign_id: str, place: str) -> int:
    total = 0
    for transfer in reserving(state, campaign_id):
        if transfer["direction"] == pb.DIRECTION_LOAD:
            source = "c:" + transfer["port"]
        else:
            source = "t:" + transfer["transport"]
        if source == place:
            total += transfer["supplies"]
    return total


def stock(camp: dict[str, Any], place: str) -> int:
    return int(camp["stocks"].get(place, 0))


def add_stock(camp: dict[str, Any], place: str, amount: int) -> None:
    camp["stocks"][place] = stock(camp, place) + amount


def unit_message(entry: dict[str, Any], reserved: bool) -> pb.Unit:
    unit = from_dict(entry["unit"], pb.Unit)
    unit.tactical_square = bool(entry["tactical"]) and entry["city"] != ""
    unit.reserved = reserved
    return unit


def status(transfer: dict[str, Any]) -> pb.TransferStatus:
    answer = pb.TransferStatus(
        transfer_id=transfer["id"],
        accepted=transfer["state"] != pb.TRANSFER_STATE_REFUSED,
        reason=transfer["reason"],
        units=transfer["units"],
        supplies=transfer["supplies"],
        state=transfer["state"],
    )
    for item, reason, code in transfer["refusals"]:
        answer.refusals.add(item=item, reason=reason, code=code)
    return answer
