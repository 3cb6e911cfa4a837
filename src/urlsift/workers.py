"""Units of work (``units.plan``) run on workers, their results taken back in order: ``-j N``
processes here, or Dask (``urlsift.dask``, imported only then: a cluster, or Dask's multiprocessing
scheduler over processes started here as ``-j``'s are).

At most ``ahead`` units are in flight past the one whose results are wanted next, so memory holds
a few units' results, not the run's. Nothing is lost silently: a unit whose worker fails gives a
``lost`` report on each of its files instead of their results, and the other units go on.

A worker process dies with the process that started it (killed with SIGKILL, it cannot stop them
itself): on Linux the kernel sends it SIGKILL then (``PR_SET_PDEATHSIG``), elsewhere a thread of
its own watches its parent. Ctrl-C is the parent's to handle: workers ignore SIGINT, and the
parent stops them.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

from ._work import Submit, Work
from .results import lost
from .rows import FileEvents, Report
from .units import Unit

Done = tuple[Unit, list[FileEvents]] | Report

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_WATCH_SECONDS = 1.0
"""How often a worker with no PR_SET_PDEATHSIG looks whether its parent is still there."""


@contextmanager
def workers(jobs: int, scheduler: str | None, paths: Sequence[str]) -> Iterator[tuple[Submit, int]]:
    """A way to run a unit's work on a worker, and how many workers there are: ``jobs`` processes
    here, or Dask's ``scheduler`` (``local:N``: N processes here, as ``jobs`` are started; else a
    cluster whose workers must see ``paths``)."""
    if scheduler is None:
        with _Processes(jobs) as processes:
            yield processes.submit, jobs
        return
    from .dask import cluster  # Dask is an optional extra

    with cluster(scheduler, paths, _Processes) as (submit, count):
        yield submit, count


_Result = TypeVar("_Result")
_Arguments = ParamSpec("_Arguments")


class _Processes(Executor):
    """``jobs`` worker processes that outlive the death of one (killed, out of memory): the pool,
    broken then for every unit in it, is started again for the units after, and each unit that
    was in flight is read again alone (``in_order``), so only the one that killed its worker is
    lost. Left with an exception (Ctrl-C, the reader gone: a closed pipe), it ends the workers
    at once, in the middle of their units: no unit is waited for."""

    def __init__(self, jobs: int) -> None:
        self._max_workers = jobs  # ProcessPoolExecutor's name, which ``dask.multiprocessing.get`` reads
        self.pool = _pool(jobs)
        self._restart = threading.Lock()  # Dask submits from threads (``dask.cluster``): one new pool

    def submit(
        self, fn: Callable[_Arguments, _Result], /, *args: _Arguments.args, **kwargs: _Arguments.kwargs
    ) -> Future[_Result]:
        pool = self.pool
        try:
            return _submit(pool, fn, *args, **kwargs)
        except BrokenProcessPool:
            with self._restart:
                if self.pool is pool:
                    pool.shutdown(wait=False)
                    self.pool = _pool(self._max_workers)
            return _submit(self.pool, fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.pool.shutdown(wait, cancel_futures=cancel_futures)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        if error is not None:
            self.stop()
        self.shutdown(cancel_futures=True)

    def stop(self) -> None:
        """End the workers now, in the middle of their units (the executor has no way to say it:
        its ``shutdown`` waits for the units running)."""
        for process in list((getattr(self.pool, "_processes", None) or {}).values()):
            process.terminate()


def _pool(jobs: int) -> ProcessPoolExecutor:
    # A pool forks its workers in the thread that gives it its first task, which is the one that
    # makes it (``_Processes``). Linux's PR_SET_PDEATHSIG kills a worker when the *thread* that
    # forked it ends: only the main thread lasts as long as the run. A pool started again by one
    # of Dask's threads (``dask.cluster``) has its workers watch their parent instead: killed
    # with that thread at the end of the run, one held the result queue's lock, and the pool's
    # shutdown waited for ever.
    death_signal = threading.current_thread() is threading.main_thread()
    return ProcessPoolExecutor(
        max_workers=jobs, initializer=die_with_parent, initargs=(os.getpid(), death_signal)
    )


_forking = threading.Lock()
"""Held while a pool is given a task, which forks its workers when it is the first: a process forked
by another thread meanwhile (Dask's, ``dask.cluster``) would hold the new worker's pipes open, and
that worker's death would never be seen (a run that waits for ever)."""


def _submit(
    pool: ProcessPoolExecutor,
    fn: Callable[_Arguments, _Result],
    /,
    *args: _Arguments.args,
    **kwargs: _Arguments.kwargs,
) -> Future[_Result]:
    with _forking:
        return pool.submit(fn, *args, **kwargs)


def die_with_parent(parent: int, death_signal: bool = True) -> None:
    """Run in each worker as it starts: it ends when ``parent`` does, and leaves SIGINT to it;
    without ``death_signal``, by a thread that watches the parent (see ``_pool``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not (death_signal and _death_signal()):
        threading.Thread(target=_watch, args=(parent,), name="urlsift-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


def _death_signal() -> bool:
    """Ask Linux for SIGKILL when the parent dies; False where that cannot be had."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)


def in_order(units: Iterable[Unit | Report], work: Work, submit: Submit, ahead: int) -> Iterator[Done]:
    """The results of ``units`` in their order, at most ``ahead`` of them in flight; standard input
    is read here, in its turn; anything else (a report on a folder) is passed on in its place."""
    waiting: deque[tuple[Unit | Report, Future[list[FileEvents]] | None]] = deque()
    for unit in units:
        if isinstance(unit, Report) or "-" in unit.names:
            waiting.append((unit, None))
        else:
            waiting.append((unit, submit(work, unit)))
        while len(waiting) > ahead or (waiting and waiting[0][1] is None):
            yield _result(*waiting.popleft(), work)
    while waiting:
        yield _result(*waiting.popleft(), work)


def _result(unit: Unit | Report, future: Future[list[FileEvents]] | None, work: Work) -> Done:
    if isinstance(unit, Report):
        return unit
    if future is None:
        return unit, work(unit)
    try:
        return unit, future.result()
    except BrokenProcessPool:  # a worker died, with this unit or another one in flight
        return unit, _alone(work, unit)
    except Exception as error:  # a result that could not be sent back; Dask: a worker lost
        return unit, _lost(unit, error)


def _alone(work: Work, unit: Unit) -> list[FileEvents]:
    """``unit`` read again in a process of its own, where no other unit can take it down."""
    with _pool(1) as pool:
        try:
            return _submit(pool, work, unit).result()
        except Exception as error:
            return _lost(unit, error)


def _lost(unit: Unit, error: BaseException) -> list[FileEvents]:
    return [lost(path, error) for path in unit.names or (unit.path,)]
