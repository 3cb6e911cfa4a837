"""The examples of README and of the documentation (docs/*.md), run as written, so they cannot drift
from what the code does.

The conventions (README, "Development"), for every page alike:

- ```console: a line ``$ COMMAND`` is run by bash from the repository's root, ``urlsift`` being
  this checkout's (``python -m urlsift``); the lines after it, up to the next ``$ ``, are what it
  writes on standard output and standard error together. Runs of spaces and tabs compare equal
  (README aligns with spaces the fields urlsift separates with tabs); a line ``...`` stands for any
  lines (none too), and ``...`` inside a line for any text.
- ```python: the blocks run in order, in one namespace, from the root. An expression statement
  followed by a comment that opens with a value (``# 'http://host/'``, ``# True: because ...``, on
  its line or the lines right after, continued at the same column) must give that value; a
  ``# Problem(position=14, ...)`` comment, an object of that type with those attributes. A block
  of ``>>>`` lines is a doctest. Each page has its own namespace.
- ```sh: the block must run (exit 0).
- ``<!-- readme-test: skip: WHY -->`` on the line right before a block skips it (network, a
  cluster, a big corpus, files written where it runs).
"""

from __future__ import annotations

import ast
import doctest
import io
import os
import re
import subprocess
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
"""README first: the page a newcomer reads, whose examples the first test asks for."""

_FENCE = re.compile(r"```(\w*)\s*")
_SKIP = re.compile(r"<!-- readme-test: skip: (\S.*?) -->")
_PROMPT = "$ "
_ANY = "..."


@dataclass(frozen=True)
class Block:
    page: str
    """Its page, from the repository's root (``README.md``, ``docs/guide.md``)."""
    language: str
    line: int
    """The page's line of its first line (after the fence)."""
    text: str
    skipped: str | None
    """Why the test leaves it out (its marker), or None."""


def blocks(markdown: str, page: str = "README.md") -> Iterator[Block]:
    """The fenced blocks of ``markdown``; a skip marker that no block follows is an error."""
    lines = markdown.splitlines()
    k = 0
    while k < len(lines):
        opened = _FENCE.fullmatch(lines[k])
        marker = _SKIP.fullmatch(lines[k])
        if marker is not None and (k + 1 == len(lines) or not _FENCE.fullmatch(lines[k + 1])):
            raise AssertionError(f"{page} line {k + 1}: a skip marker with no block right after it")
        if opened is None:
            k += 1
            continue
        end = next((j for j in range(k + 1, len(lines)) if lines[j].rstrip() == "```"), None)
        if end is None:
            raise AssertionError(f"{page} line {k + 1}: a block never closed")
        before = _SKIP.fullmatch(lines[k - 1]) if k else None
        text = "".join(line + "\n" for line in lines[k + 1 : end])
        yield Block(page, opened.group(1), k + 2, text, before.group(1) if before else None)
        k = end + 1


BLOCKS = [
    block for page in PAGES for block in blocks(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))
]


def _ids(block: Block) -> str:
    return f"{block.page}:{block.line}"


def _line_matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is ``expected``, spaces and tabs aside, each ``...`` in it any text."""
    pieces = [" ".join(piece.split()) for piece in expected.split(_ANY)]
    actual = " ".join(actual.split())
    if len(pieces) == 1:
        return actual == pieces[0]
    first, *middle, last = pieces
    if not actual.startswith(first) or len(actual) < len(first) + len(last) or not actual.endswith(last):
        return False
    at, stop = len(first), len(actual) - len(last)
    for piece in middle:  # leftmost first is right when the only wildcard is "any text"
        found = actual.find(piece, at, stop)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the lines ``actual`` are those ``expected`` (a line ``...``: any lines)."""
    at = {0}  # where in ``actual`` the expected lines so far may have ended
    for line in expected:
        if line.strip() == _ANY:
            at = set(range(min(at), len(actual) + 1)) if at else set()
        else:
            at = {k + 1 for k in at if k < len(actual) and _line_matches(line, actual[k])}
    return len(actual) in at


