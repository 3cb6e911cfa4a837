"""A ``Plan`` run: each file's events, in order, whoever reads it. The one orchestrator of the
command line (``cli``) and the library (``urlsift.scan``): ``-j 1`` reads here, file after file;
``-j N`` and a Dask scheduler run the plan's units on workers (``workers.in_order``, imported only
then) and put a cut file's pieces back together (``pieces.in_files``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from functools import partial
from typing import IO

from .pieces import in_files
from .plan import Item, Plan, sized
from .results import results, stream_results, unit_pieces, walked
from .rows import Event, Options, Render, Report, Tally
from .sources import Counter
from .units import Unit

STREAM_NAME = "<stream>"
"""The ``source`` of a file object's rows when it has no name of its own (``io.BytesIO``)."""

Scanned = tuple[str | None, Iterable[Event], Tally | None]
"""A file's path, its events and its tally (filled in as the events are read); a folder's problem
comes with no path and no tally."""
Watch = Callable[[Iterator[Event], Counter, Tally], Iterable[Event]]
"""The events of a file read here, watched as they come (the progress bar: ``Progress.watch``)."""


def execute(
    plan: Plan, render: Render | None = None, watch: Watch | None = None
) -> Generator[Scanned, None, None]:
    """Each file's events, in order. With workers, at most 2 units per worker are read ahead of
    the one being given (memory holds a few units' results, not all), and the workers print their
    rows with ``render`` when it is given; file objects, which no other process can read, are read
    here in their turn, once the units before them are done. Closing the generator stops the workers."""
    options = plan.options
    if plan.jobs == 1 and plan.scheduler is None:
        for item in plan.items:
            yield _here(item, options, watch)
        return
    jobs, items = sized(plan)
    held: list[IO[bytes]] = []

    def up_to_a_stream() -> Iterator[Unit | Report]:
        for item in items:
            if isinstance(item, (Unit, Report)):
                yield item
            elif isinstance(item, str):  # (a plan for workers gives units)
                raise TypeError(f"a plan for workers gave a path, not a unit: {item!r}")
            else:
                held.append(item)
                return

    from .workers import in_order, workers  # processes, and their modules, only for -j N or a cluster

    with workers(jobs, plan.scheduler, plan.listed) as (submit, count, near):
        work = partial(unit_pieces, options=options, render=render)
        while True:
            for found in in_files(in_order(up_to_a_stream(), work, submit, 2 * count, near)):
                yield (None, [found], walked()) if isinstance(found, Report) else found
            if not held:
                return
            yield _here(held.pop(), options, watch)


def _here(item: Item, options: Options, watch: Watch | None) -> Scanned:
    """The events of a file (or file object) read here, or a folder's report."""
    if isinstance(item, Report):
        return None, [item], walked()
    if isinstance(item, Unit):  # (a plan for this process gives files)
        raise TypeError(f"a plan for this process gave a unit: {item!r}")
    tally, counter = Tally(), Counter()
    if isinstance(item, str):
        name, events = item, results(item, options, tally, counter)
    else:
        named = getattr(item, "name", None)
        name = named if isinstance(named, str) else STREAM_NAME  # an open file's: its path
        events = stream_results(item, name, options, tally, counter)
    return name, events if watch is None else watch(events, counter, tally), tally
