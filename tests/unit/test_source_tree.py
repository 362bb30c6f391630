"""The source tree stays readable by someone who has only the repository.

Two checks over every tracked file: no comment, docstring, document or data
file points at a tracker the reader cannot see (a numbered issue), and no
function or module outgrows what a newcomer can take in at a glance (about 60
lines a function, 400 a module; README.md, "How we build").
"""

from __future__ import annotations

import ast
import pickle
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Kept apart from the pattern's first word so that this file does not match itself.
TRACKER_REF = re.compile(r"\b" + "issue" + r"s?\s?#?\d", re.IGNORECASE)
BROKEN_REF = re.compile(r"\b" + "issue" + r"s?$", re.IGNORECASE)

FUNCTION_LIMIT = 60
MODULE_LIMIT = 400

# Written by tools, not by hand: generated from proto/ and database migrations.
GENERATED = ("pate/v1/", "gitm/v1/")
MIGRATIONS = "/migrations/"

# Functions and modules known to be too long, each still being split by
# someone else's work in progress (a name of "" stands for the module itself).
# This list must shrink to empty: an entry is removed when its function or
# module is split, and a test below fails on an entry that no longer names
# anything too long.
TOO_LONG_FOR_NOW: frozenset[tuple[str, str]] = frozenset()


@cache
def tracked_files() -> tuple[str, ...]:
    """Every file git tracks here, as a path relative to the root."""
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode()
    return tuple(p for p in out.split("\0") if p and (ROOT / p).is_file())


def text_of(path: str) -> str | None:
    """The file's text, or None for a binary file."""
    try:
        return (ROOT / path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def tracker_references(files: tuple[str, ...]) -> Iterator[str]:
    for path in files:
        lines = (text_of(path) or "").splitlines()
        for number, line in enumerate(lines, start=1):
            # the word at a line's end and its number at the next one's start, as in a docstring
            after = lines[number].strip().lstrip("#").strip() if number < len(lines) else ""
            if TRACKER_REF.search(line) or (BROKEN_REF.search(line) and TRACKER_REF.search(f"issue {after}")):
                yield f"{path}:{number}: {line.strip()}"


def handwritten_python(files: tuple[str, ...]) -> list[str]:
    return [
        p for p in files if p.endswith(".py") and not p.startswith(GENERATED) and MIGRATIONS not in f"/{p}"
    ]


def functions(tree: ast.Module) -> Iterator[tuple[str, int, int]]:
    """(qualified name, first line, length) of every function, nested ones too."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int, int]]:
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                end = child.end_lineno or child.lineno
                yield name, child.lineno, end - child.lineno + 1
            elif isinstance(child, ast.ClassDef):
                name = f"{prefix}{child.name}"
            yield from walk(child, f"{name}." if name != prefix else prefix)

    yield from walk(tree, "")


@cache
def parsed(text: str, path: str) -> ast.Module:
    """The module's syntax tree.  CPython 3.11's ast module keeps a recursion
    count that an earlier failure in the same process can leave unbalanced;
    every later parse there then fails with "AST constructor recursion depth
    mismatch" (seen once in a full run of the suite, in a worker that had run
    other tests first).  Such a process parses in a fresh interpreter."""
    try:
        return ast.parse(text, filename=path)
    except SystemError:
        script = "import ast, pickle, sys; sys.stdout.buffer.write(pickle.dumps(ast.parse(sys.stdin.read())))"
        out = subprocess.run(
            [sys.executable, "-c", script], input=text.encode(), capture_output=True, check=True
        )
        tree = pickle.loads(out.stdout)  # our own interpreter's output
        assert isinstance(tree, ast.Module)
        return tree


def oversized(files: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """(path, name, what) for every function and module over its limit."""
    return tuple(_oversized(files))


def _oversized(files: tuple[str, ...]) -> Iterator[tuple[str, str, str]]:
    for path in handwritten_python(files):
        text = text_of(path) or ""
        lines = len(text.splitlines())
        if lines > MODULE_LIMIT:
            yield path, "", f"{path}: module of {lines} lines (limit {MODULE_LIMIT})"
        if lines <= FUNCTION_LIMIT:
            continue  # no function in it can be longer than the file
        for name, first, length in functions(parsed(text, path)):
            if length > FUNCTION_LIMIT:
                yield path, name, f"{path}:{first}: {name} is {length} lines (limit {FUNCTION_LIMIT})"


def test_no_file_cites_a_tracker_number() -> None:
    """Say what the thing is and why, or point to the docs section that explains it."""
    found = list(tracker_references(tracked_files()))
    if found:
        pytest.fail("references to numbered issues:\n" + "\n".join(found), pytrace=False)


def test_no_function_or_module_is_too_long() -> None:
    found = [what for path, name, what in oversized(tracked_files()) if (path, name) not in TOO_LONG_FOR_NOW]
    if found:
        pytest.fail("split these along their seams:\n" + "\n".join(found), pytrace=False)


def test_the_allowance_for_long_code_names_only_what_is_still_long() -> None:
    """An entry whose function was split (or moved) must leave the allowance."""
    still = {(path, name) for path, name, _ in oversized(tracked_files())}
    stale = sorted(f"{path} {name or '(module)'}" for path, name in TOO_LONG_FOR_NOW - still)
    if stale:
        pytest.fail("remove from TOO_LONG_FOR_NOW:\n" + "\n".join(stale), pytrace=False)


def test_the_checks_see_what_they_are_meant_to_see() -> None:
    """The pattern catches the three spellings and spares ordinary prose."""
    word = "issue"  # never next to a number in this file
    caught = [f"see {word} 15", f"({word.title()} #3)", f"{word.title()}s 2 and 3"]
    spared = ["an issue of the Gazette", "issued 12 orders", "the issue's figures"]
    assert all(TRACKER_REF.search(s) for s in caught)
    assert not any(TRACKER_REF.search(s) for s in spared)
    body = "\n".join(f"    x = {i}" for i in range(FUNCTION_LIMIT))
    tree = ast.parse(f"class A:\n  def f():\n{body}\n")
    assert [(n, ln) for n, _, ln in functions(tree)] == [("A.f", FUNCTION_LIMIT + 1)]
