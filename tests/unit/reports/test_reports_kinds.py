"""Every event kind the engine emits has its words in the event report's
table (rule 3.11), found two ways: by reading the engine's source for the
kinds it names, and by running real turns and collecting what comes out."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest
from real_turns import engine_turns

from pate.core.intel.knowledge import knowledge_for
from pate.core.rules.combat.model import Outcome
from pate.core.rules.gathering import INTEL_KINDS
from pate.engine.context import turn_context
from pate.reports import events as report_events
from pate.reports import render_reports
from pate.reports.events import PHRASES, event_sentence
from pate.reports.intel import EARLIER, intelligence_items

CORE = Path(__file__).resolve().parents[3] / "pate" / "core"
ENGINE_SOURCES = sorted((CORE / "rules").rglob("*.py"))
# Calls whose string arguments name an event kind (and ``*_event`` helpers);
# ``Event(phase, kind, ...)`` names it second.
EMITTERS = frozenset({"emit", "event", "_held"})


def _strings(node: ast.AST, constants: dict[str, str]) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _strings(node.body, constants) + _strings(node.orelse, constants)
    if isinstance(node, ast.Name) and node.id in constants:
        return [constants[node.id]]
    return []


def _constants(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    out[target.id] = node.value.value
    return out


def _name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return call.func.id if isinstance(call.func, ast.Name) else None


def kinds_in_source() -> dict[str, str]:
    """kind -> file, for every kind named in a call that emits an event."""
    found: dict[str, str] = {}
    for path in ENGINE_SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _constants(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            values = [v for kw in node.keywords if kw.arg == "kind" for v in _strings(kw.value, constants)]
            name = _name(node) or ""
            if name in EMITTERS or name.endswith("_event"):
                for arg in node.args:
                    values += _strings(arg, constants)
            if name == "Event" and len(node.args) > 1:
                values += _strings(node.args[1], constants)
            for value in values:
                if value.replace("_", "").isalpha() and value.islower():
                    found.setdefault(value, path.name)
    # combat/apply.py emits ``outcome.value`` for the ships that got away
    for outcome in (Outcome.ESCAPED, Outcome.EVADED):
        found.setdefault(outcome.value, "apply.py")
    return found


def test_the_source_scan_finds_the_engine_kinds() -> None:
    """The scan can fail: it must see kinds of every phase."""
    found = kinds_in_source()
    for kind in ("sailed", "held_by_wind", "storm_damage", "battle", "captured", "repaired", "joined_battle"):
        assert kind in found
    assert set(INTEL_KINDS) <= set(found)


def test_every_kind_named_in_the_engine_has_words() -> None:
    missing = {kind: where for kind, where in kinds_in_source().items() if kind not in PHRASES}
    assert missing == {}


@pytest.fixture(scope="module")
def emitted() -> Counter[str]:
    return Counter(e.kind for turn in engine_turns() for e in turn.events)


def test_real_turns_emit_the_kinds_of_every_phase(emitted: Counter[str]) -> None:
    for kind in ("sailed", "arrived", "battle", "captured", "repaired"):
        assert emitted[kind] > 0, kind


def test_every_kind_emitted_by_real_turns_has_words(emitted: Counter[str]) -> None:
    assert sorted(k for k in emitted if k not in PHRASES) == []


def test_every_observed_event_is_told_without_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each player's events of the real turns are told through the table:
    the fallback (name and detail) is never reached, and no sentence is empty."""

    def no_fallback(t: object) -> str:
        raise AssertionError(f"no words for {getattr(t, 'kind', '?')}")

    monkeypatch.setattr(report_events, "fallback", no_fallback)
    ctx = turn_context()
    told = Counter()
    for turn in engine_turns():
        for player in sorted(turn.after.players):
            k = knowledge_for(player, turn.before, turn.after, turn.events, ctx.map, ctx.rules)
            for ev in k.events:
                text = event_sentence(k, ev, ctx.map)
                assert text.endswith(".") and text[0].isupper(), text
                assert "_" not in text.replace("BR1TR", ""), text  # no raw keys or kinds
                told[ev.kind] += 1
            for kind, text in intelligence_items(k, ctx.map):
                # the picture's earlier sightings are told with them, and are no event
                assert (kind in PHRASES or kind == EARLIER) and text.endswith("."), text
            render_reports(k, ctx.map)
    assert told["battle"] > 0 and told["sailed"] > 0