def sessions(block: Block) -> Iterator[tuple[int, str, list[str]]]:
    """A console block's commands: each one's README line, the command and its expected lines."""
    lines = block.text.splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith(_PROMPT)]
    assert starts[:1] == [0], f"{block.page} line {block.line}: a console block starts with '$ '"
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        yield block.line + start, lines[start][len(_PROMPT) :], lines[start + 1 : end]


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment the README's commands run in: ``urlsift`` is this checkout's."""
    bin_dir = tmp_path_factory.mktemp("bin")
    (bin_dir / "urlsift").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m urlsift "$@"\n')
    (bin_dir / "urlsift").chmod(0o755)
    path = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT / "src") + (os.pathsep + path if path else ""),
    }


CONSOLE = [block for block in BLOCKS if block.language == "console" and block.skipped is None]
SH = [block for block in BLOCKS if block.language == "sh" and block.skipped is None]


def test_the_readme_has_examples_to_run_and_none_unlabelled() -> None:
    readme = [block for block in CONSOLE if block.page == "README.md"]
    assert sum(len(list(sessions(block))) for block in readme) >= 3  # three examples, their output
    shown = [line for block in readme for _, _, lines in sessions(block) for line in lines]
    assert any(line.startswith('{"url": ') for line in shown), "README shows a jsonl line"
    assert any(block.page == "README.md" and block.language == "python" for block in BLOCKS)
    assert len(CONSOLE) >= 4
    assert sum(len(list(sessions(block))) for block in CONSOLE) >= 6
    assert sum(block.language == "python" and block.skipped is None for block in BLOCKS) >= 4
    for block in BLOCKS:  # a session in a block of another language would never be checked
        if block.language != "console":
            assert not block.text.startswith(_PROMPT), f"{block.page} line {block.line}: label it ```console"


@pytest.mark.parametrize("block", CONSOLE, ids=_ids)
def test_a_console_example_gives_the_output_shown(block: Block, shell: dict[str, str]) -> None:
    for line, command, expected in sessions(block):
        ran = subprocess.run(
            ["bash", "-c", command],
            cwd=ROOT,
            env=shell,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=60,
        )
        actual = ran.stdout.splitlines()
        assert output_matches(expected, actual), (
            f"{block.page} line {line}: $ {command}\n--- {block.page} shows:\n"
            + "\n".join(expected)
            + "\n--- it gives:\n"
            + "\n".join(actual)
        )


def test_the_shell_examples_run(shell: dict[str, str]) -> None:
    for block in SH:  # none today: each one needs the network or writes files
        ran = subprocess.run(
            ["bash", "-e", "-c", block.text], cwd=ROOT, env=shell, capture_output=True, text=True, timeout=60
        )
        assert ran.returncode == 0, f"{block.page} line {block.line}: exit {ran.returncode}\n{ran.stderr}"


PYTHON = [block for block in BLOCKS if block.language == "python" and block.skipped is None]


def test_the_python_examples_show_values_to_check() -> None:
    claims = 0
    for block in PYTHON:
        if block.text.lstrip().startswith(">>>"):
            continue
        lines = block.text.splitlines()
        tree = ast.parse(block.text)
        claims += sum(
            isinstance(statement, ast.Expr) and _shown(statement, lines, 1) is not None
            for statement in tree.body
        )
    assert claims >= 10  # the values checked: the examples' comments are read


@pytest.mark.parametrize("page", sorted({block.page for block in PYTHON}))
def test_the_python_examples_run_and_give_the_values_shown(
    page: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict[str, Any] = {"__name__": "readme"}
    for block in PYTHON:
        if block.page != page:
            continue
        if block.text.lstrip().startswith(">>>"):
            _doctest(block, namespace)
        else:
            _run_python(block, namespace)


def _doctest(block: Block, namespace: dict[str, Any]) -> None:
    test = doctest.DocTestParser().get_doctest(block.text, namespace, block.page, block.page, block.line - 1)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    runner.run(test, out=report.write, clear_globs=False)
    assert runner.failures == 0, report.getvalue()


def _run_python(block: Block, namespace: dict[str, Any]) -> int:
    """Runs a block statement by statement; returns how many values shown it checked."""
    tree = ast.parse(block.text, filename=block.page)
    ast.increment_lineno(tree, block.line - 1)  # tracebacks name the page's lines
    lines = block.text.splitlines()
    checked = 0
    for statement in tree.body:
        claim = _shown(statement, lines, block.line) if isinstance(statement, ast.Expr) else None
        if claim is None or not isinstance(statement, ast.Expr):
            exec(compile(ast.Module([statement], []), block.page, "exec"), namespace)
            continue
        value = eval(compile(ast.Expression(statement.value), block.page, "eval"), namespace)
        _check(value, claim, f"{block.page} line {statement.lineno}: {ast.unparse(statement)}")
        checked += 1
    return checked


def _shown(statement: ast.stmt, lines: list[str], first: int) -> ast.expr | None:
    """The value the comment after an expression shows, as an expression: a literal, or a call
    ``Type(name=literal, ...)``; None when the comment is prose (or there is none)."""
    assert statement.end_lineno is not None
    assert statement.end_col_offset is not None
    k = statement.end_lineno - first  # the statement's last line, in the block
    rest = lines[k][statement.end_col_offset :]
    column = lines[k].find("#", statement.end_col_offset) if rest.strip().startswith("#") else -1
    if column < 0:  # none on its line: the comment lines right under it
        k, column = k + 1, 0
        if k >= len(lines) or not lines[k].startswith("#"):
            return None
    said = [lines[k][column + 1 :]]
    for line in lines[k + 1 :]:  # continued at the same column
        if len(line) <= column or line[column] != "#" or line[:column].strip():
            break
        said.append(line[column + 1 :])
    return _value_first(" ".join(said))


def _value_first(comment: str) -> ast.expr | None:
    """The shortest start of ``comment`` that is a value (a literal, or ``Name(key=literal, ...)``)."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(comment).readline):
            start = comment[: token.end[1]].strip()  # one line: the comment's lines were joined
            if not start:
                continue
            try:
                found = ast.parse(start, mode="eval").body
            except SyntaxError:
                continue
            if _is_value(found):
                return found
            if not isinstance(found, ast.Name):  # a name may open a call; anything else is prose
                return None
    except (tokenize.TokenError, SyntaxError):  # prose that is no Python ("IRI's")
        pass
    return None


