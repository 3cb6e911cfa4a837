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
import pickle
import selectors
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from functools import partial
from typing import Any, NamedTuple, ParamSpec, TypeVar

from ._work import Sent, Submit, Work
from .batches import Part, batch_of
from .pieces import Done
from .results import lost
from .rows import Report
from .units import Unit

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_WATCH_SECONDS = 1.0
"""How often a worker with no PR_SET_PDEATHSIG looks whether its parent is still there."""


@contextmanager
def workers(jobs: int, scheduler: str | None, paths: Sequence[str]) -> Iterator[Workers]:
    """A way to run a unit's work on a worker, how many workers there are, and whether they are
    near: ``jobs`` processes here, or Dask's ``scheduler`` (``local:N``: N processes here, as
    ``jobs`` are started; else a cluster whose workers must see ``paths``)."""
    if scheduler is None:
        with _Processes(jobs) as processes:
            yield Workers(processes.submit, jobs, True)
        return
    from .dask import cluster  # Dask is an optional extra

    with cluster(scheduler, paths, _Processes) as (submit, count, near):
        yield Workers(submit, count, near)


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


class Workers(NamedTuple):
    """How to run units of work (``workers``)."""

    submit: Submit
    number: int
    """Of workers."""
    near: bool
    """Whether the workers run on this machine, and send their units' pieces as they come
    (``send_pieces``); a cluster's send each unit's whole."""


HELD_BYTES = 8 << 20
"""The most of a unit's pieces held here, received ahead of the printer: past it its worker
waits, its socket full, until the printer has taken some (the bound on what ``-j`` holds)."""
_END = bytes(8)
"""A piece of no bytes: the unit's last was sent."""


def send_pieces(work: Work, address: str, skip: int, unit: Unit) -> None:
    """Run in a worker: ``unit``'s pieces sent to the Unix socket at ``address`` as they come (each
    its length, then its pickle), then ``_END``; the first ``skip`` are not sent (a unit read again
    after its worker died: they were received from that one)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(address)
        for k, piece in enumerate(work(unit)):
            if k >= skip:
                data = pickle.dumps(piece, pickle.HIGHEST_PROTOCOL)
                connection.sendall(len(data).to_bytes(8, "big"))
                connection.sendall(data)
        connection.sendall(_END)


def _listed(work: Work, unit: Unit) -> list[Part]:
    """Run on a cluster's worker, which cannot reach this machine's sockets: the unit's pieces."""
    return list(work(unit))


def in_order(
    units: Iterable[Unit | Report], work: Work, submit: Submit, ahead: int, near: bool = True
) -> Iterator[Done]:
    """The results of ``units`` in their order, at most ``ahead`` of them in flight; standard input
    is read here, in its turn; anything else (a report on a folder) is passed on in its place. A
    unit's pieces come as its worker sends them (``near``: ``Workers.near``), and must be read
    before the next unit is asked for."""
    with _Flights(work, submit, near) as flights:
        waiting: deque[_Flight | Unit | Report] = deque()
        for unit in units:
            if isinstance(unit, Report) or "-" in unit.names:
                waiting.append(unit)
            else:
                waiting.append(flights.start(unit))
            while len(waiting) > ahead or (waiting and not isinstance(waiting[0], _Flight)):
                yield flights.done(waiting.popleft())
        while waiting:
            yield flights.done(waiting.popleft())


class _Flight:
    """A unit on a worker, and what its worker has sent of it."""

    def __init__(self, unit: Unit, future: Future[Sent], listener: socket.socket | None, skip: int) -> None:
        self.unit = unit
        self.future = future
        self.listener = listener
        self.connection: socket.socket | None = None
        self.frames: deque[bytes] = deque()  # pieces received, pickled
        self.held = 0  # their bytes
        self.partial = bytearray()  # a piece being received
        self.paused = False  # its connection not read (``HELD_BYTES`` held)
        self.received = skip  # pieces received (with those the worker was told to skip)
        self.ended = False  # its worker sent ``_END``
        self.closed = listener is None  # nothing more can come
        self.pool: ProcessPoolExecutor | None = None  # a pool of its own (read again alone)


