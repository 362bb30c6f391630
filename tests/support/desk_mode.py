"""Running the order-desk rule cases through the desk itself.

The rule cases of section 4 ask ``orders_world.check(order, world, actor)``
for the refusals of an order.  In "desk" mode that question goes through the
order service's own code on a real database: the world is stored as a
campaign's turn, the actor is a player with a password, and the order is
authenticated, checked and, when nothing refuses it, stored, exactly as a
SubmitOrders call does (services/orders/desk.py).  The same assertions then
hold of what the service answers.
"""

from __future__ import annotations

import itertools

from sqlalchemy import Engine

from pate.core.codec import canonical_json
from pate.core.orders.model import ShipOrder
from pate.core.rules.validation.orders import Actor, Refusal
from pate.core.world.state import WorldState
from services.orders import desk
from services.platform.security.auth import Authenticator
from services.platform.security.passwords import hash_password
from services.platform.store import repository as repo
from services.platform.store.db import reader

PASSWORD = "rule-case"
_ids = itertools.count(1)


class DeskBackend:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.hash = hash_password(PASSWORD)
        self.auth = Authenticator(engine)

    def check(self, order: ShipOrder, world: WorldState, actor: Actor) -> list[Refusal]:
        campaign = f"case-{next(_ids)}"
        self._store(campaign, world, actor)
        caller = desk.actor_of(self.auth.check_password(campaign, actor.player, PASSWORD, "rule-case"))
        with reader(self.engine) as conn:
            checked = desk.check_submission(
                conn, campaign, world.turn, caller, [order], "r-1", b"fingerprint"
            )
        refusals = [_unprefixed(r) for r in checked.refusals]
        if not refusals:
            with self.engine.begin() as conn:
                desk.record_submission(conn, campaign, world.turn, checked, [order], "r-1", b"fingerprint")
            with reader(self.engine) as conn:
                stored = repo.submitted_orders(conn, campaign, world.turn)
            assert [s.order for s in stored] == [order], "an accepted order is stored as sent"
        return refusals

    def _store(self, campaign: str, world: WorldState, actor: Actor) -> None:
        with self.engine.begin() as conn:
            repo.insert_campaign(
                conn,
                repo.CampaignRow(
                    id=campaign,
                    name="rule case",
                    scenario="inline",
                    seed=world.seed,
                    turns=world.turns,
                    turn=world.turn,
                    status="OPEN",
                    deadline=None,
                    turn_seconds=0,
                    combat_rules=world.combat_rules,
                ),
            )
            repo.save_world(conn, campaign, world.turn, world)
            repo.insert_players(
                conn,
                campaign,
                [
                    {
                        "id": actor.player,
                        "name": actor.player,
                        "state": actor.state,
                        "roles_json": canonical_json(sorted(r.value for r in actor.roles)),
                        "password_hash": self.hash,
                    }
                ],
            )


def _unprefixed(r: Refusal) -> Refusal:
    """The desk names fields within the request (``orders[0].movement``); the
    rule cases name them within the order."""
    field = r.field.removeprefix("orders[0].")
    return Refusal(field, r.rule, r.message, r.code)
