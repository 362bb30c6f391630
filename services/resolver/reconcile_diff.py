"""Every disagreement between PATE's world and GITM's snapshot of a campaign (edition 4,
docs/gitm.md "Reconciliation"), each with the rule that settles it, if one does.  Reads data
only: PATE's side as :class:`PateSide` (built from PATE's store, services/resolver/reconcile.py)
and GITM's ``LandSnapshot``.

Who settles what (docs/gitm.md "Reconciliation", rules R1 to R6):

- R1: a transfer PATE committed and the bridge delivered that GITM does not hold: GITM lost it
  (a restore from a backup); PATE sends the committed turns' calls again from that turn on, with
  their ids (``REPAIR``);
- R2: a transfer GITM holds open (BEGUN) that PATE completed or cancelled: the completion sent
  again (``REPAIR``);
- R3: a transfer GITM holds open that PATE never committed, of a turn PATE has committed: no
  call will ever settle it, so it is cancelled, freeing what it reserves (``REPAIR``);
- R4: a transfer GITM holds open (BEGUN) from a turn PATE has not committed yet (PATE restored
  from a backup): PATE's own resolution of that turn completes it by its id; should PATE's
  transfer differ, PATE undoes its own (B19) and R3 cancels GITM's once the turn is committed
  (``LATER``);
- R5: a city's garrison, stock or holder: GITM is the authority for the land; PATE takes GITM's
  figures at its next close (``UnitsNear``, ``PortHolders``) (``LATER``);
- R6: anything else (what is aboard a transport, a transfer both sides settled differently, a
  transfer GITM completed that PATE never committed, of any turn): no call of the contract takes
  a completion back, so no rule lets one side settle it: the two operators do (``OPERATOR``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gitm.v1 import land_pb2
from pate.core.world.geography import WorldMap
from pate.core.world.ships import InPort
from pate.core.world.state import WorldState
from services.resolver.bridge import Call
from services.resolver.gitm import Begin, Complete

REPAIR, LATER, OPERATOR = "repair", "later", "operator"
BEGUN, COMPLETED = land_pb2.TRANSFER_STATE_BEGUN, land_pb2.TRANSFER_STATE_COMPLETED
CANCELLED, REFUSED = land_pb2.TRANSFER_STATE_CANCELLED, land_pb2.TRANSFER_STATE_REFUSED
STATE_WORDS = {BEGUN: "begun", COMPLETED: "completed", CANCELLED: "cancelled", REFUSED: "refused"}


@dataclass(frozen=True, slots=True)
class PateSide:
    """What PATE's store says of a campaign: its world now (the start of its open turn), every
    committed turn's calls (turn 0: the open), the turns the bridge delivered, and the transfers
    PATE undid on GITM's refusal."""

    campaign: str
    world: WorldState
    calls: Mapping[int, Sequence[Call]]
    delivered: frozenset[int]
    undone: frozenset[str] = frozenset()

    def transfers(self) -> dict[str, tuple[int, Begin, Complete | None]]:
        out: dict[str, tuple[int, Begin, Complete | None]] = {}
        for turn in sorted(self.calls):
            for call in self.calls[turn]:
                if isinstance(call, Begin):
                    out[call.transfer_id] = (turn, call, None)
                elif isinstance(call, Complete) and call.transfer_id in out:
                    turn_of, begin, _ = out[call.transfer_id]
                    out[call.transfer_id] = (turn_of, begin, call)
        return out


@dataclass(frozen=True, slots=True)
class Disagreement:
    what: str  # "campaign", "transfer", "aboard", "garrison", "stock", "holder"
    subject: str  # a transfer id, a transport id, a city
    pate: str
    gitm: str
    settles: str  # REPAIR, LATER or OPERATOR
    rule: str  # R1..R6 and what it does

    def line(self) -> str:
        return f"{self.what} {self.subject}: PATE {self.pate}; GITM {self.gitm} [{self.settles}: {self.rule}]"


def _listed(items: Sequence[str] | set[str], supplies: int = 0) -> str:
    words = sorted(items) + ([f"{supplies} supplies"] if supplies else [])
    return ", ".join(words) or "nothing"


def compare(side: PateSide, snap: land_pb2.LandSnapshot, wmap: WorldMap) -> list[Disagreement]:
    return [*_transfers(side, snap), *_aboard(side, snap), *_ports(side, snap, wmap)]


