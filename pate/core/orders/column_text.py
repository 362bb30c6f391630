"""The ``column`` lines of the order format (docs/formats/orders.md): a fleet's
column orders, written in the lead ship's block beside its ``operation`` line.

```
column BR1SL BR3SL admiral nelson plan attack carrying then attack facing
column BR2SL BR4SL plan protect 1 then evade if outnumbered
column BR5TR
```

One line a column, in the order of the columns; its ships in their places.
Limits are checked before anything else is read: at most ``COLUMNS_MAX``
column lines, ``COLUMN_SHIPS_MAX`` ships and ``PLAN_MAX`` steps a line, an
admiral id of at most ``ADMIRAL_MAX`` characters.
"""

from __future__ import annotations

from pate.core.orders.lexer import Cursor, Problem, Token, bare_word_ok, keyword, quote, tokenize
from pate.core.orders.operation import (
    ADMIRAL_MAX,
    ATTACK_TARGETS,
    COLUMN_SHIPS_MAX,
    COLUMNS_MAX,
    PLAN_MAX,
    PROTECT_TARGETS,
    Column,
    ColumnAction,
    ColumnStep,
    Condition,
    is_place,
)

RULE = "EiA new naval rules, Naval Combat"
ADMIRAL = "admiral"
PLAN = "plan"
THEN = "then"
IF = "if"
RESERVED = frozenset({ADMIRAL, PLAN, THEN, IF})
ACTIONS: dict[str, str] = {a.value: a.value for a in ColumnAction}
CONDITIONS: dict[str, str] = {keyword(c.value): c.value for c in Condition if c is not Condition.ALWAYS}


def parse_column(cur: Cursor, written: int) -> Column | None:
    """One column line; ``written`` is how many the block has already.  A
    problem ends the reading of the line (one problem a line is enough)."""
    col = _column(cur, written)
    if col is None:
        while cur.take() is not None:
            pass
    return col


def _column(cur: Cursor, written: int) -> Column | None:
    if written >= COLUMNS_MAX:
        cur.error(cur.peek(), f"column: a fleet forms at most {COLUMNS_MAX} columns ({RULE})")
        return None
    ships = _ships(cur)
    if ships is None:
        return None
    admiral = None
    if (tok := cur.peek()) is not None and tok.word == ADMIRAL:
        cur.take()
        admiral = _admiral(cur)
        if admiral is None:
            return None
    plan: tuple[ColumnStep, ...] = ()
    if (tok := cur.peek()) is not None and tok.word == PLAN:
        cur.take()
        steps = _plan(cur)
        if steps is None:
            return None
        plan = steps
    return Column(ships, admiral, plan)


def read_plan(text: str) -> tuple[ColumnStep, ...]:
    """A plan written alone, ``attack carrying then evade if outnumbered`` (a battle
    spec's, pate.core.rules.eiaops.spec); ValueError naming the first problem."""
    problems: list[Problem] = []
    tokens = tokenize(text, 1, problems)
    cur = Cursor(tokens, 1, len(text) + 1, problems)
    steps = _plan(cur) if not problems else None
    if steps is not None:
        cur.finish()
    if problems or steps is None:
        raise ValueError(problems[0].message if problems else "plan: give its steps")
    return steps


def _ships(cur: Cursor) -> tuple[str, ...] | None:
    ships: list[str] = []
    while (tok := cur.peek()) is not None and tok.word not in (ADMIRAL, PLAN):
        if len(ships) >= COLUMN_SHIPS_MAX:
            cur.error(tok, f"column: at most {COLUMN_SHIPS_MAX} ships in a column ({RULE})")
            return None
        sid = cur.ship("column")
        if sid is None:
            return None
        ships.append(sid)
    if not ships:
        cur.error(cur.peek(), f"column: name its ships in their places, like `column BR1SL BR2SL` ({RULE})")
        return None
    return tuple(ships)


def _admiral(cur: Cursor) -> str | None:
    tok = cur.take()
    if tok is None or not tok.text or len(tok.text) > ADMIRAL_MAX or (tok.word in RESERVED):
        cur.error(tok, f"admiral: name the admiral who leads the column, at most {ADMIRAL_MAX} characters")
        return None
    return tok.text


def _plan(cur: Cursor) -> tuple[ColumnStep, ...] | None:
    steps: list[ColumnStep] = []
    while True:
        if len(steps) >= PLAN_MAX:
            cur.error(cur.peek(), f"plan: at most {PLAN_MAX} steps ({RULE})")
            return None
        step = _step(cur)
        if step is None:
            return None
        steps.append(step)
        tok = cur.peek()
        if tok is None:
            return tuple(steps)
        if tok.word != THEN:
            cur.error(tok, f"plan: join the steps with `then`, not {tok.text[:40]!r}")
            return None
        cur.take()


def _step(cur: Cursor) -> ColumnStep | None:
    word = cur.choice("plan", ACTIONS)
    if word is None:
        return None
    action = ColumnAction(word)
    target = ""
    if action is not ColumnAction.EVADE:
        target_tok = cur.take()
        target = _target(cur, action, target_tok)
        if not target:
            return None
    when = Condition.ALWAYS
    if (tok := cur.peek()) is not None and tok.word == IF:
        cur.take()
        cond = cur.choice("if", CONDITIONS)
        if cond is None:
            return None
        when = Condition(cond)
    return ColumnStep(action, target, when)


def _target(cur: Cursor, action: ColumnAction, tok: Token | None) -> str:
    named = ATTACK_TARGETS if action is ColumnAction.ATTACK else PROTECT_TARGETS
    if tok is not None and not tok.quoted:
        if tok.word in named:
            return tok.word
        if is_place(tok.text):
            return str(int(tok.text))
    shown = f", not {tok.text[:40]!r}" if tok else ""
    cur.error(
        tok,
        f"{action.value}: give a column's place, 1 to {COLUMNS_MAX}, or {', '.join(sorted(named))}{shown}",
    )
    return ""


def format_columns(columns: tuple[Column, ...]) -> list[str]:
    """The ``column`` lines of ``columns``; ValueError for what a line cannot carry."""
    return [_line(c) for c in columns]


def _line(col: Column) -> str:
    if not col.ships:
        raise ValueError("a column without ships")
    parts = ["column", *col.ships]
    if col.admiral is not None:
        name = col.admiral
        if not name or len(name) > ADMIRAL_MAX:
            raise ValueError(f"{name!r} is not an admiral id")
        bare = bare_word_ok(name) and keyword(name) not in RESERVED
        parts += [ADMIRAL, name if bare else quote(name)]
    if col.plan:
        parts.append(PLAN)
        for i, step in enumerate(col.plan):
            parts += ([THEN] if i else []) + _step_words(step)
    return " ".join(parts)


def _step_words(step: ColumnStep) -> list[str]:
    words = [step.action.value]
    if step.action is ColumnAction.EVADE:
        if step.target:
            raise ValueError("evade takes no target")
    else:
        named = ATTACK_TARGETS if step.action is ColumnAction.ATTACK else PROTECT_TARGETS
        if not (step.target in named or is_place(step.target)):
            raise ValueError(f"{step.action.value} {step.target!r}: not a target")
        words.append(step.target)
    if step.when is not Condition.ALWAYS:
        words += [IF, keyword(step.when.value)]
    return words
