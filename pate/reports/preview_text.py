"""A preview's summary in words (docs/rules/intel.md, "Previews"); the web
desk draws the same answer on the map (services/web/preview_page.py)."""

from __future__ import annotations

from pate.core.preview.model import Preview, ShipPreview


def _share(n: int, runs: int) -> str:
    return f"{round(100 * n / runs)}%" if runs else "0%"


def _ship_lines(s: ShipPreview, runs: int) -> list[str]:
    head = f"{s.id} {s.name}"
    if s.destination is None:
        lines = [f"{head}, ordered to stay:"]
    else:
        lines = [
            f"{head}, ordered to {s.destination}: reaches it in {s.reached} of {runs} runs "
            f"({_share(s.reached, runs)})."
        ]
    ends = "; ".join(f"{e.place} {_share(e.runs, runs)}" for e in s.ends)
    lines.append(f"  ends: {ends}")
    for m in s.meetings:
        kinds = ", ".join(k.replace("_", " ") for k in m.kinds)
        lines.append(f"  may meet {', '.join(m.ships)} at {m.place} in {m.runs} of {runs} runs ({kinds})")
    return lines


def preview_text(p: Preview) -> str:
    """The summary as the order panel shows it under the orders."""
    lines = [
        f"What may happen in turn {p.turn}: your orders played {p.runs} times against what your "
        "last report told you (enemies where they were seen, the winds by their chances)."
    ]
    if p.refusals:
        lines.append("Your draft orders were refused; nothing was played:")
        lines += [f"  {r}" for r in p.refusals]
    for s in p.ships:
        lines += _ship_lines(s, p.runs)
    return "\n".join(lines) + "\n"
