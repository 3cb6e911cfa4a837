"""The units of work (``units.plan``) read on a Dask cluster: ``urlsift --scheduler`` and the
library face ``scan`` / ``to_dataframe``. Dask is an optional extra (``pip install urlsift[dask]``);
this module is imported only when it is used.

The cluster is one people already run (``dask scheduler``, ``dask worker``, on shared storage), or
a local one: ``--scheduler local:N`` is Dask's multiprocessing scheduler on N processes forked here,
which starts in a tenth of the time a ``distributed`` cluster takes. A worker runs
``batches.unit_parts``, the function ``-j`` runs in its processes, so a cluster finds exactly what
``-j 1`` finds.
"""

from __future__ import annotations

import importlib
import logging
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

from ._model import ProfileName
from .batches import Part, unit_parts
from .errors import ClusterError, MissingExtra
from .grammar import STRICT
from .pieces import Joined
from .plan import build
from .rows import FIELDS, Event, Options, Report
from .scanner import KNOWN_SCHEMES
from .sources import MAX_MESSAGE, ReadOptions
from .sources.packed import MAX_EXPAND, ZSTD_WINDOW_LOG
from .units import SPLIT_BYTES, Unit

if TYPE_CHECKING:
    import dask.bag
    import dask.dataframe
    from distributed import Client

    from ._work import Sent, Submit, Task

CONNECT_SECONDS = 30
"""How long a scheduler may take to answer, and a local cluster's workers to come up."""


def _dask(*extra: str) -> None:
    """Dask (and the ``extra`` modules of it asked for), or a MissingExtra saying how to get it."""
    try:
        import dask  # noqa: F401

        for name in extra:
            importlib.import_module(name)
    except ImportError as error:
        raise MissingExtra(f"Dask is not installed ({error})", "dask") from None


