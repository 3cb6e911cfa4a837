"""Exact growth ratios of validation and extraction time on adversarial shapes (the tests only fail
above 30x): CPU time per run, timed as tests/growth.py does (batches of 50 ms, best of three).

python bench/linear.py [strict|modern]    (default: both, one after the other)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import itertools
from collections.abc import Callable

from growth import seconds_per_run
from test_linear import SHAPES, TEXT_SHAPES

import urlsift

SIZES = (10_000, 100_000, 1_000_000)


def main() -> None:
    for profile in sys.argv[1:] or ["strict", "modern"]:
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
        print(f"{title:28} " + " ".join(f"{size:>12,}" for size in SIZES) + "   ratios")
        for shape in sorted(shapes):
            texts = [shapes[shape](size) for size in SIZES]
            times = [seconds_per_run(run, text) for text in texts]
            ratios = " ".join(f"{b / a:5.1f}x" for a, b in itertools.pairwise(times))
            print(f"{shape:28} " + " ".join(f"{t * 1000:10.2f}ms" for t in times) + f"   {ratios}")
        print()


if __name__ == "__main__":
    main()