def _is_value(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
        return True
    except ValueError:
        pass
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and not node.args
        and all(keyword.arg is not None and _is_value(keyword.value) for keyword in node.keywords)
    )


def _check(value: object, claim: ast.expr, where: str) -> None:
    if not isinstance(claim, ast.Call):
        shown = ast.literal_eval(claim)
        assert value == shown, f"{where}\n    the page shows {shown!r}, it gives {value!r}"
        return
    assert isinstance(claim.func, ast.Name)
    assert type(value).__name__ == claim.func.id, f"{where}\n    the page shows a {claim.func.id}: {value!r}"
    for keyword in claim.keywords:
        assert keyword.arg is not None
        said, got = ast.literal_eval(keyword.value), getattr(value, keyword.arg)
        assert got == said, f"{where}\n    the page shows {keyword.arg}={said!r}, it gives {got!r}"


def test_the_example_checker_tells_a_wrong_output_from_a_right_one() -> None:
    assert output_matches(["a  b", "...", "z ... end"], ["a\tb", "x", "y", "z middle end"])
    assert output_matches(["a", "...", "b"], ["a", "b"])
    assert not output_matches(["a", "b"], ["a", "b", "c"])
    assert not output_matches(["a", "...", "c"], ["a", "b"])
    assert not output_matches(["at 12 (x) ... y"], ["at 13 (x) and y"])
    assert not output_matches(["a ... b ... c"], ["a c b"])
    assert _line_matches("(RFC 3986: ...): see", "(RFC 3986: '~', ...): see")
    _doctest(Block("README.md", "python", 1, ">>> 1 + 1\n2\n", None), {})
    with pytest.raises(AssertionError):
        _doctest(Block("README.md", "python", 1, ">>> 1 + 1\n3\n", None), {})
    lines = ["f(1)  # 'x': because", "g()", "# [1,", "#  2]", "h()  # prose, 3"]
    lines += ["k()  # Point(x=1,", "     #  y=2)"]
    tree = ast.parse("\n".join(lines))
    shown = [_shown(statement, lines, 1) for statement in tree.body]
    assert [None if s is None else ast.unparse(s) for s in shown] == [
        "'x'",
        "[1, 2]",
        None,
        "Point(x=1, y=2)",
    ]