@contextmanager
def client(scheduler: str) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``: ``tcp://HOST:PORT`` (or any address Dask takes),
    or ``local:N`` for a cluster of N worker processes started here, on 127.0.0.1, and stopped
    after."""
    _dask("distributed")
    from distributed import Client, LocalCluster

    if scheduler.startswith("local:"):
        count = _local_workers(scheduler)
        import dask

        # Workers forked from this process, which has imported all they need, start at once;
        # spawned (Dask's default), each imports Dask and urlsift again first: 1.3 s more wall
        # time on a 2-core machine. Their statistical profiler (a stack sample every 10 ms, for a
        # dashboard this cluster does not serve) took 10-20% more worker CPU time (2026-11-23).
        local_settings = {
            "distributed.worker.multiprocessing-method": "fork",
            "distributed.worker.profile.enabled": False,
        }
        with dask.config.set(local_settings), _quiet_workers():
            local = LocalCluster(
                n_workers=count,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                # Its HTTP server on any free port of 127.0.0.1 (None would still take 8787,
                # and warn when another cluster has it).
                dashboard_address=":0",
            )
        with local, Client(local) as connected:
            yield connected
        return
    try:
        connected = Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, ValueError, TimeoutError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    with connected:
        yield connected


@contextmanager
def _quiet_workers() -> Iterator[None]:
    """Local workers forked here with their log at CRITICAL only, and SIGINT ignored. A run that
    ends early (a closed pipe, Ctrl-C) cancels their tasks, and each said so ("Async instruction
    ... ended with CancelledError", a heartbeat's traceback) on the user's terminal; Ctrl-C, sent
    to the whole process group, gave each worker a traceback of its own (this process handles it,
    and stops the cluster). A unit that really fails comes back as an exception: ``lost``."""
    worker_log = logging.getLogger("distributed.worker")
    level = worker_log.level
    worker_log.setLevel(logging.CRITICAL)
    interrupt = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:  # this process's own again: the workers keep theirs
        signal.signal(signal.SIGINT, interrupt)
        worker_log.setLevel(level)


def _local_workers(scheduler: str) -> int:
    """N of ``local:N``."""
    count = scheduler.removeprefix("local:")
    if not (count.isascii() and count.isdigit()) or int(count) < 1:
        raise ClusterError(f"not a number of workers: {scheduler!r} (say local:4)")
    return int(count)


@contextmanager
def cluster(
    scheduler: str, paths: Sequence[str], processes: Callable[[int], Executor]
) -> Iterator[tuple[Submit, int, bool]]:
    """``cli``'s way to run units with Dask: a submit function (a unit's work, and the unit), the
    number of workers, and whether they run here (``workers.Workers.near``: they send a unit's
    pieces as they come, where a cluster's send its whole). ``local:N``: Dask's multiprocessing
    scheduler (``scheduler="processes"``) on ``processes(N)``, the processes ``-j N`` runs (forked
    here, they die with this one). Else the cluster at ``scheduler``, whose workers must see
    ``paths`` (shared storage): any they cannot read is refused before work starts."""
    if scheduler.startswith("local:"):
        count = _local_workers(scheduler)
        # Not a LocalCluster of ``distributed``: importing it took 0.4-0.7 s and starting one 0.1-0.5 s
        # more, where Dask and its multiprocessing scheduler import in 0.1 s (2026-11-24). Imported
        # before the first unit forks the workers, which then have it.
        _dask("dask.multiprocessing")
        with processes(count) as pool:
            # Its workers forked now, by this thread, not by one of Dask's: Linux kills a worker
            # when the thread that forked it ends (PR_SET_PDEATHSIG, ``workers.die_with_parent``).
            pool.submit(os.getpid).result()
            with _scheduling(pool, count) as submit:
                yield submit, count, True
        return
    with client(scheduler) as connected:
        try:
            connected.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except TimeoutError:
            raise ClusterError(f"the Dask cluster at {scheduler} has no worker") from None
        _check_paths(connected, [path for path in paths if path != "-"])
        executor = connected.get_executor(pure=False)
        yield executor.submit, len(connected.scheduler_info()["workers"]), False


@contextmanager
def _scheduling(pool: Executor, count: int) -> Iterator[Submit]:
    """A submit function that computes each unit's work as a Dask task on ``pool``'s processes.
    Dask's local schedulers compute a whole graph and then return, where ``cli`` wants each unit
    back as soon as it is done, and no more than a few units ahead: so each unit is a graph of
    its own, computed in a thread of this process, one a worker. The units wait in the threads'
    queue, so each starts when a worker is free, in their order, as ``-j``'s do (with more threads
    than workers, the threads raced to hand theirs to the pool: a later unit could take the
    worker the first one needed, whose results ``cli`` waits for with the others held)."""
    threads = ThreadPoolExecutor(count, thread_name_prefix="urlsift-dask")

    def submit(work: Task, unit: Unit) -> Future[Sent]:
        return threads.submit(_computed, pool, work, unit)

    try:
        yield submit
    finally:  # not waiting: after an exception (Ctrl-C), ``pool`` ends the units in flight
        threads.shutdown(wait=False, cancel_futures=True)


def _computed(pool: Executor, work: Task, unit: Unit) -> Sent:
    import dask
    import dask.multiprocessing

    # The scheduler as a function, not by its name ("processes"): a name has Dask import
    # ``distributed`` first, to look for a Client to prefer (0.4 s).
    task = dask.delayed(work, pure=False)(unit)
    found: Sent = task.compute(scheduler=dask.multiprocessing.get, pool=pool)
    return found


def _check_paths(connected: Client, paths: Sequence[str]) -> None:
    unseen = connected.run(_unreadable, list(paths))
    problems = [f"{worker} cannot read {', '.join(missing)}" for worker, missing in unseen.items() if missing]
    if problems:
        raise ClusterError(
            "the paths must be readable by every worker (shared storage): " + "; ".join(problems)
        )


def _unreadable(paths: list[str]) -> list[str]:
    """The paths this worker cannot read (run on each worker)."""
    return [path for path in paths if not os.access(path, os.R_OK)]


def scan(
    paths: str | Iterable[str],
    *,
    profile: ProfileName = STRICT.name,
    naked: bool = True,
    invalid: bool = False,
    schemes: Iterable[str] = KNOWN_SCHEMES,
    input_format: str = "auto",
    max_expand: int = MAX_EXPAND,
    max_message: int = MAX_MESSAGE,
    text_fields: Iterable[str] = (),
    id_field: str | None = None,
    zstd_window_log: int = ZSTD_WINDOW_LOG,
    split_size: int = SPLIT_BYTES,
    context: int | None = None,
) -> dask.bag.Bag:
    """The result records of ``paths`` (files and folders, read as the CLI reads them), one
    partition per unit of work: each row a dict with the columns of the CLI's jsonl
    (``rows.FIELDS``), each problem a dict ``{"report": place, "kind", "detail", "error"}``
    (``reports`` picks them out); ``context=N`` fills the context column, as ``urlsift.scan``'s
    does (a plain text is then read whole, as there). Units are planned here, so the paths must
    be readable both here and by the workers. Records come in the order ``urlsift -j 1`` prints them.

    Computed on the Client in use (``distributed.Client(...)``, or ``scheduler=`` to ``compute``),
    if any. With none, ``compute`` starts a local cluster on 127.0.0.1 (one one-thread worker
    process per core, at most one per unit of work, forked from this process: a plain script
    needs no ``__main__`` guard), and stops it when it returns."""
    _dask("dask.bag", "distributed")
    import dask
    import dask.bag

    read = ReadOptions(input_format, max_expand, max_message, tuple(text_fields), id_field, zstd_window_log)
    if context is not None and (isinstance(context, bool) or not isinstance(context, int) or context < 0):
        raise ValueError(f"context must be a number of characters, not {context!r}")
    options = Options(
        profile=profile, naked=naked, invalid=invalid, schemes=frozenset(schemes), read=read, context=context
    )
    planned = build([paths] if isinstance(paths, str) else paths, options, jobs=None, split=split_size)
    parts: list[Any] = []
    joined: Any = None
    for unit in planned.items:
        if isinstance(unit, Report):
            parts.append(dask.delayed(_report_records)([unit]))
            continue
        if not isinstance(unit, Unit):  # (the paths are paths: a plan for a graph gives units)
            raise TypeError(f"urlsift.dask.scan reads paths, not {type(unit).__name__}")
        found = dask.delayed(_parts, pure=True)(unit, planned.options)
        if unit.kind == "files":
            parts.append(dask.delayed(_records)(found))
            continue
        before = Joined() if unit.start == 0 else joined
        piece = dask.delayed(_piece, nout=2)(unit, found, before)
        parts.append(piece[0])
        joined = piece[1]
    bag = dask.bag.from_delayed(parts) if parts else dask.bag.from_sequence([], npartitions=1)
    return _scan_bag()(bag.dask, bag.name, bag.npartitions)


@cache
def _scan_bag() -> type[dask.bag.Bag]:
    """A Bag that, computed with no scheduler chosen, runs on a local cluster of its own
    (``_on_a_local_cluster``); the bags made from it (``filter``, ``map`` ...) are ones too."""
    import dask.bag

    class ScanBag(dask.bag.Bag):  # type: ignore[misc]  # Dask is untyped
        __dask_scheduler__ = staticmethod(_on_a_local_cluster)

    return ScanBag


def _on_a_local_cluster(graph: Any, keys: Any, **kwargs: Any) -> Any:
    """Compute ``keys`` of ``graph`` on a local cluster started for it and stopped after: one
    one-thread worker process per core this process may use (at most one per task), forked from
    this process (``client``), so a plain script with no ``if __name__ == "__main__"`` guard is
    not run again in each worker, as Dask's default process pool (spawn) runs it."""
    from dask.core import flatten

    tasks = sum(1 for _ in flatten(keys))
    with client(f"local:{max(1, min(_cores(), tasks))}") as connected:
        return connected.get(graph, keys, **kwargs)


