"""The writers of text, jsonl and csv: the Python ones (``output.writer`` over ``Batch.events()``, as
the command line's printer ran them before issue 31) beside the native core's
(``output.BatchWriter``: the batch's columns converted, then written in Rust), on one big batch,
measured in the same run.

    python bench/writers_speed.py [--rows N] [--rounds N]

The batch: the rows of every file of the corpora (``--invalid``, ``--context 2``, ``--wayback``: every
column filled where it can be), repeated to ``--rows`` rows. Each way is timed in CPU time of this
process, best of ``--rounds``, the ways interleaved so that a slow spell of the machine hits each;
the native one is given as its conversion (``Rows``) and its writing apart, and the two writers'
outputs are checked to be the same text.
"""

from __future__ import annotations

import argparse
import gc
import io
import platform
import time
from array import array
from collections.abc import Callable

from _corpora import REPO

from urlsift import _select, scan_batches
from urlsift.batches import Batch, Reports, concat
from urlsift.marks import PLAIN
from urlsift.output import FORMATS, BatchWriter, Format, Printing, writer
from urlsift.rows import Row


def big_batch(rows: int) -> Batch:
    """The corpora's rows, every column filled where it can be, repeated to ``rows`` rows."""
    files = sorted(path for path in REPO.rglob("*") if path.is_file() and path.suffix != ".md")
    found = concat(list(scan_batches(files, invalid=True, context=2, wayback=True)))
    found = Batch(found.messages, found.texts, found.matches, Reports(array("q"), [], [], [], [], [], []))
    return concat([found] * max(1, -(-rows // max(1, len(found)))))


def python_writes(batch: Batch, fmt: Format) -> str:
    out = io.StringIO()
    write = writer(fmt, out, header=False)
    for event in batch.events():
        if isinstance(event, Row):
            write(event)
    return out.getvalue()


def timed(run: Callable[[], object], rounds: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(rounds):
        gc.collect()
        started = time.process_time()
        result = run()
        best = min(best, time.process_time() - started)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if _select.NATIVE is None:
        parser.error("the native core is not built (pip install -e .)")
    batch = big_batch(args.rows)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"{len(batch):,} rows ({python}, CPU time, best of {args.rounds})")
    print(f"{'format':<6} {'python rows/s':>14} {'native rows/s':>14} {'(convert':>9} {'write)':>8} ratio")
    with _select.using("rust"):
        for fmt in FORMATS:
            python_time, native_time, convert_time = measured(batch, fmt, args.rounds)
            write_time, ratio = native_time - convert_time, python_time / native_time
            print(
                f"{fmt:<6} {len(batch) / python_time:>14,.0f} {len(batch) / native_time:>14,.0f} "
                f"{convert_time:>8.2f}s {write_time:>7.2f}s {ratio:>5.1f}x"
            )


def measured(batch: Batch, fmt: Format, rounds: int) -> tuple[float, float, float]:
    """The Python writer's time, the native one's, and the part of it that converts the columns."""
    native = BatchWriter(fmt, Printing(fmt), PLAIN, "\n")
    python_time, expected = timed(lambda: python_writes(batch, fmt), rounds)
    convert_time, _ = timed(lambda: native.rows(batch), rounds)
    rows = native.rows(batch)
    write_time, written = timed(lambda: native.write(rows, 0, len(batch)), rounds)
    if not (isinstance(written, tuple) and isinstance(expected, str) and written[0] == expected.encode()):
        raise SystemExit(f"{fmt}: the writers differ")
    return python_time, convert_time + write_time, convert_time


if __name__ == "__main__":
    main()
