"""Validations per second over the real URLs of the corpora, beside urllib.parse.urlsplit.

    python bench/validate_speed.py [--shared | --corpora DIR]    (default: the repository's corpora/)

Both run over the same list in the same process, interleaved, best of 7; the figure that matters
is the ratio of their times (urlsift / urlsplit), since the machine's speed cancels out. urlsplit
is timed uncached (its ``__wrapped__``: Python 3.11 puts an lru_cache in front of it), and also
cached for reference. Where the native core is built, validate is timed on each core (issue 31:
the Rust core's fullmatch must be no slower than the pure-Python path's).
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import regex
from _corpora import add_options
from _corpora import root as corpora_root

import urlsift
from urlsift import _select

# A crude harvester, good enough to collect real URL strings (valid and not) for a speed test.
_URL = regex.compile(
    r"(?i)\b(?:https?|ftp|gopher|mailto|news|nntp|telnet|wais|file|prospero):[^\s<>\"'()\[\]]+"
)


def harvest(root: Path) -> list[str]:
    seen: dict[str, None] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            text = path.read_bytes().decode("utf-8", "replace")
            for m in _URL.finditer(text):
                seen.setdefault(m.group().rstrip(".,;:!?"), None)
    return list(seen)


def best_of(repeats: int, *runs: Callable[[], object]) -> list[float]:
    """Best time of each run, the runs interleaved within a round so that a slow spell of this
    shared machine hits all of them alike."""
    best = [float("inf")] * len(runs)
    for _ in range(repeats):
        for k, run in enumerate(runs):
            gc.collect()
            start = time.process_time()
            run()
            best[k] = min(best[k], time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_options(parser)
    root = corpora_root(parser, parser.parse_args())
    urls = harvest(root)
    split_uncached = urlsplit.__wrapped__  # type: ignore[attr-defined]
    validate = urlsift.validate

    def run_urlsift() -> None:
        for url in urls:
            validate(url)

    def run_modern() -> None:
        for url in urls:
            validate(url, urlsift.MODERN)

    def run_split() -> None:
        for url in urls:
            split_uncached(url)

    def run_split_cached() -> None:
        urlsplit.cache_clear()  # type: ignore[attr-defined]
        for url in urls:
            urlsplit(url)

    def on(core: _select.Core, run: Callable[[], None]) -> Callable[[], None]:
        def in_core() -> None:
            with _select.using(core):
                run()

        return in_core

    valid = sum(validate(url).valid for url in urls)
    valid_modern = sum(validate(url, urlsift.MODERN).valid for url in urls)
    runs = [run_urlsift, run_modern, run_split, run_split_cached]
    if _select.NATIVE is not None:
        runs = [on("rust", run_urlsift), on("rust", run_modern), run_split, run_split_cached]
        runs += [on("python", run_urlsift), on("python", run_modern)]
    ours, modern, theirs, cached, *python = best_of(7, *runs)
    n = len(urls)
    print(f"core: {_select.CORE if _select.NATIVE is None else 'rust, and python for the ratio'}")
    print(f"corpus: {root}  distinct URL strings: {n}  valid under strict RFC 1738: {valid}")
    print(f"urlsift.validate            {n / ours:12,.0f} /s  {ours / n * 1e6:6.2f} us each")
    print(f"  (modern profile)          {n / modern:12,.0f} /s  {modern / n * 1e6:6.2f} us each", end="")
    print(f"  ({valid_modern} valid)")
    print(f"urlsplit (uncached)         {n / theirs:12,.0f} /s  {theirs / n * 1e6:6.2f} us each")
    print(f"urlsplit (lru_cache, cold)  {n / cached:12,.0f} /s  {cached / n * 1e6:6.2f} us each")
    print(f"ratio urlsift / urlsplit (uncached): {ours / theirs:.2f}x   (target: <= 3x)")
    print(f"ratio urlsift / urlsplit (cached):   {ours / cached:.2f}x")
    print(f"ratio modern / urlsplit (uncached):  {modern / theirs:.2f}x")
    if python:
        strict_python, modern_python = python
        each, each_modern = strict_python / n * 1e6, modern_python / n * 1e6
        print(f"python core: validate {each:6.2f} us, modern {each_modern:6.2f} us")
        print(f"ratio rust / python core, strict:    {ours / strict_python:.2f}x   (target: <= 1x)")
        print(f"ratio rust / python core, modern:    {modern / modern_python:.2f}x")


if __name__ == "__main__":
    main()
