"""A side's columns as its player ordered them (EiA new naval rules, "Naval
Combat": "Ships are placed in columns according to the players wishes, except
for carrying ships which must be placed last"), fitted to the ships the
battle finds (docs/rules/eia-operations.md, "Column orders").

The order desk refuses column orders the text forbids; what the battle
changes after the orders were given is settled here, never by a refusal:
a ship not in the battle leaves its place, a column left empty is not
formed, a ship the orders do not name (an ally of a combined operation, a
ship attached since) closes the last column before its carrying ships, and
every carrying ship, trade ships with them, goes last in the column of
carrying ships the orders formed (else the last column).
"""

from __future__ import annotations

from dataclasses import dataclass

from pate.core.orders.operation import Column, ColumnStep


@dataclass(frozen=True, slots=True)
class Formation:
    """One side's ordered columns in the battle."""

    columns: tuple[tuple[str, ...], ...]
    places: tuple[int, ...]  # each column's place in the orders, 1 = first
    leaders: tuple[int | None, ...]  # the rating of the admiral ordered to lead it, if present
    plans: tuple[tuple[ColumnStep, ...], ...]


def arrange(
    present: list[str],
    carrying: set[str],
    ordered: tuple[Column, ...],
    leader_rating: dict[str, int],
    max_columns: int,
) -> Formation:
    """``present``: the side's ships in the battle, in fleet order (trade ships
    last); ``carrying``: those carrying troops or trade; ``leader_rating``: the
    rating of each admiral present."""
    here = set(present)
    named: set[str] = set()
    cols: list[list[str]] = []
    for col in ordered[:max_columns]:  # a ship named twice keeps its first place
        cols.append([s for s in col.ships if s in here and s not in carrying and s not in named])
        named |= set(col.ships)
    if not cols:
        cols = [[]]
    cols[-1] += [s for s in present if s not in named and s not in carrying]
    convoy = next(
        (i for i, col in enumerate(ordered[:max_columns]) if any(s in carrying for s in col.ships)),
        len(cols) - 1,
    )
    in_order = list(
        dict.fromkeys(s for col in ordered[:max_columns] for s in col.ships if s in carrying and s in here)
    )
    cols[convoy] += in_order + [s for s in present if s in carrying and s not in in_order]
    kept = [i for i, col in enumerate(cols) if col]
    return Formation(
        columns=tuple(tuple(cols[i]) for i in kept),
        places=tuple(i + 1 for i in kept),
        leaders=tuple(_leader(ordered, i, leader_rating) for i in kept),
        plans=tuple(ordered[i].plan if i < len(ordered) else () for i in kept),
    )


def _leader(ordered: tuple[Column, ...], i: int, leader_rating: dict[str, int]) -> int | None:
    name = ordered[i].admiral if i < len(ordered) else None
    return leader_rating.get(name) if name is not None else None
