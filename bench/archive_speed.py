"""The command line on a mailing-list mbox, beside a bare loop of ``email.message_from_bytes`` over
the same messages, measured in the same run (issue 5's target was 0.8 of the bare loop's speed;
issue 22's is 1.5x on blinux-list, a list of big messages, and 1.0x on the small-message lists).

    python bench/archive_speed.py [MBOX | --shared] [--rounds N] [--jobs]

The mbox: MBOX, else blinux-list of the shared corpora (--shared, docs/performance.md's figures), else
r-devel-2000-May of the repository's corpora/.

The CLI runs in this process, ``--format jsonl`` written to /dev/null; the bare loop gets the
messages already split (it does less than the CLI, which also reads and splits the file). Each
figure is the best of N rounds, the two interleaved so a slow spell of the machine hits both.
Under ``URLSIFT_CORE=rust`` the command line also runs with the Python oracle's mbox splitter
(``sources/mbox.py``) in place of the native one (issue 32): the figures before and after it, in
one run; and with every message read into Python (``MessageText``, ``Matcher``, rows from
``Match``es) in place of the core's rows of messages (``_native_mail``), likewise. ``--jobs``
also times ``-j 1`` and ``-j 2`` on copies of the mbox (the files are the unit of work).
"""

from __future__ import annotations

import argparse
import contextlib
import email
import gc
import io
import os
import shutil
import tempfile
import time
from array import array
from collections.abc import Callable, Iterator
from itertools import accumulate, chain
from pathlib import Path
from typing import IO
from unittest import mock

from _corpora import REPO, SHARED

from urlsift import _select, results
from urlsift.cli import main
from urlsift.extract import _judge
from urlsift.matches import _HEADER_MATCHES
from urlsift.sources import mbox
from urlsift.sources.mbox import messages

DEFAULT = REPO / "mail" / "r-devel-2000-May.mbox"
SHARED_DEFAULT = SHARED / "mail" / "blinux-list.mbox"


def cli(*argv: str) -> Callable[[], None]:
    def run() -> None:
        _judge.cache_clear()  # each run starts cold, as a fresh process would
        _HEADER_MATCHES.clear()
        with contextlib.suppress(ImportError):  # (a checkout before the host columns has none)
            from urlsift.hosts import clear_caches

            clear_caches()
        with (
            open(os.devnull, "w") as null,
            contextlib.redirect_stdout(null),
            contextlib.redirect_stderr(null),
        ):
            main(["--no-progress", "--format", "jsonl", *argv])

    return run


def best(
    rounds: int, runs: dict[str, Callable[[], None]], clock: Callable[[], float] = time.process_time
) -> dict[str, float]:
    times = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            gc.collect()
            started = clock()
            run()
            times[name] = min(times[name], clock() - started)
    return times


_CHUNKED = ("number", "offset", "size", "complete", "pipermail")
"""A chunk's columns after where each message ends (``MboxSplitter.feed_chunk``'s)."""


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mbox", nargs="?")
    parser.add_argument("--shared", action="store_true", help=f"read {SHARED_DEFAULT}")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--jobs", action="store_true")
    args = parser.parse_args()
    if args.mbox and args.shared:
        parser.error("an MBOX or --shared, not both")
    args.mbox = args.mbox or str(SHARED_DEFAULT if args.shared else DEFAULT)
    if not Path(args.mbox).is_file():
        parser.error(f"no mbox at {args.mbox}")
    data = Path(args.mbox).read_bytes()
    split = [message.data for message in messages(io.BytesIO(data))]
    megabytes = len(data) / 1e6

    def bare() -> None:
        for message in split:
            email.message_from_bytes(message)

    runs = {"bare": bare, "cli": cli(args.mbox)}
    if _select.CORE == "rust":
        native_cli = runs["cli"]

        def oracle(native: object, file: IO[bytes], limit: int, start: int) -> Iterator[mbox.RawMessage]:
            return mbox._messages(file, limit, start)

        def oracle_chunks(native: object, file: IO[bytes], limit: int, start: int) -> Iterator[mbox.Chunk]:
            # The Python splitter's messages in chunks of about a block, as the core's columns.
            held: list[mbox.RawMessage] = []
            for message in chain(mbox._messages(file, limit, start), [None]):
                if held and (message is None or sum(len(m.data) for m in held) >= mbox.BLOCK_BYTES):
                    ends = list(accumulate(len(m.data) for m in held))
                    columns = [ends, *([getattr(m, name) for m in held] for name in _CHUNKED)]
                    yield b"".join(m.data for m in held), array("q", [n for c in columns for n in c])
                    held = []
                if message is not None:
                    held.append(message)

        def python_split() -> None:
            with (
                mock.patch.object(mbox, "_native_messages", oracle),
                mock.patch.object(mbox, "_chunks", oracle_chunks),
            ):
                native_cli()

        runs["python split"] = python_split

        def python_messages() -> None:  # issue 32: each message read into Python, as before
            with mock.patch.object(results, "_read_options", lambda options: options.read):
                native_cli()

        runs["python messages"] = python_messages
    times = best(args.rounds, runs)
    print(f"{Path(args.mbox).name}: {megabytes:.1f} MB, {len(split)} messages, best of {args.rounds}")
    print(f"  bare email.message_from_bytes loop  {megabytes / times['bare']:6.1f} MB/s")
    print(f"  urlsift --format jsonl              {megabytes / times['cli']:6.1f} MB/s")
    target = "1.5, issue 22" if Path(args.mbox).name == SHARED_DEFAULT.name else "1.0 for small messages"
    print(f"  ratio                               {times['bare'] / times['cli']:6.2f}  (target >= {target})")
    if "python split" in times:
        print(f"  the same, Python mbox splitter       {megabytes / times['python split']:6.1f} MB/s")
        print(f"  ratio                               {times['bare'] / times['python split']:6.2f}")
        print(f"  the same, messages read into Python {megabytes / times['python messages']:6.1f} MB/s")
        print(f"  ratio                               {times['bare'] / times['python messages']:6.2f}")
    if args.jobs:
        with tempfile.TemporaryDirectory() as folder:
            copies = []
            for k in range(8):
                copies.append(str(Path(folder) / f"copy{k}.mbox"))
                shutil.copyfile(args.mbox, copies[-1])
            # Wall time here: the work is done in worker processes, not this one.
            jobs = {"j1": cli("-j", "1", *copies), "j2": cli("-j", "2", *copies)}
            times = best(3, jobs, time.perf_counter)
        total = megabytes * len(copies)
        print(f"  8 copies, -j 1                      {total / times['j1']:6.1f} MB/s")
        print(f"  8 copies, -j 2                      {total / times['j2']:6.1f} MB/s")
        ratio = times["j1"] / times["j2"]
        print(f"  -j 2 / -j 1                         {ratio:6.2f}  ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main_bench()
