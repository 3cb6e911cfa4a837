"""Exact growth ratios of validation and extraction time on adversarial shapes (the tests only fail
above 30x).

python bench/linear.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import itertools

from test_linear import SHAPES, SIZES, TEXT_SHAPES, _seconds, extract_all


def main() -> None:
    for title, shapes, run in (
        ("validate", SHAPES, None),
        ("extract(invalid=True)", TEXT_SHAPES, extract_all),
    ):
        print(f"{title:28} " + " ".join(f"{size:>12,}" for size in SIZES) + "   ratios")
        for shape in sorted(shapes):
            texts = [shapes[shape](size) for size in SIZES]
            times = [_seconds(text) if run is None else _seconds(text, run) for text in texts]
            ratios = " ".join(f"{b / a:5.1f}x" for a, b in itertools.pairwise(times))
            print(f"{shape:28} " + " ".join(f"{t * 1000:10.2f}ms" for t in times) + f"   {ratios}")
        print()


if __name__ == "__main__":
    main()
