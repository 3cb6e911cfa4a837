"""urlsift on the corpora against the expected-results files of tests/expected/, which were
written down by reading each text (tests/expected/README.md says how and what the fields mean).

An entry's ``strict`` says what urlsift must do with it: ``valid``, report it; ``false``, report
it though it is no URL (a known false report, kept so a fix shows up here); ``rejected``, list it
among the rejected candidates (a real URL that RFC 1738 refuses, ``modern`` says what today's rules
would say); ``missed``, not report it (a real URL urlsift does not find)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from expected.review import rows

import urlsift

ROOT = Path(__file__).parents[2]
EXPECTED = sorted((ROOT / "tests" / "expected").glob("*/*.jsonl"))
STATES = {"valid", "false", "rejected", "missed"}

Key = tuple[Any, ...]


def corpus_file(expected: Path) -> Path:
    return ROOT / "corpora" / expected.parent.name / expected.name.removesuffix(".jsonl")


def key(entry: dict[str, Any]) -> Key:
    """Where and what: the message and part (mail), line, wrapper, URL and its other readings."""
    where = (entry["message"], entry["part"]) if "message" in entry else ()
    return (*where, entry["line"], entry["wrapper"], entry["url"], tuple(entry["alternatives"]))


def found(path: Path) -> tuple[Counter[Key], Counter[Key]]:
    """urlsift's valid and rejected candidates in ``path``, as expected-file keys."""
    every = rows(str(path))
    valid = Counter(key(entry) for entry in every if entry["strict"] == "valid")
    return valid, Counter(key(entry) for entry in every if entry["strict"] == "rejected")


def expected(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _listing(title: str, keys: Counter[Key]) -> str:
    lines = [f"{title} ({sum(keys.values())}):"]
    lines += [f"  {' | '.join(map(str, k))}" + (f"  x{n}" if n > 1 else "") for k, n in sorted(keys.items())]
    return "\n".join(lines)


def test_every_rfc_and_documentation_file_has_an_expected_file() -> None:
    texts = [p for folder in ("rfc", "text") for p in sorted((ROOT / "corpora" / folder).iterdir())]
    folder = ROOT / "tests" / "expected"
    missing = [p.name for p in texts if not (folder / p.parent.name / f"{p.name}.jsonl").exists()]
    assert missing == []
    assert (ROOT / "tests" / "expected" / "mail" / "mail-url-hard-cases.mbox.jsonl").exists()


@pytest.mark.parametrize("path", EXPECTED, ids=lambda path: path.name.removesuffix(".jsonl"))
def test_urlsift_finds_what_a_reader_found(path: Path) -> None:
    entries = expected(path)
    assert {entry["strict"] for entry in entries} <= STATES
    valid, rejected = found(corpus_file(path))
    reported = Counter(key(entry) for entry in entries if entry["strict"] in ("valid", "false"))
    refused = Counter(key(entry) for entry in entries if entry["strict"] == "rejected")
    missed = {entry["url"] for entry in entries if entry["strict"] == "missed"}
    problems = []
    if valid != reported:
        problems.append(_listing("expected but not reported", reported - valid))
        problems.append(_listing("reported but not expected", valid - reported))
    if refused - rejected:
        problems.append(_listing("expected among the rejected candidates but not there", refused - rejected))
    if found_now := sorted(missed & {k[-2] for k in valid}):
        problems.append(f"listed as missed but now reported (update the expected file): {found_now}")
    assert not problems, f"{corpus_file(path).relative_to(ROOT)}:\n" + "\n".join(problems)


def test_every_corpus_file_is_listed_with_its_origin() -> None:
    sources = (ROOT / "corpora" / "SOURCES.md").read_text(encoding="utf-8")
    listed = {line.split("|")[1].strip() for line in sources.splitlines() if line.startswith("| ")}
    files = [p.relative_to(ROOT / "corpora") for p in (ROOT / "corpora").rglob("*") if p.is_file()]
    unlisted = [
        str(p)
        for p in files
        if p.name != "SOURCES.md" and str(p) not in listed and not any(str(p).startswith(d) for d in listed)
    ]
    assert unlisted == []


MODERN_EXPECTED = [
    (path.name.removesuffix(".jsonl"), entry)
    for path in EXPECTED
    for entry in expected(path)
    if "modern" in entry
]


def test_what_strict_rejects_the_modern_profile_judges_as_written_down() -> None:
    """The expected files say, for each real URL RFC 1738 refuses, what today's rules say."""
    assert len(MODERN_EXPECTED) >= 20
    wrong = [
        (name, entry["url"], entry["modern"], str(urlsift.validate(entry["url"], "modern").error))
        for name, entry in MODERN_EXPECTED
        if urlsift.validate(entry["url"], "modern").valid != (entry["modern"] == "valid")
    ]
    assert wrong == []
