"""A port that changed hands on land, as GITM's land game reports it (docs/gitm.md "Port
holders", edition 3 of gitm.v1): the new holder, and whether its land force occupies the city,
which decides the fate of the port's hulks (EiA rule 12.2.8.2)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LandCapture:
    port: str
    captor: str  # the state that holds the city now
    occupied: bool  # a land unit of the captor stands in the city: hulks destroyed, not rolled for
