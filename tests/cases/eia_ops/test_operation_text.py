"""Found by the campaign fuzzer (tests/fuzz/operations.py): the order text dropped the parts of
an operation its kind does not take, so a Patrol given a corps, a destination and sea zones was
written ``operation patrol`` and read back as another order than the one given (order format,
docs/formats/orders.md, "operation KIND ..."). An order the desk refuses as data (``operation.corps``:
"only Transport and Invasion name a corps") thus went through as text as a plain Patrol. Now such
an operation cannot be written as text (it goes as data, where the desk refuses it), and every
writable one reads back the same."""

from __future__ import annotations

import pytest

from pate.core.orders.model import ShipOrder
from pate.core.orders.operation import Operation, OpKind
from pate.core.orders.operation_text import format_operation
from pate.core.orders.text import parse_orders
from pate.core.orders.textout import format_orders

WRITABLE = (
    Operation(OpKind.NAVAL_SUPERIORITY),
    Operation(OpKind.PATROL),
    Operation(OpKind.RAID),
    Operation(OpKind.PRIVATEER),
    Operation(OpKind.REBASE, to="Brest"),
    Operation(OpKind.REBASE, to="BIS"),
    Operation(OpKind.REBASE, to="Plymouth", blockade=True),
    Operation(OpKind.PROTECT_TRADE, chain=("ECH", "BIS")),
    Operation(OpKind.SUPPLY, chain=("ECH",)),
    Operation(OpKind.TRANSPORT, corps="FR1IN", to="Toulon"),
    Operation(OpKind.INVASION, corps="FR1IN", to="Plymouth"),
)
UNWRITABLE = (
    (Operation(OpKind.PATROL, corps="BR1IN", to="ECH", chain=("ECH",)), "takes no corps"),
    (Operation(OpKind.RAID, to="Brest"), "takes no destination"),
    (Operation(OpKind.SUPPLY, chain=("ECH",), blockade=True), "no blockade"),
    (Operation(OpKind.REBASE, to="Brest", chain=("ECH",)), "no sea zones"),
    (Operation(OpKind.TRANSPORT, corps="FR1IN", to="Toulon", chain=("LIG",)), "no sea zones"),
)


@pytest.mark.parametrize("op", WRITABLE, ids=format_operation)
def test_an_operation_reads_back_as_written(op: Operation) -> None:
    order = ShipOrder("FR1SL", operation=op)
    assert parse_orders(format_orders([order])) == [order]


@pytest.mark.parametrize(("op", "said"), UNWRITABLE, ids=lambda x: str(getattr(x, "kind", x)))
def test_an_operation_with_parts_its_kind_does_not_take_is_not_written(op: Operation, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        format_operation(op)
    with pytest.raises(ValueError):
        format_orders([ShipOrder("FR1SL", operation=op)])
