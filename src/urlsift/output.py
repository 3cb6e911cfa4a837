"""(Match, Provenance) -> lines of text, JSON Lines or CSV, through one field list.

The columns are documented in README and stay stable: a column added later goes at the end.
Text and CSV escape control characters (a rejected candidate or a header may hold any), so
nothing unsafe reaches a terminal; JSON escapes them itself.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from typing import IO, Any

from ._model import Match, Provenance

FIELDS = (
    "url",
    "alternatives",
    "valid",
    "scheme",
    "wrapper",
    "naked",
    "line",
    "column",
    "source",
    "member",
    "message",
    "offset",
    "message_id",
    "date",
    "newsgroups",
    "part",
    "error",
)
FORMATS = ("text", "jsonl", "csv")

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def escaped(text: str) -> str:
    """Control characters as ``\\xNN``, so that they cannot act on a terminal."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def record(match: Match, where: Provenance) -> dict[str, Any]:
    verdict = match.verdict
    return {
        "url": match.url,
        "alternatives": list(match.alternatives),
        "valid": verdict.valid,
        "scheme": verdict.scheme,
        "wrapper": match.wrapper,
        "naked": match.naked,
        "line": match.line,
        "column": match.column,
        **where._asdict(),
        "error": None if verdict.error is None else str(verdict.error),
    }


Writer = Callable[[Match, Provenance], None]


def writer(fmt: str, out: IO[str]) -> Writer:
    """A function that writes one match in the format ``fmt`` (a header first, for CSV)."""
    if fmt == "jsonl":

        def write_object(match: Match, where: Provenance) -> None:
            out.write(json.dumps(record(match, where), ensure_ascii=False) + "\n")

        return write_object
    if fmt == "csv":
        table = csv.writer(out, lineterminator="\n")
        table.writerow(FIELDS)

        def write_row(match: Match, where: Provenance) -> None:
            row = record(match, where)
            row["alternatives"] = " ".join(row["alternatives"])
            table.writerow(["" if row[f] is None else escaped(str(row[f])) for f in FIELDS])

        return write_row

    def write_line(match: Match, where: Provenance) -> None:
        error = match.verdict.error
        out.write(escaped(match.url) if error is None else f"{escaped(match.url)}\t{escaped(str(error))}")
        out.write("\n")

    return write_line
