"""Exact growth ratios of validation time on adversarial shapes (the test only fails above 30x).

python bench/linear.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import itertools

from test_linear import SHAPES, SIZES, _seconds


def main() -> None:
    print(f"{'shape':28} " + " ".join(f"{size:>12,}" for size in SIZES) + "   ratios")
    for shape in sorted(SHAPES):
        times = [_seconds(SHAPES[shape](size)) for size in SIZES]
        ratios = " ".join(f"{b / a:5.1f}x" for a, b in itertools.pairwise(times))
        print(f"{shape:28} " + " ".join(f"{t * 1000:10.2f}ms" for t in times) + f"   {ratios}")


if __name__ == "__main__":
    main()
