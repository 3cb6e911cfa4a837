"""The columnar Python between the core and the writer, stage by stage, in one command line run
under the Rust core: each stage's CPU time summed over the run (a wrapper around each, timed with
``time.process_time``: a profiler's wall clock counts the other work of a loaded machine).

    python bench/blocks_speed.py [CLI ARGUMENTS ...] [--rounds N]

The stages: the core's reading of a batch of messages (``MailRows.read``), the block of its rows
(``MailBatch.block``, ``_finished`` within it), the builder taking the blocks (``_Builder._block``)
and the batch (``take``), the writer's conversion of the batch's columns (``BatchWriter.rows``) and
its writing (``write``). The run's output goes to /dev/null; the best round's figures are given.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ["URLSIFT_CORE"] = "rust"

from urlsift import _native_mail, batches, cli, output  # (after the core is chosen)

Spent = dict[str, float]


def timed(owner: Any, name: str, label: str, spent: Spent) -> None:
    """``owner.name`` replaced by itself, its CPU time added to ``spent[label]``."""
    function: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **keywords: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **keywords)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - started

    setattr(owner, name, wrapper)


def main() -> None:
    arguments = sys.argv[1:]
    rounds = 3
    if "--rounds" in arguments:
        at = arguments.index("--rounds")
        rounds = int(arguments[at + 1])
        del arguments[at : at + 2]
    spent: Spent = {}
    for owner, name, label in (
        (_native_mail.MailRows, "read", "MailRows.read"),
        (_native_mail.MailBatch, "block", "MailBatch.block"),
        (_native_mail, "_finished", "  _finished (in block)"),
        (batches._Builder, "_block", "_Builder._block"),
        (batches._Builder, "take", "_Builder.take"),
        (output.BatchWriter, "rows", "BatchWriter.rows"),
        (output.BatchWriter, "write", "BatchWriter.write"),
    ):
        timed(owner, name, label, spent)
    best: tuple[float, Spent] | None = None
    for _ in range(rounds):
        spent.clear()
        standard = sys.stdout
        with open(os.devnull, "w") as sys.stdout:
            started = time.process_time()
            try:
                cli.main(arguments)
            finally:
                total = time.process_time() - started
                sys.stdout = standard
        if best is None or total < best[0]:
            best = (total, dict(spent))
    assert best is not None
    total, stages = best
    print(f"command line {total * 1e3:7.1f} ms CPU (best of {rounds})")
    for label, seconds in stages.items():
        print(f"  {label:24} {seconds * 1e3:7.1f} ms")


if __name__ == "__main__":
    main()
