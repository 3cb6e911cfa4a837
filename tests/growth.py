"""Growth tests that a busy machine cannot turn red: 10x the input takes about 10x the time.

A ratio of two timings is only as good as its smaller one. A run of a few milliseconds is
dominated by the scheduler, the timer and a stray collection, so the small input is run again and
again until the batch takes ``MIN_BATCH`` seconds, and its time per run is that batch's mean; the
large input is timed the same way (once is usually enough). Each is the best of ``REPEATS``
batches: noise only ever adds time, so the minimum is the estimate least disturbed by it.

A quadratic blow-up gives 100x for 10x the input; ``LIMIT`` (30x) leaves room for the noise that
is left and for caches that the small input fits and the large one does not. Tests that time are
marked ``timing`` and run in one xdist group (one process, one after another), so they never time
each other.
"""

from __future__ import annotations

import gc
import itertools
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest

T = TypeVar("T")

LIMIT = 30.0
"""The most a 10x larger input may cost, as a multiple of the smaller one's time."""
MIN_BATCH = 0.05
"""Seconds a timed batch lasts at least: well over the 10 ms where noise stops dominating."""
REPEATS = 3

timing = pytest.mark.xdist_group("timing")
"""Mark for a test that times: all of them run in one worker, one after another."""


def seconds_per_run(run: Callable[[T], object], argument: T, *, repeats: int = REPEATS) -> float:
    """The best, over ``repeats`` batches of at least MIN_BATCH seconds, of the mean time of one
    ``run(argument)``."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        count, start = 0, time.perf_counter()
        while True:
            run(argument)
            count += 1
            elapsed = time.perf_counter() - start
            if elapsed >= MIN_BATCH:
                break
        best = min(best, elapsed / count)
    return best


def growth_ratios(run: Callable[[T], object], inputs: Sequence[T]) -> list[float]:
    """For inputs that grow 10x each (``inputs[k + 1]`` ten times ``inputs[k]``), the time ratio
    of each step."""
    times = [seconds_per_run(run, argument) for argument in inputs]
    return [later / earlier for earlier, later in itertools.pairwise(times)]


def assert_linear(run: Callable[[T], object], inputs: Sequence[T], what: str = "") -> None:
    """Fails when a 10x step of ``inputs`` costs LIMIT times or more."""
    ratios = growth_ratios(run, inputs)
    shown = ", ".join(f"{ratio:.1f}x" for ratio in ratios)
    assert all(ratio < LIMIT for ratio in ratios), f"{what}: {shown} for 10x steps (limit {LIMIT:.0f}x)"
