"""The gitm.v1 calls PATE makes, as data (docs/gitm.md "A campaign, call by call"): what the
bridge builds from a committed turn (services/resolver/gitm_calls.py) and the client sends
(services/resolver/gitm.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pate.core.world.state import LandUnit


@dataclass(frozen=True, slots=True)
class Begin:
    """BeginTransfer: the initial amphibious phase of rule 3.6."""

    transfer_id: str
    campaign: str
    turn: int
    port: str
    transport: str
    direction: str  # "load" | "unload"
    units: tuple[str, ...]
    supplies: int
    state: str = ""  # the transport group's state, so GITM can refuse others' units
    hold_id: str = ""  # edition 4: the hold UnitsNear gave for the port at the close ("" none)
    hold_expires_at: int = 0  # when that hold ends, seconds since 1970


@dataclass(frozen=True, slots=True)
class Complete:
    """CompleteTransfer: the final amphibious phase of rule 3.9 (cancelled when lost)."""

    transfer_id: str
    cancelled: bool
    campaign: str = ""  # edition 4 (P7): every request names its campaign


@dataclass(frozen=True, slots=True)
class CargoLoss:
    """ReportCargoLoss: a transport sank, foundered (lost) or was taken
    (captured) with cargo aboard, from the core's ``cargo_lost`` /
    ``cargo_captured`` events."""

    loss_id: str
    campaign: str
    turn: int
    transport: str
    captured: bool
    units: tuple[str, ...]
    supplies: int
    captor: str = ""


@dataclass(frozen=True, slots=True)
class CargoMoves:
    """ReportCargoMoves: cargo that changed transport group in a turn (rule
    2.5: a divide or a combine), from the core's ``group_divided`` /
    ``groups_combined`` events.  ``moves``: (from, to, units, supplies)."""

    move_id: str
    campaign: str
    turn: int
    moves: tuple[tuple[str, str, tuple[str, ...], int], ...]


@dataclass(frozen=True, slots=True)
class Sightings:
    """ReportSightings: rule 5.3's shore reports of one turn, one call per turn.
    ``reports``: (port, for_state, ((ship, state, type), ...))."""

    report_id: str
    campaign: str
    turn: int
    reports: tuple[tuple[str, str, tuple[tuple[str, str, str], ...]], ...] = field(default=())
    next_close: int = 0  # edition 4 (A1): when PATE's next turn closes, seconds since 1970; 0 unknown


@dataclass(frozen=True, slots=True)
class OpenCampaign:
    """OpenCampaign: a campaign starts, with its land units and supplies where
    they start (docs/gitm.md "A campaign"); sent with turn 0."""

    campaign: str
    scenario: str
    turns: int
    # (unit, city or "", transport or "", tactical square)
    units: tuple[tuple[LandUnit, str, str, bool], ...]
    stocks: tuple[tuple[str, str, int], ...]  # (city or "", transport or "", supplies)
    holders: tuple[tuple[str, str], ...] = ()  # edition 3: (city, state holding it)
    data_digest: str = ""  # edition 4 (A9): the digest of PATE's contract data


@dataclass(frozen=True, slots=True)
class CloseCampaign:
    """CloseCampaign: the campaign's last turn is delivered."""

    campaign: str
    last_turn: int
    laden: tuple[Laden, ...] = ()  # edition 4 (A24): the transport groups with cargo aboard


@dataclass(frozen=True, slots=True)
class Laden:
    """A transport group with cargo aboard at the close, and the on-map city it lies in ("")."""

    transport: str
    city: str
    units: tuple[str, ...]
    supplies: int
