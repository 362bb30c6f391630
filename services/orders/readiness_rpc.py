"""PlayerDesk's calls for confirmed orders and messages between allies; mixed
into the PlayerDesk servicer, whose ``_caller`` and ``engine`` they use."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from services.orders import confirm, letters
from services.platform.errors import DeskError
from services.platform.runtime.rpc import abort, in_reader, in_transaction


class ReadinessRpcs:
    engine: Any
    _caller: Any

    async def ConfirmOrders(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)
        now = datetime.now(UTC)
        args = (request.campaign_id, request.turn, caller.player, request.confirmed, now)
        try:
            return await in_transaction(self.engine, lambda c: confirm.confirm(c, *args))
        except DeskError as err:
            await abort(context, err)

    async def SendMessage(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)
        now = datetime.now(UTC)
        try:
            return await in_transaction(
                self.engine,
                lambda c: letters.send(c, request.campaign_id, caller.player, caller.state, request, now),
            )
        except DeskError as err:
            await abort(context, err)

    async def ListMessages(self, request, context):  # type: ignore[no-untyped-def]  # noqa: N802
        caller = await self._caller(context, request.campaign_id)
        # opening his messages writes what he has read; a mere look (the desk's count) does not
        run = in_transaction if request.mark_read else in_reader
        try:
            return await run(
                self.engine,
                lambda c: letters.listing(
                    c, request.campaign_id, caller.player, caller.state, request.mark_read
                ),
            )
        except DeskError as err:
            await abort(context, err)
