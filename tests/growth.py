"""Growth tests that a busy machine cannot turn red: 10x the input costs about 10x, never 100x.

Two measures, for two kinds of work:

- Steps (``assert_linear_steps``): the Python lines and calls a run executes, counted with
  ``sys.settrace``. Exact and noise-free, so any size will do and the tests may run in parallel.
  They see every Python loop, call and handler, but not the work inside one call of C code (a
  regex match, ``str.find``, a slice).
- Time (``assert_linear``), for that C work. A ratio of two timings is only as good as its smaller
  one, so each input is run again and again until the batch takes ``MIN_BATCH`` seconds, and its
  time per run is that batch's mean; each is the best of ``REPEATS`` batches (noise only ever adds
  time), or of fewer once they took ``ENOUGH`` seconds. The clock is the process's CPU time: time
  the scheduler gives to other processes is not counted, which leaves only caches and clock speed
  to disturb it. Tests that time are marked ``timing`` and run in one xdist group (one process,
  one after another): they never time each other.

A quadratic blow-up gives 100x for 10x the input; ``LIMIT`` (30x) leaves room for the noise that
is left and for caches that the small input fits and the large one does not.
"""

from __future__ import annotations

import gc
import itertools
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

LIMIT = 30.0
"""The most a 10x larger input may cost, as a multiple of the smaller one's cost."""
MIN_BATCH = 0.05
"""Seconds a timed batch lasts at least: well over the 10 ms where noise stops dominating."""
REPEATS = 3
ENOUGH = 1.0
"""Seconds of CPU time after which an input is not run again: noise is a small part of a second of
CPU time (the time of other processes is not in it), and a large input may take seconds a run."""

timing = pytest.mark.xdist_group("timing")
"""Mark for a test that times: all of them run in one worker, one after another."""
counted = pytest.mark.skipif(
    shutil.which("valgrind") is None or shutil.which("cargo") is None,
    reason="valgrind or cargo is missing: no native instructions are counted",
)
"""Mark for a test that counts the instructions of the core's examples (``instructions``)."""


def seconds_per_run(run: Callable[[T], object], argument: T, *, repeats: int = REPEATS) -> float:
    """The best, over ``repeats`` batches of at least MIN_BATCH seconds of CPU time, of the mean
    CPU time of one ``run(argument)``; fewer batches when those so far took ENOUGH seconds."""
    best, spent = float("inf"), 0.0
    for _ in range(repeats):
        gc.collect()
        count, start = 0, time.process_time()
        while True:
            run(argument)
            count += 1
            elapsed = time.process_time() - start
            if elapsed >= MIN_BATCH:
                break
        best = min(best, elapsed / count)
        spent += elapsed
        if spent >= ENOUGH:
            break
    return best


def steps(run: Callable[[T], object], argument: T) -> int:
    """The Python lines and calls that ``run(argument)`` executes (in every frame it opens)."""
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        nonlocal count
        count += 1
        return tracer

    before = sys.gettrace()  # a debugger's or coverage's tracer is put back after
    sys.settrace(tracer)
    try:
        run(argument)
    finally:
        sys.settrace(before)
    return count


def clear_caches(package: str = "urlsift") -> None:
    """Empties every functools cache at the top level of ``package``'s modules (verdicts kept for
    URLs seen before would let a counted run skip the work it is there to count)."""
    for name, module in list(sys.modules.items()):
        if name == package or name.startswith(package + "."):
            for value in list(vars(module).values()):
                if callable(clear := getattr(value, "cache_clear", None)):
                    clear()


def _ratios(costs: Sequence[float]) -> list[float]:
    return [later / earlier for earlier, later in itertools.pairwise(costs)]


def _check(what: str, costs: Sequence[float], unit: str) -> None:
    ratios = _ratios(costs)
    shown = ", ".join(f"{ratio:.1f}x" for ratio in ratios)
    assert all(ratio < LIMIT for ratio in ratios), (
        f"{what}: {shown} for 10x steps (limit {LIMIT:.0f}x); {unit}: {', '.join(f'{c:.3g}' for c in costs)}"
    )


def growth_ratios(run: Callable[[T], object], inputs: Sequence[T]) -> list[float]:
    """For inputs that grow 10x each (``inputs[k + 1]`` ten times ``inputs[k]``), the time ratio
    of each step."""
    return _ratios([seconds_per_run(run, argument) for argument in inputs])


def assert_linear(run: Callable[[T], object], inputs: Sequence[T], what: str = "") -> None:
    """Fails when a 10x step of ``inputs`` takes LIMIT times the time or more. Mark the test
    ``@timing``."""
    _check(what, [seconds_per_run(run, argument) for argument in inputs], "seconds per run")


def assert_linear_steps(
    run: Callable[[T], object],
    inputs: Sequence[T],
    what: str = "",
    *,
    reset: Callable[[], object] = clear_caches,
) -> None:
    """Fails when a 10x step of ``inputs`` executes LIMIT times the Python steps or more.

    ``run`` is called once first on ``inputs[0]``, uncounted, so that imports and other first-use
    work are not counted; ``reset`` (by default ``clear_caches``) is called before every run, so
    that no run finds its work done by one before it (what it rebuilds costs the same each time)."""
    reset()
    run(inputs[0])
    counts: list[float] = []
    for argument in inputs:
        reset()
        counts.append(steps(run, argument))
    _check(what, counts, "steps")


def instructions(command: Sequence[str | Path], function: str, calls: int, folder: Path) -> list[int]:
    """The instructions of each of the first ``calls`` calls of the native ``function`` that
    ``command`` makes, as ``valgrind --tool=callgrind`` counts them: counted, not timed, so
    repeatable under any load. A dump is taken before each call (dump 1 is the start, dump k + 1
    call k, which the next call's start ends): the command makes one call more, on nothing."""
    valgrind = shutil.which("valgrind")
    assert valgrind is not None
    out = folder / "callgrind.out"
    dump = [valgrind, "--tool=callgrind", f"--dump-before=*{function}*", f"--callgrind-out-file={out}"]
    subprocess.run([*dump, *command], capture_output=True, timeout=300, check=True)
    counts = []
    for k in range(2, calls + 2):
        totals = re.search(r"^totals: (\d+)", Path(f"{out}.{k}").read_text(), re.MULTILINE)
        assert totals is not None
        counts.append(int(totals.group(1)))
    return counts


def shape_files(shapes: dict[str, Callable[[int], bytes]], sizes: Sequence[int], folder: Path) -> list[Path]:
    """Each of ``shapes`` (in sorted order) at each of ``sizes``, written to a file of ``folder``:
    the inputs of a native example whose counts ``assert_instructions_linear`` reads."""
    paths = []
    for k, shape in enumerate(sorted(shapes)):
        for size in sizes:
            paths.append(folder / f"{k}-{size}.in")
            paths[-1].write_bytes(shapes[shape](size))
    return paths


def assert_instructions_linear(
    shapes: Sequence[str], counts: Sequence[int], limit: float, least: int
) -> None:
    """``counts`` holds each of ``shapes``' counts at a size and at 10x it, in turn: fails when one
    grows ``limit`` times or more, or when a large one is under ``least`` (the work was not counted)."""
    pairs = zip(shapes, counts[::2], counts[1::2], strict=True)
    ratios = {shape: large / small for shape, small, large in pairs}
    assert min(counts[1::2]) > least
    worst = max(ratios, key=ratios.__getitem__)
    assert ratios[worst] <= limit, f"{worst}: {ratios[worst]:.1f}x the instructions for 10x the input"
