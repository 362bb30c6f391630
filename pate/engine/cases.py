"""Rule cases as data: case files and their runner (docs/formats/cases.md).

A case file states one rule of the book as input and outcome: a small world
(a shipped scenario or one written inline), orders for each turn in the order
file format, the winds a case needs, and statements about the result.  The
runner plays the case through :func:`pate.engine.simulate.simulate`, the
engine behind ``pate campaign simulate``, so the cases test the rules as a
campaign plays them.  Statements about chances are checked as frequencies
over consecutive seeds.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pate.core.orders.lexer import OrderSyntaxError
from pate.core.orders.model import ShipOrder, StoresMove
from pate.core.orders.refusal import Refusal
from pate.core.rules.context import TurnContext
from pate.core.world.fields import Problems, Table
from pate.core.world.state import Wind, WorldState
from pate.engine.case_checks import RefusalCheck, Run
from pate.engine.case_dice import dice_faces
from pate.engine.case_lines import locate, order_problems
from pate.engine.case_orders import SYNTAX
from pate.engine.case_read import Expectation, TurnSpec, read_expectations, read_turns
from pate.engine.case_state import ReportCheck, ShipCheck
from pate.engine.case_world import case_world
from pate.engine.context import turn_context
from pate.engine.overrides import with_rules
from pate.engine.simulate import refusal_text, refused_ship, simulate

_TOP_KEYS = ("case", "scenario", "world", "treasury", "rules", "turn", "expect")
_HEADER_KEYS = ("rule", "title", "quote", "seed", "xfail", "placement", "note")


class CaseFileError(ValueError):
    """A case file that cannot be run; every problem is located as
    ``FILE:LINE: path: message``."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Case:
    path: Path
    rule: str
    title: str
    quote: str
    seed: int
    xfail: str | None
    world: WorldState
    place: bool  # rule 2.8 placement at the start
    turns: int
    orders: dict[int, list[ShipOrder]]
    winds: dict[int, dict[str, Wind]]
    stores_moves: dict[int, list[StoresMove]]  # rule 3.5, by turn
    refusals_allowed: frozenset[int]  # turns whose refusals need no refused_rule statement
    unreadable: dict[int, list[Refusal]]  # by turn: ships' blocks not in the order format, refused
    expectations: tuple[Expectation, ...]
    ctx: TurnContext  # the map and the rule data, with the case's [rules] changes

    @property
    def renders(self) -> bool:
        """Reports are rendered only for a case that states their text."""
        return any(isinstance(e.check, ReportCheck) for e in self.expectations)


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    failures: tuple[str, ...]
    measured: tuple[str, ...] = ()  # one line per statement: what was found

    @property
    def status(self) -> str:
        if self.case.xfail:
            return "XFAIL" if self.failures else "XPASS"
        return "FAIL" if self.failures else "PASS"

    @property
    def ok(self) -> bool:
        """A known failure is fine; an xfail case that passes is not (the
        engine changed: drop the mark)."""
        return self.status in ("PASS", "XFAIL")


