"""The ids of the cargo losses the bridge tells GITM (docs/gitm.md "What PATE does when something
fails"): a transport's loss is ``<campaign>:<turn>:<transport>:cargo``; a refused landing whose
units were lost with their transport since is ``<transfer_id>:cargo``, so two such landings of
one transport are two losses, not one id with two contents."""

from __future__ import annotations

from pate.core.events import Event, Phase
from services.resolver.gitm_calls import cargo_calls


def _undone(transfer: str, units: list[str]) -> Event:
    data = {
        "transport": "BR2TR",
        "transfer": transfer,
        "direction": "unload",
        "port": "Portsmouth",
        "units": units,
        "supplies": 0,
        "recovered": False,
        "lost": True,
    }
    return Event(Phase.INITIAL_AMPHIBIOUS, "transfer_undone", ("BR2TR",), "Portsmouth", (), data)


def test_two_undone_landings_of_one_lost_transport_are_two_losses() -> None:
    events = [_undone("c:8:BR2TR:1", ["BR5IN"]), _undone("c:8:BR2TR:2", ["BR6IN"])]
    calls = cargo_calls("c", 9, events)
    assert [(c.loss_id, c.units) for c in calls] == [
        ("c:8:BR2TR:1:cargo", ("BR5IN",)),
        ("c:8:BR2TR:2:cargo", ("BR6IN",)),
    ]


def test_a_transport_lost_with_cargo_is_told_by_its_own_id() -> None:
    data = {"transport": "BR2TR", "units": ["BR5IN"], "supplies": 2, "captor": ""}
    lost = Event(Phase.COMBAT, "cargo_lost", ("BR2TR",), "ECH", (), data)
    (call,) = cargo_calls("c", 9, [lost])
    assert (call.loss_id, call.units, call.supplies, call.captured) == (
        "c:9:BR2TR:cargo",
        ("BR5IN",),
        2,
        False,
    )
