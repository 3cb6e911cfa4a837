"""A reading aid for the expected-results files: each candidate beside the lines it came from, and
every line with a URL-looking token that no candidate covers (what the scanner may have missed).

    python tests/expected/review.py corpora/rfc/rfc1738.txt            # read it
    python tests/expected/review.py corpora/rfc/rfc1738.txt --draft    # a first draft, to correct

The draft is urlsift's own output and proves nothing: an expected file is what a person wrote down
after reading the text with this listing beside it (README.md in this folder says how).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from urlsift.results import results
from urlsift.rows import Options, Row, Tally

_URLISH = re.compile(r"(?i)[a-z][a-z0-9+.-]*://|\b(?:mailto|news|telnet|wais|prospero|file):|<URL:")


def rows(path: str) -> list[dict[str, Any]]:
    """urlsift's candidates in ``path`` (valid and rejected), as expected-file entries."""
    found = []
    for row in results(path, Options(invalid=True), Tally()):
        if not isinstance(row, Row):
            continue
        entry: dict[str, Any] = {}
        if row.message is not None:
            entry.update(message=row.message, part=row.part)
        entry.update(line=row.line, wrapper=row.wrapper, url=row.url, alternatives=list(row.alternatives))
        entry.update(strict="valid" if row.valid else "rejected")
        if row.error is not None:
            entry["error"] = row.error
        found.append(entry)
    return found


def show(path: str) -> None:
    text = Path(path).read_bytes().decode("utf-8", "replace").split("\n")
    found = rows(path)
    covered: set[int] = set()
    for entry in found:
        if "message" in entry:  # an mbox: lines are within a part; show the entry alone
            print(json.dumps(entry, ensure_ascii=False))
            continue
        first = entry["line"]
        last = first + entry["url"].count("\n") + 2
        covered.update(range(first, last))
        print(f"--- {first}: {json.dumps(entry, ensure_ascii=False)}")
        for k in range(first, min(last, len(text) + 1)):
            print(f"  {k:6}| {text[k - 1].rstrip()}")
    print("=== lines with URL-looking text and no candidate:")
    for k, line in enumerate(text, 1):
        if k not in covered and _URLISH.search(line):
            print(f"  {k:6}| {line.rstrip()}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--draft", action="store_true")
    args = parser.parse_args()
    if args.draft:
        for entry in rows(args.path):
            entry.pop("error", None)
            sys.stdout.write(json.dumps(entry, ensure_ascii=False) + "\n")
    else:
        show(args.path)


if __name__ == "__main__":
    main()
