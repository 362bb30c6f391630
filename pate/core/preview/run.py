"""Play a player's draft orders against his own picture of the world.

The same engine as the turn: the draft orders are checked by the order desk's
own rules (:func:`~pate.core.rules.validation.orders.validate_order`) against the
pictured world, then each run resolves the turn with
:func:`~pate.core.campaign.resolve_submitted`, the resolver's own path, on a
copy of that world under a seed of its own.  The seeds come from (campaign,
player, turn, the draft orders) and nothing hidden, so a preview is the same
bytes every time it is asked for the same orders (docs/rules/intel.md, "Previews").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from pate.core.campaign import resolve_submitted
from pate.core.codec import canonical_json
from pate.core.events import Event
from pate.core.intel.model import PlayerKnowledge
from pate.core.orders.effective import Author, SubmittedOrder
from pate.core.orders.model import ShipOrder
from pate.core.orders.plain import order_to_dict
from pate.core.orders.refusal import INVALID, Actor, Refusal, authority
from pate.core.preview.model import DEFAULT_RUNS, MAX_MEETINGS, MAX_RUNS, End, Meeting, Preview, ShipPreview
from pate.core.preview.picture import Setting, picture_world
from pate.core.rng import Rng, derive_seed
from pate.core.rules.context import TurnContext
from pate.core.rules.detection import contact_groups
from pate.core.rules.validation.orders import validate_order
from pate.core.rules.winds import complete_winds
from pate.core.world.ships import AtSea, InPort, Location, contact_key, describe
from pate.core.world.state import Role, WorldState

IN_CONTACT = "in_contact"  # a meeting's kind: in contact when the turn ends (5.1)


def actor_of(k: PlayerKnowledge) -> Actor:
    """The player as his knowledge names him: never an administrator (a
    preview shows one player's picture, so it orders as that player)."""
    roles = {Role.COMMANDER} | ({Role.NAVAL_MINISTER} if k.naval_minister else set())
    return Actor(player=k.player, state=k.state, roles=frozenset(roles))


def preview_seed(k: PlayerKnowledge, orders: Sequence[ShipOrder]) -> int:
    """From the player, his turn and his draft orders, never the campaign's
    seed: the preview must not tell him the dice the turn will roll."""
    digest = canonical_json([order_to_dict(o) for o in orders])
    return derive_seed("preview", k.campaign, k.player, k.next_turn, digest)


def check_drafts(
    world: WorldState, actor: Actor, orders: Sequence[ShipOrder], ctx: TurnContext
) -> list[Refusal]:
    """The order desk's refusals (rule section 4), against the pictured world."""
    out: list[Refusal] = []
    seen: set[str] = set()
    for i, order in enumerate(orders):
        if order.ship_id in seen:
            out.append(Refusal(f"orders[{i}].ship_id", "4.1", "one order per ship in a request", INVALID))
            continue
        seen.add(order.ship_id)
        for r in validate_order(order, actor, world, ctx.map, ctx.rules):
            out.append(Refusal(f"orders[{i}].{r.field}", r.rule, r.message, r.code))
    return out


def preview(
    ctx: TurnContext,
    k: PlayerKnowledge,
    orders: Sequence[ShipOrder],
    setting: Setting,
    runs: int = DEFAULT_RUNS,
) -> Preview:
    """``runs`` resolutions of the turn (1 to MAX_RUNS) of the draft orders."""
    if not 1 <= runs <= MAX_RUNS:
        raise ValueError(f"runs: give 1 to {MAX_RUNS}")
    ctx = TurnContext(map=ctx.map, rules=ctx.rules)  # no dice a rule case fixed, no word from GITM
    world = picture_world(k, ctx.map, ctx.rules, setting)
    actor = actor_of(k)
    seed = preview_seed(k, orders)
    head = Preview(k.campaign, k.player, k.next_turn, runs, f"{seed:016x}")
    refusals = check_drafts(world, actor, orders, ctx)
    if refusals:
        return replace(head, refusals=tuple(refusals))
    submitted = [
        SubmittedOrder(o, authority(actor, world.ships[o.ship_id]) or Author.COMMANDER, i)
        for i, o in enumerate(orders)
    ]
    port_areas = {n: p.sea_area for n, p in ctx.map.ports.items()}
    own = frozenset(r.id for r in k.ships)
    tally = _Tally(world, own, port_areas, _not_his_side(world, own, k.state))
    dest: dict[str, str | None] = {}
    for n in range(runs):
        run_seed = derive_seed(seed, n)
        winds = complete_winds(ctx.map, ctx.rules, world.winds, Rng(derive_seed(run_seed, "winds")))
        start = replace(world, seed=run_seed, winds=winds)
        resolution = resolve_submitted(ctx, start, submitted)
        tally.add(resolution.result.state, resolution.result.events)
        # rule 4.2: an attached ship sails to where its lead's orders take it
        dest = {sid: destination(e.order) for sid, e in resolution.effective.items()}
    return replace(head, ships=tuple(tally.ship(r.id, r.name, dest.get(r.id)) for r in k.ships))


def _not_his_side(world: WorldState, own: frozenset[str], state: str | None) -> frozenset[str]:
    if state is None:
        return frozenset(world.ships) - own
    return frozenset(s.id for s in world.ships.values() if not world.diplomacy.allied(state, s.state)) - own


def _contacts(
    after: WorldState, own: frozenset[str], others: frozenset[str]
) -> list[tuple[str, tuple[str, ...]]]:
    """Rule 5.1: his ships ending the turn in contact with ships he knew of."""
    groups = contact_groups(after)
    out = []
    for sid in sorted(own):
        ship = after.ships.get(sid)
        key = contact_key(ship.location) if ship is not None and ship.active else None
        met = tuple(s for s in groups.get(key, ()) if s in others) if key is not None else ()
        if met:
            out.append((sid, met))
    return out


def destination(order: ShipOrder) -> str | None:
    """Rule 4.5: the port ordered, else the last sea area; None to stay."""
    m = order.movement
    if m.port is not None:
        return m.port
    return m.sea_areas[-1] if m.sea_areas else None


def _reached(loc: Location | None, dest: str | None) -> bool:
    if dest is None or loc is None:
        return False
    return (isinstance(loc, AtSea) and loc.area == dest) or (isinstance(loc, InPort) and loc.port == dest)


@dataclass
class _Tally:
    world: WorldState  # the pictured world, before any run
    own: frozenset[str]
    port_areas: Mapping[str, str]  # port -> its connected sea area (rule 1.3)
    others: frozenset[str]  # the ships he knows of that are not on his side
    ends: dict[str, Counter[Location | None]] = field(default_factory=dict)
    met: dict[str, Counter[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    kinds: dict[tuple[str, str, tuple[str, ...]], set[str]] = field(default_factory=dict)

    def add(self, after: WorldState, events: Sequence[Event]) -> None:
        """One run: where each of his ships ended, and whom it met: every
        event in which it and a ship he knows of, not on his side, both
        took part (a battle, a chase, an evasion), and the contact (5.1) it
        ends the turn in."""
        for sid in self.own:
            ship = after.ships.get(sid)
            self.ends.setdefault(sid, Counter())[ship.location if ship is not None else None] += 1
        met_now: set[tuple[str, str, tuple[str, ...]]] = set()
        for e in events:
            others = tuple(sorted(s for s in e.ships if s in self.others))
            for sid in sorted(self.own.intersection(e.ships)) if others else ():
                self._met(met_now, (sid, e.location, others), e.kind)
        for sid, others in _contacts(after, self.own, self.others):
            self._met(met_now, (sid, describe(after.ships[sid].location), others), IN_CONTACT)
        for sid, place, others in met_now:
            self.met.setdefault(sid, Counter())[(place, others)] += 1

    def _met(
        self, met_now: set[tuple[str, str, tuple[str, ...]]], key: tuple[str, str, tuple[str, ...]], kind: str
    ) -> None:
        met_now.add(key)
        self.kinds.setdefault(key, set()).add(kind)

    def ship(self, sid: str, name: str, dest: str | None) -> ShipPreview:
        ends = self.ends.get(sid, Counter())
        ranked = sorted(ends.items(), key=lambda kv: (-kv[1], _label(kv[0])))
        met = sorted(self.met.get(sid, Counter()).items(), key=lambda kv: (-kv[1], kv[0]))
        return ShipPreview(
            id=sid,
            name=name,
            destination=dest,
            reached=sum(n for loc, n in ends.items() if _reached(loc, dest)),
            ends=tuple(End(_label(loc), *self._where(loc), n) for loc, n in ranked),
            meetings=tuple(
                Meeting(place, others, tuple(sorted(self.kinds[(sid, place, others)])), n)
                for (place, others), n in met[:MAX_MEETINGS]
            ),
        )

    def _where(self, loc: Location | None) -> tuple[str | None, str | None]:
        if isinstance(loc, AtSea):
            return loc.area, None
        if isinstance(loc, InPort):
            return self.port_areas.get(loc.port), loc.port
        return None, None


def _label(loc: Location | None) -> str:
    return "lost" if loc is None else describe(loc)
