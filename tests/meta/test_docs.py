"""The repo's own documents hold what the code relies on: every decision the code cites is written
down in docs/decisions.md, its RFC quotations are the RFCs' words, and the version is said once."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import urlsift
from urlsift import _select

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "urlsift"
DECISIONS = ROOT / "docs" / "decisions.md"
RFC_FILES = {"1036": "rfc1036.txt", "1738": "rfc1738.txt", "3986": "rfc3986.txt"}

# "> RFC 1738 3.1: text", the form of every quotation in docs/decisions.md
_QUOTE = re.compile(r"^> RFC (\d+) ([^:]*): (.+)$", re.MULTILINE)
# An RFC's running page footer and header ("Berners-Lee, ... [Page 3]", "RFC 1738  ...  December 1994").
_PAGE_BREAK = re.compile(r"^.*\[Page \d+\]$|^RFC \d+ {2,}.*\d{4}$|\f", re.MULTILINE)


def _cited(text: str) -> set[int]:
    """The decision numbers a text cites: D19, and both ends and the inside of a range D1-D30."""
    numbers = {int(n) for n in re.findall(r"\bD(\d+)\b", text)}
    for low, high in re.findall(r"\bD(\d+)\s*[-\u2013]\s*D?(\d+)\b", text):
        numbers.update(range(int(low), int(high) + 1))
    return numbers


def _sections() -> list[int]:
    text = DECISIONS.read_text(encoding="utf-8")
    return [int(n) for n in re.findall(r"^### D(\d+) — ", text, re.MULTILINE)]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_every_decision_cited_in_the_code_is_in_the_decisions_file() -> None:
    cited: dict[int, list[str]] = {}
    # The native core's Rust cites them as the Python does (issue 31).
    for path in sorted([*SRC.rglob("*.py"), *(ROOT / "rust").rglob("*.rs")]):
        for number in _cited(path.read_text(encoding="utf-8")):
            cited.setdefault(number, []).append(str(path.relative_to(ROOT)))
    assert cited, "the check sees the citations"
    assert any(path.endswith(".rs") for paths in cited.values() for path in paths), "and reads the .rs files"
    missing = {number: paths for number, paths in cited.items() if number not in _sections()}
    assert not missing, f"cited in src/ but with no section in docs/decisions.md: {missing}"


def test_the_decisions_are_numbered_without_gaps_each_with_a_status() -> None:
    numbers = _sections()
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) >= 36
    for section in re.split(r"^### ", DECISIONS.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
        status = re.search(r"^Status: (.+?)\.$", section, re.MULTILINE | re.DOTALL)
        assert status is not None, section.splitlines()[0]
        said = status.group(1)
        assert said.startswith(("implemented in ", "decided, not yet implemented")), said
        for module in re.findall(r"`([\w/]+\.py)`", said):  # a module that moved leaves no stale name
            assert (SRC / module).exists(), (section.splitlines()[0], module)


def test_the_constants_the_decisions_name_exist() -> None:
    """``scanner.MAX_NAKED_CHARS`` and the like: a bound renamed in the code is renamed here too."""
    named = re.findall(r"`(\w+)\.([A-Z][A-Z_]+)`", DECISIONS.read_text(encoding="utf-8"))
    assert named, "the check sees the names"
    for module, name in named:
        assert hasattr(importlib.import_module(f"urlsift.{module}"), name), f"{module}.{name}"


def test_rfc_quotations_are_the_rfcs_words() -> None:
    """A quotation of an RFC the repo holds is in it word for word (line and page breaks aside; '…'
    marks a cut); one of an RFC the repo does not hold says it is not checked."""
    quotes = _QUOTE.findall(DECISIONS.read_text(encoding="utf-8"))
    assert len(quotes) > 50, "the check sees the quotations"
    texts = {
        number: _flat(_PAGE_BREAK.sub("", (ROOT / "corpora" / "rfc" / name).read_text(encoding="utf-8")))
        for number, name in RFC_FILES.items()
    }
    wrong: list[str] = []
    for number, section, quote in quotes:
        if number not in texts:
            assert "not checked" in section, f"RFC {number} is not in corpora/rfc: say '(not checked)'"
            continue
        wrong.extend(
            f"RFC {number} {section}: {piece!r}"
            for piece in (_flat(piece) for piece in quote.split("…"))
            if piece not in texts[number]
        )
    assert not wrong, "\n".join(wrong)


def test_readme_and_code_point_at_the_repos_decisions() -> None:
    for path in [ROOT / "README.md", *SRC.rglob("*.py")]:
        assert "shared/spec/DECISIONS" not in path.read_text(encoding="utf-8"), path
    assert "docs/decisions.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_version_is_written_once() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", urlsift.__version__)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [{urlsift.__version__}]" in changelog


def test_the_crates_version_is_the_packages() -> None:
    # maturin takes the wheel's version from Cargo.toml; _version.py is what the code reads.
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    assert cargo["workspace"]["package"]["version"] == urlsift.__version__


@pytest.mark.parametrize("arguments", [["--version"], ["validate", "--version"]])
def test_urlsift_version(arguments: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", *arguments], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"urlsift {urlsift.__version__} (core: {_select.CORE})\n"


@pytest.mark.parametrize("core", ["python", "rust"])
def test_urlsift_version_names_the_core(core: str) -> None:
    if core == "rust" and _select.NATIVE is None:
        pytest.skip("the native core is not built")
    environment = {**os.environ, "URLSIFT_CORE": core}
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", "--version"],
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )
    assert done.stdout == f"urlsift {urlsift.__version__} (core: {core})\n", done.stderr


def test_an_unknown_core_is_refused() -> None:
    environment = {**os.environ, "URLSIFT_CORE": "java"}
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", "--version"],
        capture_output=True,
        text=True,
        check=False,
        env=environment,
    )
    assert done.returncode != 0
    assert "URLSIFT_CORE='java'" in done.stderr


def test_the_license_ships_in_the_wheel() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert setuptools["project"]["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
