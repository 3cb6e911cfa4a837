"""A ``Plan`` run: each file's batches (``batches.Batch``), in order, whoever reads it. The one
orchestrator of the command line (``cli``) and the library (``urlsift.scan``): ``-j 1`` reads here,
file after file (``batches.file_parts``); ``-j N`` and a Dask scheduler run the plan's units on
workers (``batches.unit_parts``, by ``workers.in_order``, imported only then) and put a cut file's
pieces back together (``pieces.in_files``: a column of each batch added to).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from functools import partial
from typing import IO

from .batches import Part, batch_of, file_parts, unit_parts
from .pieces import Scanned, given, in_files
from .plan import Item, Plan, sized
from .results import Watch
from .rows import Options, Report, Tally, walked
from .units import Unit

STREAM_NAME = "<stream>"
"""The ``source`` of a file object's rows when it has no name of its own (``io.BytesIO``)."""

Work = Callable[[Unit], Iterator[Part]]
"""What a worker runs for a unit (``batches.unit_parts`` with the plan's options)."""

__all__ = ["STREAM_NAME", "Scanned", "Watch", "Work", "execute"]


def execute(
    plan: Plan, watch: Watch | None = None, work: Work | None = None
) -> Generator[Scanned, None, None]:
    """Each file's batches, in order. With workers, at most 2 units per worker are read ahead of
    the one being given (memory holds a few units' results, not all), each running ``work``
    (``unit_parts`` with the plan's options unless told: the seam a test gives a worker that fails
    with); file objects, which no other process can read, are read here in their turn, once the
    units before them are done. Closing the generator stops the workers."""
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
        run = partial(unit_parts, options=options) if work is None else work
        while True:
            yield from in_files(in_order(up_to_a_stream(), run, submit, 2 * count, near))
            if not held:
                return
            yield _here(held.pop(), options, watch)


def _here(item: Item, options: Options, watch: Watch | None) -> Scanned:
    """The batches of a file (or file object) read here, or a folder's report."""
    if isinstance(item, Report):
        return None, iter([batch_of([item], walked())]), walked()
    if isinstance(item, Unit):  # (a plan for this process gives files)
        raise TypeError(f"a plan for this process gave a unit: {item!r}")
    tally = Tally()
    if isinstance(item, str):
        name, parts = item, file_parts(item, options, watch=watch)
    else:
        named = getattr(item, "name", None)
        name = named if isinstance(named, str) else STREAM_NAME  # an open file's: its path
        parts = file_parts(name, options, item, watch)
    return name, given(name, None, parts, tally), tally
