"""Ports for the servers the tools start: never one the kernel may give an outgoing connection.

A port from ``bind(0)`` is from the ephemeral range, which the kernel also hands to outgoing
connections; one was taken that way between being chosen and being bound, and a service died
on "Address already in use"."""

from __future__ import annotations

import socket
from pathlib import Path

from services.platform.bus import natsserver
from services.platform.bus.natsserver import free_port


def _ephemeral() -> range:
    low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    return range(int(low), int(high) + 1)


def test_free_ports_are_distinct_bindable_and_outside_the_ephemeral_range() -> None:
    ports = [free_port() for _ in range(200)]
    assert len(set(ports)) == len(ports)  # never the same one twice in a process
    assert not set(ports) & set(_ephemeral())
    for port in ports[:20]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", port))


def test_a_port_another_process_listens_on_is_skipped() -> None:
    ports = natsserver._slice[0]
    upcoming = ports[natsserver._cursor[0] % len(ports)]
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", upcoming))  # the next port in turn is someone else's now
        held.listen()
        assert free_port() != upcoming


def test_two_launchers_given_their_own_slices_never_hand_out_the_same_port() -> None:
    saved, cursor = natsserver._slice[0], natsserver._cursor[0]
    try:
        natsserver.share_ports(0, 2)
        first = {free_port() for _ in range(100)}
        natsserver.share_ports(1, 2)
        second = {free_port() for _ in range(100)}
    finally:
        natsserver._slice[0], natsserver._cursor[0] = saved, cursor
    assert not first & second
    assert max(first) < min(second)  # the first slice lies wholly below the second