def _transfers(side: PateSide, snap: land_pb2.LandSnapshot) -> list[Disagreement]:
    ours, theirs = side.transfers(), {x.transfer_id: x for x in snap.transfers}
    out: list[Disagreement] = []
    for tid, (turn, begin, done) in ours.items():
        if turn not in side.delivered or tid in side.undone:
            continue  # the bridge will send it / PATE took GITM's refusal: nothing moved on either side
        want = "cancelled" if done is not None and done.cancelled else "completed"
        g = theirs.get(tid)
        if g is None:
            out.append(Disagreement("transfer", tid, want, "does not hold it", REPAIR, "R1: sent again"))
        elif g.state == BEGUN:
            out.append(Disagreement("transfer", tid, want, "begun", REPAIR, "R2: the completion sent again"))
        elif g.state == REFUSED:
            rule = "R5: PATE undoes it at its next close (GetTransfer)"
            out.append(Disagreement("transfer", tid, want, "refused", LATER, rule))
        elif STATE_WORDS[g.state] != want or set(g.units) != set(begin.units) or g.supplies != begin.supplies:
            gitm = f"{STATE_WORDS.get(g.state, 'unknown')} ({_listed(g.units, g.supplies)})"
            pate = f"{want} ({_listed(begin.units, begin.supplies)})"
            out.append(Disagreement("transfer", tid, pate, gitm, OPERATOR, "R6: settled differently"))
    now = side.world.turn  # PATE's open turn: its transfers (and later ones) are not committed
    for tid, g in sorted(theirs.items()):
        if tid in ours or g.state in (CANCELLED, REFUSED):
            continue  # nothing of a cancelled or refused transfer moved
        word = STATE_WORDS.get(g.state, "unknown")
        pate = "has not committed its turn" if g.turn >= now else "never committed it"
        if g.state == BEGUN and g.turn >= now:
            rule = f"R4: PATE's resolution of turn {g.turn} completes it by its id (other content: R3 later)"
            out.append(Disagreement("transfer", tid, pate, word, LATER, rule))
        elif g.state == BEGUN:
            out.append(Disagreement("transfer", tid, pate, word, REPAIR, "R3: cancelled"))
        else:
            rule = "R6: GITM moved what PATE never moved"
            out.append(Disagreement("transfer", tid, pate, word, OPERATOR, rule))
    return out


def _aboard(side: PateSide, snap: land_pb2.LandSnapshot) -> list[Disagreement]:
    """PATE is the authority for the sea (docs/gitm.md "Who decides what"): what is aboard."""
    pate = {s.id: (set(s.cargo.units), s.cargo.supplies) for s in side.world.ships.values()}
    units: dict[str, set[str]] = {}
    for u in snap.units:
        if u.transport_id and not u.fate:
            units.setdefault(u.transport_id, set()).add(u.unit.id)
    supplies = {k.transport_id: k.supplies for k in snap.stocks if k.transport_id}
    out: list[Disagreement] = []
    for tid in sorted(
        set(units) | {t for t, n in supplies.items() if n} | {k for k, v in pate.items() if v[0] or v[1]}
    ):
        ours, n = pate.get(tid, (set(), 0))
        theirs, m = units.get(tid, set()), supplies.get(tid, 0)
        if ours != theirs or n != m:
            rule = "R6: what is aboard is PATE's; no call puts it right"
            out.append(Disagreement("aboard", tid, _listed(ours, n), _listed(theirs, m), OPERATOR, rule))
    return out


def _ports(side: PateSide, snap: land_pb2.LandSnapshot, wmap: WorldMap) -> list[Disagreement]:
    """The on-map ports where a PATE ship lies (those PATE asks about at its close): garrison and
    stock; every on-map city: its holder."""
    world = side.world
    watched = {
        s.location.port
        for s in world.ships.values()
        if s.active
        and isinstance(s.location, InPort)
        and s.location.port in wmap.ports
        and wmap.ports[s.location.port].on_gitm_map
    }
    city: dict[str, set[str]] = {}
    for u in snap.units:
        if u.city and u.unit.tactical_square and not u.fate and not u.transport_id:
            city.setdefault(u.city, set()).add(u.unit.id)
    stocks = {k.city: k.supplies for k in snap.stocks if k.city}
    holders = {h.port: h.state for h in snap.holders if h.state}
    rule = "R5: GITM's word, taken at PATE's next close"
    out: list[Disagreement] = []
    for name in sorted(watched):
        port = world.ports.get(name)
        if port is None:
            continue
        if set(port.garrison) != city.get(name, set()):
            out.append(
                Disagreement(
                    "garrison", name, _listed(port.garrison), _listed(city.get(name, set())), LATER, rule
                )
            )
        if port.supplies != stocks.get(name, 0):
            out.append(Disagreement("stock", name, str(port.supplies), str(stocks.get(name, 0)), LATER, rule))
    for name, state in sorted(holders.items()):
        port = world.ports.get(name)
        if port is not None and state != port.controller and state in world.diplomacy.states:
            out.append(Disagreement("holder", name, port.controller, state, LATER, rule))
    return out
