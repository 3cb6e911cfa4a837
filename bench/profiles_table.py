"""docs/conformance.md's table of URLs that the strict and the modern profile judge differently.

    python bench/profiles_table.py > table.md

Reads tests/expected/profiles.tsv (url, strict verdict, modern verdict, rule; test_modern.py holds
both profiles to it) and prints each URL with both verdicts as urlsift gives them: the reason of a
rejection, the warnings of an acceptance.
"""

from __future__ import annotations

from pathlib import Path

import urlsift

TABLE = Path(__file__).parents[1] / "tests" / "expected" / "profiles.tsv"


def said(verdict: urlsift.Verdict) -> str:
    if verdict.error is not None:
        return f"invalid: {verdict.error.message}"
    warnings = "; ".join(caveat.message for caveat in verdict.warnings)
    return "valid" + (f" (warning: {warnings})" if warnings else "")


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def main() -> None:
    rows = [line.split("\t") for line in TABLE.read_text(encoding="utf-8").splitlines() if line[:1] != "#"]
    print("| URL | strict (RFC 1738) | modern | the rule |")
    print("| --- | --- | --- | --- |")
    for url, _, _, rule in rows:
        strict, modern = urlsift.validate(url, urlsift.STRICT), urlsift.validate(url, urlsift.MODERN)
        print(f"| `{cell(url)}` | {cell(said(strict))} | {cell(said(modern))} | {cell(rule)} |")


if __name__ == "__main__":
    main()
