"""Exact growth ratios of validation and extraction time on adversarial shapes (the tests only fail
above 30x): CPU time per run, timed as tests/growth.py does (batches of 50 ms, best of three), with
the speed at the largest size in MB/s (millions of characters a second).

python bench/linear.py [strict|modern ...]    (default: both, one after the other)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import argparse
import itertools
from collections.abc import Callable

from growth import seconds_per_run
from scan.test_linear import SHAPES, TEXT_SHAPES

import urlsift

SIZES = (10_000, 100_000, 1_000_000)
PROFILES = ("strict", "modern")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    # Not choices=: Python 3.11's argparse checks the empty list of a "*" positional against them.
    parser.add_argument("profiles", nargs="*", metavar="profile", help="strict or modern (default: both)")
    profiles = parser.parse_args(argv).profiles
    for unknown in sorted(set(profiles) - set(PROFILES)):
        parser.error(f"no profile {unknown!r} (choose from {', '.join(PROFILES)})")
    for profile in profiles or PROFILES:
        runs(profile)


def runs(profile: str) -> None:
    def validate(text: str) -> object:
        return urlsift.validate(text, profile)

    def extract_all(text: str) -> int:
        return sum(1 for _ in urlsift.extract(text, invalid=True, profile=profile))

    jobs: tuple[tuple[str, dict[str, Callable[[int], str]], Callable[[str], object]], ...] = (
        (f"validate ({profile})", SHAPES, validate),
        (f"extract(invalid=True) ({profile})", TEXT_SHAPES, extract_all),
    )
    for title, shapes, run in jobs:
        sizes = " ".join(f"{size:>12,}" for size in SIZES)
        print(f"{title:28} {sizes}   ratios        MB/s at {SIZES[-1]:,}")
        for shape in sorted(shapes):
            texts = [shapes[shape](size) for size in SIZES]
            times = [seconds_per_run(run, text) for text in texts]
            ratios = " ".join(f"{b / a:5.1f}x" for a, b in itertools.pairwise(times))
            speed = len(texts[-1]) / times[-1] / 1e6
            timings = " ".join(f"{t * 1000:10.2f}ms" for t in times)
            print(f"{shape:28} {timings}   {ratios}   {speed:8.2f}")
        print()


if __name__ == "__main__":
    main()
