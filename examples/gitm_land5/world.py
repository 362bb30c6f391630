"""A campaign's land as one JSON document: units, stocks, holders and open transfers."""

from __future__ import annotations

from typing import Any

from google.protobuf.message import Message

from gitm.v1 import land_pb2 as pb

World = dict[str, Any]
LOAD = pb.DIRECTION_LOAD


def same_content(request: Message, *excluded: str) -> bytes:
    """What "same content" compares: the known fields, less those the contract leaves out."""
    copy = type(request)()
    copy.CopyFrom(request)
    copy.DiscardUnknownFields()
    for name in excluded:
        copy.ClearField(name)
    return copy.SerializeToString(deterministic=True)


def city_key(city: str) -> str:
    return "city:" + city


def transport_key(transport: str) -> str:
    return "transport:" + transport


def stock(world: World, key: str) -> int:
    return int(world["stocks"].get(key, 0))


def add_stock(world: World, key: str, amount: int) -> None:
    world["stocks"][key] = stock(world, key) + amount


def reserved_units(world: World) -> dict[str, str]:
    """Each unit an open (BEGUN) transfer holds, and that transfer (L8)."""
    out: dict[str, str] = {}
    for tid, transfer in world["open"].items():
        for unit in transfer["units"]:
            out[unit] = tid
    return out


def reserved_supplies(world: World, key: str) -> int:
    """What open transfers hold of a place's stock: loads of a city, landings from a transport."""
    total = 0
    for transfer in world["open"].values():
        source = (
            city_key(transfer["port"])
            if transfer["direction"] == LOAD
            else transport_key(transfer["transport"])
        )
        if source == key:
            total += int(transfer["supplies"])
    return total


def unit_message(uid: str, unit: dict[str, Any], reserved: bool) -> pb.Unit:
    return pb.Unit(
        id=uid,
        state=unit["state"],
        tactical_square=bool(unit["tactical"]) and not unit["transport"],
        infantry=unit["infantry"],
        cavalry=unit["cavalry"],
        artillery=unit["artillery"],
        batteries=unit["batteries"],
        headquarters=unit["headquarters"],
        supplies=unit["supplies"],
        reserved=reserved,
    )


def new_unit(initial: pb.InitialUnit) -> dict[str, Any]:
    unit = initial.unit
    return {
        "state": unit.state or unit.id[:2],
        "city": initial.city,
        "transport": initial.transport_id,
        "tactical": bool(unit.tactical_square) if initial.city else False,
        "infantry": unit.infantry,
        "cavalry": unit.cavalry,
        "artillery": unit.artillery,
        "batteries": unit.batteries,
        "headquarters": unit.headquarters,
        "supplies": unit.supplies,
        "fate": "",
        "captor": "",
    }


def occupied(world: World, city: str, state: str) -> bool:
    """A land unit of the holder stands in the city itself; a reserved one counts (L8)."""
    return any(
        u["city"] == city and u["tactical"] and not u["transport"] and not u["fate"] and u["state"] == state
        for u in world["units"].values()
    )
