"""MB/s of ``urlsift.extract`` on real text, beside the floor measured over the same string.

    python bench/extract_speed.py [--shared | --corpora DIR] [--against SRC] [--cores]
                                  (default: the repository's corpora/)

The inputs: an mbox (blinux-list in the shared corpora, r-devel-2000-May in the repository's) and
the folder of RFC texts.

The floor is one pass of ``re.finditer("<", text)``: no scanner can look at every "<" for less.
The figures that matter are the fractions of the floor (the machine's speed cancels out); issue
22's target is 10% with naked URLs. Each is the best of 7 rounds of process time (the machine is
shared: CPU time, not wall time); the verdict cache is emptied before each extract run.

``--against SRC`` also runs the ``urlsift`` of another checkout's ``src`` (``/work/wt/base/src``),
imported beside this one under another name, in the same rounds: a change's before and after
measured in one run, as ratios.

The last tables run the strict and the modern profile side by side (interleaved, best of 7): what
each finds and how fast, so a change to one shows in the other's column; and the two cores
(``URLSIFT_CORE=python`` and ``rust``, issue 31) over the same text in the same rounds, with the
ratio of their times (skipped, said so, where the native core is not built).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import io
import re
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from _corpora import add_options, files
from _corpora import root as corpora_root

import urlsift
from urlsift import _select
from urlsift.extract import _judge, _judge_deferred, _judge_unclosed, _judge_www

MBOXES = ("mail/blinux-list.mbox", "mail/r-devel-2000-May.mbox", "mail/*.mbox")
"""The first of these that the corpora hold is the mbox read."""

BMP = "rfc + Russian"
"""A text of the BMP beyond Latin-1, which the native core reads as UTF-16 units: the RFC folder
with a paragraph of Russian between each two of its paragraphs (no wrapper crosses a blank line,
D21: the URLs are the folder's)."""
RUSSIAN = "Это абзац по-русски, без ссылок: он только делает текст шире латиницы."


def best_of(rounds: int, *runs: Callable[[], int]) -> list[tuple[float, int]]:
    """Best time of each run over ``rounds`` rounds, the runs interleaved within a round so that a
    slow spell of this shared machine hits all of them alike."""
    best = [(float("inf"), 0)] * len(runs)
    for _ in range(rounds):
        for k, run in enumerate(runs):
            gc.collect()
            started = time.process_time()
            count = run()
            best[k] = min(best[k], (time.process_time() - started, count))
    return best


def cold(run: Callable[[], int], extract_module: ModuleType | None = None) -> int:
    """Each run starts with an empty verdict cache, as a fresh process would."""
    caches: list[Any] = [_judge, _judge_www, _judge_unclosed, _judge_deferred]
    if extract_module is not None:  # another checkout's (one before issue 31 has no deferred verdicts)
        names = ("_judge", "_judge_www", "_judge_unclosed", "_judge_deferred")
        caches = [getattr(extract_module, name) for name in names if hasattr(extract_module, name)]
    for cache in caches:
        cache.cache_clear()
    return run()


def other_checkout(src: Path) -> ModuleType:
    """The ``urlsift`` package of ``src``, imported as ``urlsift_against`` (its imports are
    relative), so that it runs in this process beside the checkout's own."""
    if not (src / "urlsift" / "__init__.py").is_file():
        raise SystemExit(f"no urlsift package in {src}")
    folder = Path(tempfile.mkdtemp(prefix="extract_speed_"))
    shutil.copytree(src / "urlsift", folder / "urlsift_against")
    sys.path.insert(0, str(folder))
    return importlib.import_module("urlsift_against")


def against(root: Path, inputs: list[str], src: Path) -> None:
    """This checkout's extract and ``other``'s over the same text, interleaved in the same rounds."""
    other = other_checkout(src)
    other_extract = sys.modules[f"{other.__name__}.extract"]
    print()
    print(f"Against {src}: % of the floor, and this checkout's time over the other's")
    print("| input | naked=False: this | other | time ratio | extract: this | other | time ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in inputs:
        text = load(root, name)
        (floor, _), (wrapped, _), (wrapped_other, _), (full, _), (full_other, _) = best_of(
            7,
            lambda: sum(1 for _ in re.finditer("<", text)),  # noqa: B023
            lambda: cold(lambda: sum(1 for _ in urlsift.extract(text, naked=False))),  # noqa: B023
            lambda: cold(lambda: sum(1 for _ in other.extract(text, naked=False)), other_extract),  # noqa: B023
            lambda: cold(lambda: sum(1 for _ in urlsift.extract(text))),  # noqa: B023
            lambda: cold(lambda: sum(1 for _ in other.extract(text)), other_extract),  # noqa: B023
        )
        print(
            f"| {name} | {100 * floor / wrapped:.1f}% | {100 * floor / wrapped_other:.1f}% "
            f"| {wrapped / wrapped_other:.2f} | {100 * floor / full:.1f}% | {100 * floor / full_other:.1f}% "
            f"| {full / full_other:.2f} |"
        )


def load(root: Path, name: str) -> str:
    if name == BMP:
        return load(root, "rfc").replace("\n\n", f"\n\n{RUSSIAN}\n\n")
    path = root / name
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_options(parser)
    parser.add_argument("--against", type=Path, metavar="SRC", help="also time the urlsift in SRC")
    parser.add_argument("--cores", action="store_true", help="only the table of both cores")
    args = parser.parse_args()
    root = corpora_root(parser, args)
    inputs = [str(files(parser, root, *MBOXES)[0].relative_to(root)), str(files(parser, root, "rfc")[0].name)]
    if args.cores:
        cores(root, [*inputs, BMP])
        return
    print("| input | MB | floor MB/s | naked=False MB/s (% of floor) | URLs", end="")
    print(" | extract MB/s (% of floor) | URLs |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in inputs:
        text = load(root, name)
        megabytes = len(text.encode("utf-8")) / 1e6
        (floor, _), (wrapped, n_wrapped), (full, n_full) = best_of(
            7,
            lambda: sum(1 for _ in re.finditer("<", text)),  # noqa: B023
            lambda: cold(lambda: sum(1 for _ in urlsift.extract(text, naked=False))),  # noqa: B023
            lambda: cold(lambda: sum(1 for _ in urlsift.extract(text))),  # noqa: B023
        )
        print(
            f"| {name} | {megabytes:.1f} | {megabytes / floor:.0f} "
            f"| {megabytes / wrapped:.0f} ({100 * floor / wrapped:.1f}%) | {n_wrapped} "
            f"| {megabytes / full:.0f} ({100 * floor / full:.1f}%) | {n_full} |"
        )
    for name in inputs:
        text = load(root, name)
        data = text.encode("utf-8")
        (whole, _), (streamed, _) = best_of(
            3,
            lambda: cold(lambda: sum(1 for _ in urlsift.extract(text))),  # noqa: B023
            lambda: cold(lambda: sum(1 for _ in urlsift.extract_stream(io.BytesIO(data)))),  # noqa: B023
        )
        print(f"{name}: extract_stream on the bytes (1 MiB windows, decoding included) takes", end=" ")
        print(f"{streamed / whole:.2f}x the time of extract on the decoded string")
        print(f"{name}: peak memory of extract beside the text: {peak_memory(text):.1f} MB")
    profiles(root, inputs)
    cores(root, [*inputs, BMP])
    if args.against is not None:
        against(root, inputs, args.against)


def profiles(root: Path, inputs: list[str]) -> None:
    """Both profiles over the same text in one run: MB/s and URLs found by each."""
    print()
    print("| input | strict MB/s | URLs | modern MB/s | URLs | modern / strict time |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in inputs:
        text = load(root, name)
        megabytes = len(text.encode("utf-8")) / 1e6
        (strict, n_strict), (modern, n_modern) = best_of(
            7,
            lambda: cold(lambda: sum(1 for _ in urlsift.extract(text))),  # noqa: B023
            lambda: cold(lambda: sum(1 for _ in urlsift.extract(text, profile="modern"))),  # noqa: B023
        )
        print(
            f"| {name} | {megabytes / strict:.0f} | {n_strict} | {megabytes / modern:.0f} | {n_modern} "
            f"| {modern / strict:.2f} |"
        )


def cores(root: Path, inputs: list[str]) -> None:
    """Both cores over the same text in one run (issue 31's target: the native one at least 4x):
    MB/s of each, the URLs each found, and the Python core's time over the native one's."""
    print()
    if _select.NATIVE is None:
        print("Cores: the native core is not built (pip install -e .): only the Python core runs")
        return

    def on(core: _select.Core, text: str, options: dict[str, Any]) -> Callable[[], int]:
        def run() -> int:
            with _select.using(core):
                return cold(lambda: sum(1 for _ in urlsift.extract(text, **options)))

        return run

    variants: list[tuple[str, dict[str, Any]]] = [
        ("naked=False", {"naked": False}),
        ("strict", {}),
        ("modern", {"profile": "modern"}),
    ]
    print("| input | options | python MB/s | URLs | rust MB/s | URLs | python / rust time |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name in inputs:
        text = load(root, name)
        megabytes = len(text.encode("utf-8")) / 1e6
        for label, options in variants:
            runs = (on("python", text, options), on("rust", text, options))
            (python, n_python), (rust, n_rust) = best_of(7, *runs)
            print(f"| {name} | {label} | {megabytes / python:.0f} | {n_python}", end=" ")
            print(f"| {megabytes / rust:.0f} | {n_rust} | {python / rust:.2f} |")


def peak_memory(text: str) -> float:
    """Peak of the memory extract allocates while the matches are consumed one by one (MB)."""
    _judge.cache_clear()
    tracemalloc.start()
    for _ in urlsift.extract(text):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


if __name__ == "__main__":
    main()