def _cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _parts(unit: Unit, options: Options) -> list[Part]:
    """A unit's parts, held whole (what a cluster's worker gives back)."""
    return list(unit_parts(unit, options))


def _records(found: list[Part]) -> list[dict[str, Any]]:
    return [_record(event) for _, batch, _ in found for event in batch.events()]


def _piece(unit: Unit, found: list[Part], before: Joined) -> tuple[list[dict[str, Any]], Joined]:
    batches, after = before.piece(unit, found)
    return [_record(event) for batch in batches for event in batch.events()], after


def _record(event: Event) -> dict[str, Any]:
    if isinstance(event, Report):
        return {"report": event.place, "kind": event.kind, "detail": event.detail, "error": event.lost_input}
    return event._asdict()


def _report_records(reports: list[Report]) -> list[dict[str, Any]]:
    return [_record(report) for report in reports]


def reports(bag: dask.bag.Bag) -> dask.bag.Bag:
    """The problem records of a ``scan`` bag."""
    return bag.filter(lambda found: "report" in found)


def to_dataframe(bag: dask.bag.Bag) -> dask.dataframe.DataFrame:
    """The rows of a ``scan`` bag as a Dask DataFrame with the jsonl columns, typed as the Parquet
    output types them (``parquet.SCHEMA``: ``date`` a UTC timestamp, ``alternatives`` a list)."""
    _dask("dask.dataframe")  # (pandas)
    import dask
    import dask.dataframe

    from .parquet import frame, meta

    rows = bag.filter(lambda found: "report" not in found)
    return dask.dataframe.from_delayed([dask.delayed(frame)(part) for part in rows.to_delayed()], meta=meta())


__all__ = ["FIELDS", "client", "cluster", "reports", "scan", "to_dataframe"]
