"""The scanner and ``urlsift.extract`` on each core (issue 31): MB/s (millions of characters a
second, CPU time, timed as tests/growth.py does) on bench/linear.py's adversarial texts at 1 MB and
their growth from 100 KB, and on a text of the corpora repeated to 20 MB.

python bench/scan_core.py [--corpus-mb 20]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import argparse
import gc
from collections.abc import Callable

from growth import seconds_per_run
from scan.test_linear import TEXT_SHAPES

import urlsift
from urlsift import _select
from urlsift.scanner import KNOWN_SCHEMES, scanner_for

ROOT = Path(__file__).resolve().parents[1]
SIZES = (100_000, 1_000_000)


def scanning(text: str) -> int:
    gc.disable()  # a list of many new candidates sets off collections of the whole heap
    try:
        return len(list(scanner_for(True, KNOWN_SCHEMES).scan(text)))
    finally:
        gc.enable()


def extracting(text: str) -> int:
    return sum(1 for _ in urlsift.extract(text))


def timed(run: Callable[[str], int], text: str, core: _select.Core) -> float:
    with _select.using(core):
        return seconds_per_run(run, text)


def corpus_text(megabytes: int) -> str:
    texts = [
        path.read_text(encoding="utf-8", errors="surrogateescape")
        for path in sorted((ROOT / "corpora").rglob("*"))
        if path.is_file() and path.suffix in {".txt", ".mbox", ".eml", ""}
    ]
    one = "\n".join(texts)
    return (one * (megabytes * 1_000_000 // len(one) + 1))[: megabytes * 1_000_000]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--corpus-mb", type=int, default=20)
    args = parser.parse_args(argv)
    if _select.NATIVE is None:
        parser.error("the native core is not built")
    print(f"{'scanner, MB/s at 1 MB':28} {'python':>9} {'rust':>9} {'ratio':>7}   rust growth 100 KB -> 1 MB")
    for shape in sorted(TEXT_SHAPES):
        small, large = (TEXT_SHAPES[shape](size) for size in SIZES)
        python = timed(scanning, large, "python")
        rust_small, rust = timed(scanning, small, "rust"), timed(scanning, large, "rust")
        speed = len(large) / 1e6
        print(
            f"{shape:28} {speed / python:9.2f} {speed / rust:9.2f} {python / rust:6.1f}x"
            f"   {rust / rust_small:5.1f}x"
        )
    text = corpus_text(args.corpus_mb)
    print(f"\ncorpora repeated to {len(text) / 1e6:.0f} M characters, MB/s: python, rust, ratio")
    for title, run in (("scanner", scanning), ("urlsift.extract", extracting)):
        python, rust = timed(run, text, "python"), timed(run, text, "rust")
        speed = len(text) / 1e6
        print(f"{title:28} {speed / python:9.2f} {speed / rust:9.2f} {python / rust:6.1f}x")


if __name__ == "__main__":
    main()