class _Flights:
    """The units in flight and their workers' sockets (one listening Unix socket per unit, in a
    folder only this user can enter), read in this thread when the printer wants a piece: any
    worker's pieces are taken in as they come, each unit's up to ``HELD_BYTES``."""

    def __init__(self, work: Work, submit: Submit, near: bool) -> None:
        self.work, self.submit, self.near = work, submit, near
        self.folder = tempfile.mkdtemp(prefix="urlsift-") if near else None
        self.selector = selectors.DefaultSelector()
        self.wake = os.pipe()  # a future done (``_woken``): its unit may never connect
        for end in self.wake:
            os.set_blocking(end, False)
        self.selector.register(self.wake[0], selectors.EVENT_READ, None)
        self.lock = threading.Lock()  # futures end in other threads: none writes to a closed pipe
        self.open = True
        self.flights: set[_Flight] = set()
        self.made = 0

    def __enter__(self) -> _Flights:
        return self

    def __exit__(self, *exception: object) -> None:
        for flight in list(self.flights):
            self._drop(flight)
        with self.lock:
            self.open = False
            os.close(self.wake[0])
            os.close(self.wake[1])
        self.selector.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def start(self, unit: Unit, skip: int = 0, alone: bool = False) -> _Flight:
        """``unit`` given to a worker (``alone``: to a new process of its own, where no other unit
        can take it down)."""
        pool = _pool(1) if alone else None
        submit: Submit = self.submit if pool is None else partial(_submit, pool)
        if self.folder is None:
            flight = _Flight(unit, submit(partial(_listed, self.work), unit), None, skip)
        else:
            address = os.path.join(self.folder, str(self.made))
            self.made += 1
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(address)
            listener.listen(1)
            listener.setblocking(False)
            task = partial(send_pieces, self.work, address, skip)
            flight = _Flight(unit, submit(task, unit), listener, skip)
            self.selector.register(listener, selectors.EVENT_READ, flight)
            flight.future.add_done_callback(self._woken)
        flight.pool = pool
        self.flights.add(flight)
        return flight

    def _woken(self, _: object) -> None:
        with self.lock:
            if self.open:
                with suppress(BlockingIOError):
                    os.write(self.wake[1], b"\0")

    def done(self, item: _Flight | Unit | Report) -> Done:
        if isinstance(item, Report):
            return item
        if isinstance(item, Unit):  # standard input, read here
            return item, iter(self.work(item))
        return item.unit, self._pieces(item)

    def _pieces(self, flight: _Flight) -> Iterator[Part]:
        """``flight``'s pieces as they come. A worker that died is replaced by a process of its
        own that reads the unit again, the pieces received before skipped; a unit that failed
        gives a ``lost`` report on each of its files not finished."""
        finished = 0  # files whose last piece was given
        begun = False  # whether a piece of the next one was
        try:
            while True:
                if self.folder is None:  # a cluster's worker: the unit's pieces all at once
                    try:
                        yield from flight.future.result() or ()
                        return
                    except Exception as error:
                        failure: BaseException | None = error
                else:
                    frame = self._next(flight)
                    if frame is not None:
                        piece: Part = pickle.loads(frame)
                        finished += piece[2]
                        begun = not piece[2]
                        yield piece
                        continue
                    if flight.ended:
                        return
                    failure = flight.future.exception()
                    if isinstance(failure, BrokenProcessPool) and flight.pool is None:
                        # A worker died, with this unit or another one in flight: read it again alone.
                        self._drop(flight)
                        flight = self.start(flight.unit, flight.received, alone=True)
                        continue
                failure = failure or RuntimeError("its worker ended before the unit did")
                for k, path in enumerate((flight.unit.names or (flight.unit.path,))[finished:]):
                    path, events, counts, last = lost(path, failure, begun and not k)
                    yield path, batch_of(events, counts), last
                return
        finally:
            self._drop(flight)

    def _next(self, flight: _Flight) -> bytes | None:
        """``flight``'s next piece, pickled, once it has come; None when no more can."""
        while not flight.frames and not flight.closed:
            self._receive(flight)
        if not flight.frames:
            return None
        frame = flight.frames.popleft()
        flight.held -= len(frame)
        if flight.paused and flight.held < HELD_BYTES and flight.connection is not None:
            flight.paused = False
            self.selector.register(flight.connection, selectors.EVENT_READ, flight)
        return frame

    def _receive(self, wanted: _Flight) -> None:
        """What the workers have sent, taken in; waits until something comes for any of them."""
        if wanted.connection is None and wanted.future.done():
            self._accept(wanted)  # it connected before its task ended, or never will
            if wanted.connection is None:
                self._close(wanted)
                return
        for key, _ in self.selector.select():
            flight = key.data
            if flight is None:
                with suppress(BlockingIOError):
                    os.read(self.wake[0], 1 << 12)
            elif key.fileobj is flight.listener:
                self._accept(flight)
            else:
                self._read(flight)

    def _accept(self, flight: _Flight) -> None:
        if flight.listener is None:
            return
        try:
            connection, _ = flight.listener.accept()
        except BlockingIOError:
            return
        self.selector.unregister(flight.listener)
        flight.listener.close()
        flight.listener = None
        connection.setblocking(False)
        flight.connection = connection
        self.selector.register(connection, selectors.EVENT_READ, flight)

    def _read(self, flight: _Flight) -> None:
        connection = flight.connection
        if connection is None:
            return
        try:
            data = connection.recv(1 << 18)
        except BlockingIOError:
            return
        except OSError:  # a connection reset: the worker is gone
            data = b""
        if not data:
            self._close(flight)
            return
        buffer = flight.partial
        buffer += data
        at = 0
        while len(buffer) - at >= 8:
            size = int.from_bytes(buffer[at : at + 8], "big")
            if size == 0:
                flight.ended = True
                at += 8
                continue
            if len(buffer) - at - 8 < size:
                break
            flight.frames.append(bytes(buffer[at + 8 : at + 8 + size]))
            flight.held += size
            flight.received += 1
            at += 8 + size
        del buffer[:at]
        if flight.held >= HELD_BYTES and not flight.paused:
            flight.paused = True  # the worker waits (its socket full) until the printer takes some
            self.selector.unregister(connection)

    def _close(self, flight: _Flight) -> None:
        """Nothing more comes from ``flight``'s worker."""
        flight.closed = True
        for end in (flight.listener, flight.connection):
            if end is not None:
                if not (end is flight.connection and flight.paused):
                    self.selector.unregister(end)
                end.close()
        flight.listener = flight.connection = None
        flight.paused = False

    def _drop(self, flight: _Flight) -> None:
        """``flight`` done with: its sockets closed, its own pool (if any) shut down."""
        if flight not in self.flights:
            return
        self.flights.discard(flight)
        self._close(flight)
        flight.frames.clear()
        if flight.pool is not None:
            flight.pool.shutdown(wait=flight.ended, cancel_futures=True)