# -- reading -------------------------------------------------------------------------
def is_scenario_file(path: Path) -> bool:
    """A scenario file kept beside the cases that use it (a ``[scenario]``
    table and no ``[case]``): not a case, so ``pate case run *.toml`` skips it."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return isinstance(raw.get("scenario"), dict) and "case" not in raw


def load_case(path: Path, ctx: TurnContext | None = None) -> Case:
    ctx = ctx or turn_context()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise CaseFileError([f"{path}: cannot read: {err.strerror}"]) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CaseFileError([f"{path}: not valid TOML: {err}"]) from None
    problems = Problems()
    located: list[str] = []  # problems of a scenario file beside the case, by its own lines
    case = _read(path, raw, ctx, problems, text, located)
    if problems or located or case is None:
        raise CaseFileError([locate(path, text, item) for item in problems.items] + located)
    return case


def _read(
    path: Path, raw: dict[str, Any], ctx: TurnContext, problems: Problems, text: str, located: list[str]
) -> Case | None:
    top = Table(raw, "", problems)
    top.check_keys(_TOP_KEYS)
    head = top.table("case", required=True)
    if head is None:
        return None
    head.check_keys(_HEADER_KEYS)
    rule, title, quote = head.str_("rule"), head.str_("title"), head.str_("quote")
    seed = head.int_("seed", lo=0, hi=2**63 - 1) if "seed" in head else None
    xfail = head.opt_str("xfail")
    head.opt_str("note")
    placement = head.opt_str("placement")
    if placement not in (None, "random", "as_given"):
        problems.add(head.where("placement"), "'random' or 'as_given'")
    ctx = with_rules(top.table("rules"), ctx, problems)
    turns = read_turns(
        top, ctx.map, problems, lambda i, err: order_problems(text, i, err), dice_faces(ctx.rules)
    )
    fixed = tuple((i + 1, k, v) for i, t in enumerate(turns) for k, v in t.dice.items())
    ctx = replace(ctx, fixed_dice=fixed)
    expectations = read_expectations(top, ctx.map, problems, len(turns))
    if "expect" not in top:  # a case that states nothing would pass whatever the engine did
        problems.add("expect", "state what must be true: give at least one [[expect]]")
    unreadable = _unreadable(turns, expectations, problems, text)
    count = max([len(turns), 1, *(e.turn for e in expectations)])
    kinds = tuple(t.kind for t in turns) + (None,) * (count - len(turns))
    loaded = case_world(path, top, ctx, problems, count, seed, placement, kinds, located)
    if loaded is not None:
        _check_names(loaded[0], expectations, _created(top), problems)
    if loaded is None or problems or None in (rule, title, quote):
        return None
    world, place = loaded
    assert rule and title and quote
    return Case(
        path=path,
        rule=rule,
        title=title,
        quote=quote,
        seed=world.seed,
        xfail=xfail,
        world=world,
        place=place,
        turns=count,
        orders={i + 1: t.orders for i, t in enumerate(turns)},
        winds={i + 1: t.winds for i, t in enumerate(turns) if t.winds},
        stores_moves={i + 1: t.stores_moves for i, t in enumerate(turns) if t.stores_moves},
        refusals_allowed=frozenset(i + 1 for i, t in enumerate(turns) if t.refusals_allowed),
        unreadable=unreadable,
        expectations=tuple(expectations),
        ctx=ctx,
    )


def _unreadable(
    turns: list[TurnSpec], expectations: list[Expectation], problems: Problems, text: str
) -> dict[int, list[Refusal]]:
    """A ship's orders not in the order format: refused, where a statement
    expects it (``refused_rule = "syntax"``), else a problem of the file at
    its line.  (The order desk refuses such a submission whole; a case
    refuses that ship's block, so that the rest of the turn still plays.)"""
    expected = {
        (e.turn, e.check.ship)
        for e in expectations
        if isinstance(e.check, RefusalCheck) and e.check.rule == SYNTAX
    }
    out: dict[int, list[Refusal]] = {}
    for i, t in enumerate(turns):
        for sid, found in t.unreadable.items():
            located = order_problems(text, i, OrderSyntaxError(found))
            if (i + 1, sid) in expected:
                words = "; ".join(message for _, message in located)
                out.setdefault(i + 1, []).append(Refusal(f"{sid}.orders", SYNTAX, words, "invalid_argument"))
                continue
            for path, message in located:
                problems.add(path, message)
    return out


def _created(top: Table) -> set[str]:
    """Ships a statement says are made in play (``created = true``: prizes,
    divided groups), which other statements may then name too."""
    out: set[str] = set()
    for _, t in top.array_of_tables("expect"):
        if t.data.get("created") is True and isinstance(t.data.get("ship"), str):
            out.add(t.data["ship"])
    return out


def _check_names(
    world: WorldState, expectations: list[Expectation], created: set[str], problems: Problems
) -> None:
    from pate.core.world.ships import parse_ship_id

    for sid in sorted(created):
        if sid in world.ships:
            problems.add("expect", f"created = true, but {sid} is in the world at the start")
        elif parse_ship_id(sid) is None:
            problems.add("expect", f"{sid!r} is not a ship id (e.g. FR12FR)")
    known = set(world.ships) | created

    def check(e: Expectation, key: str, sid: str) -> None:
        if sid.startswith("stores["):  # a store move's refusal (store_move = i)
            return
        if sid and sid not in known:
            problems.add(f"expect[{e.index}].{key}", f"no ship {sid} in the world")

    for e in expectations:
        made_from = getattr(e.check, "made_from", None)
        if made_from is not None:
            check(e, made_from[0], made_from[1])
        for key in ("ship", "with_ship", "near"):
            named = getattr(e.check, key, None)
            if named is not None and not (key == "ship" and made_from is not None):
                check(e, "with" if key == "with_ship" else key, named)
        for sid in getattr(e.check, "ships", ()):
            check(e, "ships", sid)
        for sid in getattr(e.check, "witnesses", ()):
            check(e, "witnesses", sid)
        attributes = getattr(e.check, "attributes", {})
        if attributes.get("attached_to"):
            check(e, "attached_to", attributes["attached_to"])
        for key in ("commander", "deputy"):
            who = attributes.get(key)
            if isinstance(e.check, ShipCheck) and who and who not in world.players:
                problems.add(f"expect[{e.index}].{key}", f"no player {who} in the world")
        if isinstance(e.check, ReportCheck) and e.check.player not in world.players:
            problems.add(f"expect[{e.index}].report", f"no player {e.check.player} in the world")


# -- running -----------------------------------------------------------------------------
def play(case: Case, seed: int) -> Run:
    """The case's turns with this seed.  An order the order desk refuses is
    recorded and left out (the ship takes its default orders)."""
    outs = list(
        simulate(
            case.ctx,
            case.world,
            campaign="case",
            seed=seed,
            turns=case.turns,
            orders=case.orders,
            render=case.renders,
            place=case.place,
            winds=case.winds,
            strict=False,
            stores_moves=case.stores_moves,
        )
    )
    refusals = {o.turn: case.unreadable.get(o.turn, []) + list(o.refusals) for o in outs}
    refusals = {turn: refused for turn, refused in refusals.items() if refused}
    reports = tuple(o.reports for o in outs)
    return Run(seed, tuple(o.world for o in outs), tuple(o.events for o in outs), refusals, reports)


def run_case(case: Case) -> CaseResult:
    runs: dict[int, Run] = {}

    def run(seed: int) -> Run:
        if seed not in runs:
            runs[seed] = play(case, seed)
        return runs[seed]

    failures: list[str] = []
    measured: list[str] = []
    for e in case.expectations:
        failure, summary = _judge(case, e, run)
        measured.append(summary)
        if failure:
            failures.append(failure)
    failures += _unexpected_refusals(case, runs.values())
    for turn, refused in sorted(run(case.seed).refusals.items()):  # the words of each, for -v
        measured += [f"turn {turn}: order refused: {refusal_text(r)}" for r in refused]
    return CaseResult(case, tuple(failures), tuple(measured))


def _judge(case: Case, e: Expectation, run: Callable[[int], Run]) -> tuple[str | None, str]:
    """The failure (None if the statement holds) and a one-line summary."""
    if not e.runs:
        ok, actual = e.check.holds(run(case.seed), e.turn)
        summary = f"{e.name()}: {e.check.says()}: {'yes' if ok else 'no'}"
        if ok:
            return None, summary
        return f"{e.name()}: expected {e.check.says()}; got {actual}{_note(e)}", summary
    held = 0
    example = ""
    for seed in range(case.seed, case.seed + e.runs):
        ok, actual = e.check.holds(run(seed), e.turn)
        held += ok
        if not ok and not example:
            example = f"; e.g. seed {seed}: {actual}"
    share = held / e.runs
    lo, hi = e.chance
    want = "in every run" if lo == hi == 1.0 else f"in {lo:g} to {hi:g} of the runs"
    summary = f"{e.name()}: {e.check.says()}: {held} of {e.runs} ({share:.3f}), wanted {want}"
    if lo <= share <= hi:
        return None, summary
    failure = (
        f"{e.name()}: expected {e.check.says()} {want}; "
        f"got {held} of {e.runs} ({share:.3f}){example}{_note(e)}"
    )
    return failure, summary


def _note(e: Expectation) -> str:
    return f" [{e.note}]" if e.note else ""


def _unexpected_refusals(case: Case, runs: Any) -> list[str]:
    """A refusal no ``refused_rule`` statement foresaw is a failure."""
    foreseen = {(e.turn, getattr(e.check, "ship", "")) for e in case.expectations if hasattr(e.check, "rule")}
    out: list[str] = []
    for r in sorted(runs, key=lambda r: r.seed):
        for turn, refused in sorted(r.refusals.items()):
            if turn in case.refusals_allowed:
                continue  # the turn states the end state alone
            for ref in refused:
                if (turn, refused_ship(ref)) not in foreseen:
                    out.append(f"turn {turn} (seed {r.seed}): order refused: {refusal_text(ref)}")
        if out:
            break
    return out
