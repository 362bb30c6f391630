"""The admiral's column orders for his fleets' battles under the EiA new naval rules
(docs/rules/eia-operations.md, "Column orders"; docs/bots.md).

The text lets each player place his ships in columns and choose each column's action.  The
admiral sets them in advance, from his own fleet alone:

- a fleet carrying troops puts its transport groups in a convoy column, last, and its warships
  in an escort column before it that protects the convoy, then goes for the enemy's carrying
  ships; the convoy evades whenever it wins the contest;
- a fleet of warships only goes for the enemy's carrying ships first (what an interception is
  for), then a bold admiral for the weakest column, a cautious one for the column facing his;
  four warships or more form two columns (the side with more columns has the initiative), and
  a cautious admiral's columns evade when outnumbered;
- a single ship, or a fleet of transport groups only, leaves the columns to the default.

He names no admiral: his report does not tell which commanders are admirals (rule 12.2.7), and
an admiral the desk does not know would cost the fleet its operation.
"""

from __future__ import annotations

from pate.admiral.view import OwnShip
from pate.core.orders.operation import Column, ColumnAction, ColumnStep, Condition

TWO_COLUMNS_FROM = 4  # warships from which a fleet forms two columns
CONVOY = "TR"  # the type code of a transport group: a carrying ship as the desk counts it


def column_orders(fleet: list[OwnShip], bold: bool) -> tuple[Column, ...]:
    """Column orders for ``fleet`` (its lead first, then the ships attached to it), or none."""
    ships = [t.id for t in fleet]
    if len(ships) < 2:
        return ()
    convoy = tuple(t.id for t in fleet if t.type == CONVOY)
    war = tuple(t.id for t in fleet if t.type != CONVOY)
    if not war:
        return ()
    if convoy:
        escort = (ColumnStep(ColumnAction.PROTECT, "2"), ColumnStep(ColumnAction.ATTACK, "carrying"))
        return (Column(war, plan=escort), Column(convoy, plan=(ColumnStep(ColumnAction.EVADE),)))
    plan = [
        ColumnStep(ColumnAction.ATTACK, "carrying"),
        ColumnStep(ColumnAction.ATTACK, "weakest" if bold else "facing"),
    ]
    if not bold:
        plan.append(ColumnStep(ColumnAction.EVADE, "", Condition.OUTNUMBERED))
    if len(war) < TWO_COLUMNS_FROM:
        return (Column(war, plan=tuple(plan)),)
    return (Column(war[0::2], plan=tuple(plan)), Column(war[1::2], plan=tuple(plan)))
