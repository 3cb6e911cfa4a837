"""Exact growth ratios of validation and extraction time on adversarial shapes (the tests only fail
above 30x): CPU time per run, timed as tests/growth.py does (batches of 50 ms, best of three), with
the speed at the largest size in MB/s (millions of characters a second), on each core (the native
one where it is built; issue 31's target: 20 MB/s a text). ``rows``: the text's UTF-8 bytes to the
rows of ``--input-format text --invalid`` (``_native_rows.TextRows``: the command line's path),
under the native core only.

python bench/linear.py [strict|modern ...] [--only validate|scan|extract|rows ...]
    (default: both profiles, one after the other, and every job)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import argparse
import io
import itertools
from collections.abc import Callable

from growth import seconds_per_run
from scan.test_linear import SHAPES, TEXT_SHAPES

import urlsift
from urlsift import _select
from urlsift._native_rows import TextRows
from urlsift.rows import Options, Tally
from urlsift.scanner import KNOWN_SCHEMES, scanner_for

SIZES = (10_000, 100_000, 1_000_000)
PROFILES = ("strict", "modern")
JOBS = ("validate", "scan", "extract", "rows")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    # Not choices=: Python 3.11's argparse checks the empty list of a "*" positional against them.
    parser.add_argument("profiles", nargs="*", metavar="profile", help="strict or modern (default: both)")
    parser.add_argument(
        "--only", nargs="+", choices=JOBS, default=JOBS, help="the jobs to time (default: all)"
    )
    args = parser.parse_args(argv)
    for unknown in sorted(set(args.profiles) - set(PROFILES)):
        parser.error(f"no profile {unknown!r} (choose from {', '.join(PROFILES)})")
    for profile in args.profiles or PROFILES:
        runs(profile, args.only)


def runs(profile: str, only: list[str]) -> None:
    def validate(text: str) -> object:
        return urlsift.validate(text, profile)

    scanner = scanner_for(True, KNOWN_SCHEMES, www=profile == "modern")

    def scan_all(text: str) -> int:
        return sum(1 for _ in scanner.scan(text))

    def extract_all(text: str) -> int:
        return sum(1 for _ in urlsift.extract(text, invalid=True, profile=profile))

    options = Options(profile="modern" if profile == "modern" else "strict", invalid=True)

    def rows_all(text: str) -> int:
        rows = TextRows(io.BytesIO(text.encode()), options, (), None)
        return sum(block.rows for block in rows.blocks(Tally(), 1000))

    jobs: tuple[tuple[str, dict[str, Callable[[int], str]], Callable[[str], object]], ...] = (
        (f"validate ({profile})", SHAPES, validate),
        (f"scan ({profile})", TEXT_SHAPES, scan_all),
        (f"extract(invalid=True) ({profile})", TEXT_SHAPES, extract_all),
        (f"rows of bytes, --invalid ({profile})", TEXT_SHAPES, rows_all),
    )
    jobs = tuple(job for job, name in zip(jobs, JOBS, strict=True) if name in only)
    every = [core for core in _select.CORES if core == "python" or _select.NATIVE is not None]
    for title, shapes, run in jobs:
        cores = [core for core in every if core == "rust" or run is not rows_all]
        heads = "".join(f"   {core + ' ratios':>13} {'MB/s':>7}" for core in cores)
        print(f"{title:34}{heads}   (MB/s at {SIZES[-1]:,})")
        for shape in sorted(shapes):
            texts = [shapes[shape](size) for size in SIZES]
            figures = ""
            for core in cores:
                with _select.using(core):
                    times = [seconds_per_run(run, text) for text in texts]
                ratios = " ".join(f"{b / a:5.1f}x" for a, b in itertools.pairwise(times))
                figures += f"   {ratios:>13} {len(texts[-1]) / times[-1] / 1e6:7.2f}"
            print(f"{shape:34}{figures}")
        print()


if __name__ == "__main__":
    main()
