"""``urlsift report --from`` over a large dataset: its time and peak memory (issue 33: 10 million
rows in at most 1 GB).

    python bench/report_scale.py [--rows 10000000] [--keep DIR]

Synthesises a Parquet dataset of ``parquet.SCHEMA`` as ``urlsift --format parquet`` writes it (files
of a million rows), with the shapes of a list archive's: messages of 50 mbox files dated 1990-2025
(more each year), about five rows a message, URLs drawn from a Zipf law over a few million (so a
few are cited very often and most once), their hosts and registered domains following them,
http/https/mailto/ftp and a few others, 15% in list headers, 8% rejected (most for a '~' that the
modern profile takes), quote depths falling off geometrically. Then runs ``urlsift report --from``
on it in a fresh process, output to a temporary page, and prints its wall time and its peak
resident set size (wait4's rusage of that child: DuckDB, Python and matplotlib together).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from urlsift.parquet import FILE_ROWS, SCHEMA

SEED = 33
FILES = 50
ROWS_PER_MESSAGE = 5
DISTINCT_URLS = 4_000_000
URLS_PER_HOST = 20
HEADERS = ["List-Unsubscribe", "List-Subscribe", "List-Archive", "List-Post", "List-Help", "Archived-At"]
SCHEMES = ["http", "https", "mailto", "ftp", "news", "gopher"]
SCHEME_SHARES = [0.52, 0.27, 0.13, 0.05, 0.02, 0.01]
REASONS = [
    "(hsegment): '~' (U+007E) is unsafe (section 2.2) and must be encoded as %7E",
    "(domainlabel): '\\' (U+005C) cannot be in a host name",
    "(port): a ':' after the host must be followed by a port number (D8)",
    "(wrapper): unterminated wrapper: the text ended before the closing '>' (appendix)",
    "(search): '/' is not allowed here in the search part; expected the end of the URL",
    "(fragment): '~' (U+007E) is unsafe (section 2.2) and must be encoded as %7E",
]
REASON_SHARES = [0.8, 0.05, 0.05, 0.04, 0.03, 0.03]


def _strings(*parts: pa.Array | str) -> pa.Array:
    return pc.binary_join_element_wise(*parts, "")


def chunk(first: int, rows: int, random: np.random.Generator) -> pa.Table:
    """Rows ``first`` ... ``first + rows - 1`` of the dataset."""
    row = np.arange(first, first + rows, dtype=np.int64)
    message = row // ROWS_PER_MESSAGE
    messages_per_file = max(1, (first + rows) // ROWS_PER_MESSAGE // FILES + 1)
    source = pa.array(message // messages_per_file).cast(pa.string())
    # A message's date: its place in the archive, more messages each year (a square root law).
    share = (message / max(1, message.max())) ** 0.5
    seconds = (np.datetime64("1990-01-01T00:00:00") - np.datetime64("1970-01-01T00:00:00")).astype(np.int64)
    span = 36 * 365 * 86400
    date = pa.array((seconds + share * span).astype(np.int64) * 1_000_000, pa.timestamp("us"))
    url_id = np.minimum(random.zipf(1.15, rows), DISTINCT_URLS) - 1
    host_id = url_id // URLS_PER_HOST
    host = _strings(
        "h", pa.array(host_id % 997).cast(pa.string()), ".d", pa.array(host_id).cast(pa.string()), ".org"
    )
    domain = _strings("d", pa.array(host_id).cast(pa.string()), ".org")
    scheme = pa.array(np.array(SCHEMES)[random.choice(len(SCHEMES), rows, p=SCHEME_SHARES)])
    valid = random.random(rows) >= 0.08
    reason = np.array(REASONS)[random.choice(len(REASONS), rows, p=REASON_SHARES)]
    path = pa.array(url_id).cast(pa.string())
    good = _strings(scheme, "://", host, "/p", path)
    bad = _strings("http://", host, "/~u", path)
    url = pc.if_else(pa.array(valid), good, bad)
    error = pc.if_else(pa.array(valid), pa.nulls(rows, pa.string()), _strings("at 20 ", pa.array(reason)))
    headed = random.random(rows) < 0.15
    header = np.array(HEADERS)[random.integers(0, len(HEADERS), rows)]
    body = np.where(random.random(rows) < 0.8, "0 text/plain", "1 text/html")
    part = pa.array(np.where(headed, header, body))
    depth = np.minimum(random.geometric(0.8, rows) - 1, 9)
    columns = {
        "url": url,
        "alternatives": pa.array([[]] * rows, SCHEMA.field("alternatives").type),
        "valid": pa.array(valid),
        "scheme": pc.if_else(pa.array(valid), scheme, pa.array(["http"] * rows)),
        "wrapper": pa.nulls(rows, pa.string()),
        "naked": pa.array(np.ones(rows, dtype=bool)),
        "line": pa.array(random.integers(1, 400, rows)),
        "column": pa.array(random.integers(1, 70, rows)),
        "source": _strings("lists/list-", source, ".mbox"),
        "member": pa.nulls(rows, pa.string()),
        "message": pa.array(message),
        "offset": pa.array(message * 4096),
        "message_id": _strings("<", pa.array(message).cast(pa.string()), "@lists.example.org>"),
        "date": date,
        "newsgroups": pa.nulls(rows, pa.string()),
        "part": part,
        "error": error,
        "canonical": pa.nulls(rows, pa.string()),
        "count": pa.nulls(rows, pa.int64()),
        "start": pa.array(random.integers(0, 20000, rows)),
        "end": pa.array(random.integers(20000, 20100, rows)),
        "quote_depth": pa.array(np.where(headed, 0, depth)),
        "context": pa.nulls(rows, pa.string()),
        "wayback": pa.nulls(rows, pa.string()),
        "host": pc.if_else(
            pa.array(valid),
            pc.if_else(pc.equal(scheme, "news"), pa.nulls(rows, pa.string()), host),
            pa.nulls(rows, pa.string()),
        ),
        "host_unicode": pa.nulls(rows, pa.string()),
        "registered_domain": pc.if_else(pa.array(valid), domain, pa.nulls(rows, pa.string())),
        "surt": pa.nulls(rows, pa.string()),
        "date_header": pa.nulls(rows, pa.string()),
    }
    return pa.Table.from_arrays(
        [columns[name].cast(SCHEMA.field(name).type) for name in SCHEMA.names], schema=SCHEMA
    )


def synthesise(directory: Path, rows: int) -> None:
    random = np.random.default_rng(SEED)
    for k, first in enumerate(range(0, rows, FILE_ROWS)):
        pq.write_table(chunk(first, min(FILE_ROWS, rows - first), random), directory / f"part-{k:05}.parquet")


def main() -> None:
    parser = argparse.ArgumentParser(
        description="urlsift report --from over a synthetic dataset: time and memory"
    )
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument(
        "--keep", type=Path, help="write the dataset here and keep it (default: a temporary folder)"
    )
    parser.add_argument("--synthesise", type=Path, help=argparse.SUPPRESS)  # the child that writes it
    args = parser.parse_args()
    if args.synthesise is not None:
        synthesise(args.synthesise, args.rows)
        return
    with tempfile.TemporaryDirectory(prefix="urlsift-report-scale-") as scratch:
        directory = args.keep or Path(scratch) / "dataset"
        directory.mkdir(parents=True, exist_ok=True)
        # Written by a child of its own, so that this process stays small (a child forked from it
        # counts its pages until it runs urlsift).
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, __file__, "--rows", str(args.rows), "--synthesise", str(directory)], check=True
        )
        made = time.perf_counter() - started
        size = sum(path.stat().st_size for path in directory.glob("*.parquet"))
        page = Path(scratch) / "report.html"
        command = [sys.executable, "-m", "urlsift", "report", "--from", str(directory), "-o", str(page)]
        started = time.perf_counter()
        child = subprocess.Popen(command)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the synthesiser's
        child.returncode = os.waitstatus_to_exitcode(status)
        took = time.perf_counter() - started
        if child.returncode:
            raise SystemExit(f"urlsift report failed ({child.returncode})")
        peak = usage.ru_maxrss / 1024  # KiB on Linux
        print(f"rows {args.rows:,}: dataset {size / 1e6:,.0f} MB made in {made:.0f} s")
        print(
            f"urlsift report --from: {took:.1f} s, peak RSS {peak:,.0f} MiB, page {page.stat().st_size:,} B"
        )


if __name__ == "__main__":
    main()
