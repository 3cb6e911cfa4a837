"""docs/conformance.md's "On real text" table: per corpus file with an expected-results file
(tests/expected/), the wrapped and naked URLs found against those a reader found there, the false
reports, the real URLs that strict RFC 1738 rejects (and how many of them a scan with the modern
profile finds), and
the commonest reasons urlsift gives for what it rejected.

    python bench/conformance.py
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from urlsift.results import results
from urlsift.rows import Options, Row, Tally

ROOT = Path(__file__).parents[1]


def reasons(path: Path) -> Counter[str]:
    """The productions named by urlsift's reasons for the candidates it rejected in ``path``."""
    counted: Counter[str] = Counter()
    for row in results(str(path), Options(invalid=True), Tally()):
        if isinstance(row, Row) and not row.valid:
            error = row.error or ""
            production = re.match(r"at \d+ \(([^)]*)\): (.*)", error)
            text = error if production is None else production.group(1)
            if production is not None and production.group(1) == "wrapper":
                text = "wrapper: " + production.group(2).split(": ", 1)[-1].split(" (")[0]
            counted[text] += 1
    return counted


def found_by_modern(path: Path) -> set[str]:
    """The valid URLs of a scan of ``path`` with the modern profile."""
    rows = results(str(path), Options(profile="modern"), Tally())
    return {row.url for row in rows if isinstance(row, Row) and row.valid}


def main() -> None:
    columns = ["file", "wrapped found / present", "naked found / present", "false reports"]
    columns += ["real URLs strict rejects (modern finds)", "rejected candidates: top reasons"]
    print("| " + " | ".join(columns) + " |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    totals: Counter[str] = Counter()
    for expected in sorted((ROOT / "tests" / "expected").glob("*/*.jsonl")):
        entries = [json.loads(line) for line in expected.read_text(encoding="utf-8").splitlines()]
        corpus = ROOT / "corpora" / expected.parent.name / expected.name.removesuffix(".jsonl")
        row: Counter[str] = Counter()
        modern = found_by_modern(corpus)
        for entry in entries:
            kind = "naked" if entry["wrapper"] is None else "wrapped"
            state = entry["strict"]
            if state == "false":
                row["false"] += 1
                continue
            row[f"{kind} present"] += 1
            row[f"{kind} found"] += state == "valid"
            row["rejected"] += state == "rejected"
            row["modern finds"] += state == "rejected" and entry["url"] in modern
        top = ", ".join(f"{reason} {n}" for reason, n in reasons(corpus).most_common(3)) or "none"
        totals.update(row)
        name = f"{expected.parent.name}/{corpus.name}"
        print(
            f"| `{name}` | {row['wrapped found']} / {row['wrapped present']} |"
            f" {row['naked found']} / {row['naked present']} | {row['false']} |"
            f" {row['rejected']} ({row['modern finds']}) | {top} |"
        )
    print(
        f"| all | {totals['wrapped found']} / {totals['wrapped present']} |"
        f" {totals['naked found']} / {totals['naked present']} | {totals['false']} |"
        f" {totals['rejected']} ({totals['modern finds']}) | |"
    )


if __name__ == "__main__":
    main()
