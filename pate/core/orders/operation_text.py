"""The ``operation`` line of the order format (docs/formats/orders.md):

```
operation naval-superiority
operation rebase to Brest | to BIS | to blockade Plymouth
operation patrol | raid | privateer
operation protect-trade CHA BIS IBC      (sea zones from the fleet's port)
operation supply CHA BIS
operation transport FR1IN to Toulon
operation invasion FR1IN to Plymouth
operation transport FR1IN to Toulon return   (the fleet goes home after landing; default: it stays)
operation naval-superiority declare 1         (Britain only: its place in the round; default: last)
```

Limits are checked before anything else is read: a corps id of at most 32
characters, a port name of at most 40, at most ``CHAIN_MAX`` sea zones.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pate.core.orders.lexer import SEA_CODE, Cursor, bare_word_ok, keyword, quote
from pate.core.orders.operation import DECLARE_AT_MAX, MAY_RETURN, WITH_CHAIN, WITH_CORPS, Operation, OpKind

RULE = "EiA new naval rules"
CHAIN_MAX = 28  # data/rules/eia_operations.toml steps.chain_total: four legs of seven
NAME_MAX = 40
CORPS = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
KINDS = {keyword(k.value): k for k in OpKind}
BLOCKADE = "blockade"
RETURN = "return"
DECLARE = "declare"


def parse_operation(cur: Cursor) -> Operation | None:
    kind_word = cur.choice("operation", {k: k for k in KINDS})
    if kind_word is None:
        cur.finish()
        return None
    kind = KINDS[kind_word]
    options = _options(cur)
    if options is None:
        return None
    op = _parts(cur, kind)
    return replace(op, return_to_base=options[0], declare_at=options[1]) if op else None


def _options(cur: Cursor) -> tuple[bool, int] | None:
    """The options written at the end of the line, in any order: ``return``
    and ``declare N``."""
    back, at = False, 0
    while (tok := cur.last()) is not None:
        before = cur.last(2)
        if tok.word == RETURN and not back:
            back = bool(cur.take_last())
        elif before is not None and before.word == DECLARE and not at:
            cur.take_last()  # the number
            cur.take_last()  # `declare`
            if tok.quoted or not tok.text.isdigit() or not 1 <= int(tok.text) <= DECLARE_AT_MAX:
                cur.error(tok, f"declare: give the place in the round, 1 to {DECLARE_AT_MAX} ({RULE})")
                return None
            at = int(tok.text)
        else:
            break
    return back, at


def _parts(cur: Cursor, kind: OpKind) -> Operation | None:
    if kind in WITH_CORPS:
        return _corps(cur, kind)
    if kind in WITH_CHAIN:
        return _chain(cur, kind)
    if kind is OpKind.REBASE:
        return _rebase(cur)
    return Operation(kind)


def _to(cur: Cursor, what: str) -> str | None:
    tok = cur.take()
    if tok is None or tok.word != "to":
        cur.error(tok, f"{what}: write `to` and the destination")
        return None
    words = []
    while (nxt := cur.take()) is not None:
        words.append(nxt.text)
    name = " ".join(words)
    if not name:
        cur.error(None, f"{what}: name the destination after `to`")
        return None
    if len(name) > NAME_MAX:
        cur.error(tok, f"{what}: a destination of at most {NAME_MAX} characters ({RULE})")
        return None
    return name


def _rebase(cur: Cursor) -> Operation | None:
    to_tok = cur.take()
    if to_tok is None or to_tok.word != "to":
        cur.error(to_tok, "rebase: write `rebase to <port | sea area | blockade port>`")
        return None
    rest = list(iter(cur.take, None))
    blockade = len(rest) > 1 and rest[0].word == BLOCKADE
    name = " ".join(t.text for t in rest[1 if blockade else 0 :])
    if not name or len(name) > NAME_MAX:
        cur.error(
            to_tok, f"rebase: name a port or sea area of at most {NAME_MAX} characters ({RULE}, Rebase)"
        )
        return None
    return Operation(OpKind.REBASE, to=name, blockade=blockade)


def _corps(cur: Cursor, kind: OpKind) -> Operation | None:
    what = kind.value
    tok = cur.take()
    if tok is None or len(tok.text) > 32 or not CORPS.fullmatch(tok.text):
        shown = f", not {tok.text[:40]!r}" if tok else ""
        cur.error(tok, f"{what}: name the corps, a GITM land unit id of at most 32 letters and digits{shown}")
        return None
    to = _to(cur, what)
    return Operation(kind, corps=tok.text, to=to) if to else None


def _chain(cur: Cursor, kind: OpKind) -> Operation | None:
    what = kind.value
    zones: list[str] = []
    while (tok := cur.take()) is not None:
        if len(zones) >= CHAIN_MAX:
            cur.error(tok, f"{what}: at most {CHAIN_MAX} sea zones ({RULE}, {what})")
            return None
        code = tok.text.upper()
        if tok.quoted or not SEA_CODE.fullmatch(code):
            cur.error(tok, f"{what}: give three-letter sea area codes, not {tok.text[:40]!r}")
            return None
        zones.append(code)
    if not zones:
        cur.error(None, f"{what}: name the sea zones from the fleet's port, like `{what} CHA BIS`")
        return None
    return Operation(kind, chain=tuple(zones))


def format_operation(op: Operation) -> str:
    """The line of ``op``; ValueError when the line could not carry it whole (a part its kind
    does not take, such as a Patrol's corps, would be dropped silently, and the order read back
    from the text would not be the order given)."""
    _whole(op)
    parts = ["operation", keyword(op.kind.value)]
    if op.kind in WITH_CORPS:
        if not op.corps or not CORPS.fullmatch(op.corps):
            raise ValueError(f"{op.corps!r} is not a corps id")
        parts += [op.corps, "to", _name(op.to)]
    elif op.kind is OpKind.REBASE:
        parts += ["to"] + ([BLOCKADE] if op.blockade else []) + [_name(op.to)]
    elif op.kind in WITH_CHAIN:
        for code in op.chain:
            if not SEA_CODE.fullmatch(code):
                raise ValueError(f"{code!r} is not a three-letter sea area code")
        parts += list(op.chain)
    if op.return_to_base:
        parts.append(RETURN)
    if op.declare_at:
        parts += [DECLARE, str(op.declare_at)]
    return " ".join(parts)


def _whole(op: Operation) -> None:
    takes_to = op.kind in WITH_CORPS or op.kind is OpKind.REBASE
    extra = [
        what
        for what, given, takes in (
            ("corps", op.corps, op.kind in WITH_CORPS),
            ("destination", op.to, takes_to),
            ("blockade", op.blockade, op.kind is OpKind.REBASE),
            ("sea zones", op.chain, op.kind in WITH_CHAIN),
            ("return", op.return_to_base, op.kind in MAY_RETURN),
        )
        if given and not takes
    ]
    if not 0 <= op.declare_at <= DECLARE_AT_MAX:
        raise ValueError(f"declare: a place in the round of 1 to {DECLARE_AT_MAX}, not {op.declare_at}")
    if extra:
        raise ValueError(f"operation {keyword(op.kind.value)} takes " + ", ".join(f"no {e}" for e in extra))


def _name(name: str | None) -> str:
    if not name:
        raise ValueError("an operation's destination is missing")
    words = name.split(" ")
    bare = all(bare_word_ok(w) for w in words) and keyword(words[0]) != BLOCKADE
    return name if bare else quote(name)
