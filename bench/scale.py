"""Scaling out (issue 8): one archive of 1 GB or more, made by repeating the mboxes of the corpora,
read by ``urlsift -j 1``, ``-j 2`` ... and a local Dask cluster of 2 ... workers, in the same run.

    python bench/scale.py [--size 1G] [--jobs 1,2] [--rounds 2] [--startup 5] [--dir /tmp]
                          [--shared | --corpora DIR]

The mboxes repeated: those of the corpora's mail/ folder (the repository's by default; docs'
figures are from the shared corpora, --shared).

Each run is a fresh process (``--no-progress --format jsonl --invalid`` to /dev/null), so process and
cluster start-up count. The figures: MB/s (wall time, the best round), the speed-up (each round's
``-j 1`` wall time over the run's, in rounds interleaved so a slow spell of the machine hits both
sides of a ratio; the median and each round's), the scaling efficiency (speed-up over N), and the
peak resident memory of the printing process and of the busiest worker, sampled every 0.1 s from
/proc over the whole process tree, and the machine's idle and stolen CPU time during the run
(median): on a shared virtual machine, time stolen by its neighbours slows runs that need every
core, and idle time shows a core the run left unused. First, each way's start-up: its wall time on
an empty file, beside ``-j 1``'s (a local Dask cluster imports Dask and starts its processes), and
what it is made of, timed inside a fresh process: the import of urlsift's command line, the
workers' start (``workers.workers``: Dask's import and its cluster, or a pool), the first unit's
results (which start a pool's processes) and the stop. With ``--before SRC`` each way is also run
with ``PYTHONPATH=SRC`` (another checkout's ``src``), interleaved, for a before and after in one run:

    python bench/scale.py --startup-only --startup 7 --before ../base/src
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

from _corpora import add_options, files
from _corpora import root as corpora_root

from urlsift.cli import _size

URLSIFT = [sys.executable, "-m", "urlsift"]


def make_archive(folder: Path, size: int, sources: list[Path]) -> Path:
    """An mbox of at least ``size`` bytes: ``sources``, one after another, again and again."""
    made_of = hashlib.sha256("\n".join(map(str, sources)).encode()).hexdigest()[:8]  # kept for a rerun
    path = folder / f"scale-{size // 10**6}MB-{made_of}.mbox"
    if path.exists() and path.stat().st_size >= size:
        return path
    written = 0
    with path.open("wb") as out:
        while written < size:
            for source in sources:
                data = source.read_bytes()
                out.write(data if data.endswith(b"\n") else data + b"\n")
                out.write(b"\n")
                written += len(data) + 2
    return path


def _tree_rss(root: int) -> dict[int, int]:
    """Resident bytes of ``root`` and every process under it."""
    found: dict[int, int] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            rss = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
            found[pid] = int(rss.split()[1]) * 1024
            for task in os.listdir(f"/proc/{pid}/task"):
                todo.extend(int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split())
        except (OSError, StopIteration, ValueError):
            continue
    return found


def _cpu_ticks() -> list[int]:
    """The machine's CPU time so far, by state (/proc/stat: user nice system idle iowait irq
    softirq steal ...)."""
    return [int(ticks) for ticks in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]


class Run(NamedTuple):
    seconds: float
    main_peak: int
    """Peak RSS of the printing process ..."""
    worker_peak: int
    """... and of the largest other process."""
    idle: float
    """Of the machine's CPU time during the run, the share left idle (a core the run did not use)
    ..."""
    steal: float
    """... and the share the hypervisor gave to other machines."""


def run(argv: list[str], source: str | None = None) -> Run:
    """``urlsift argv`` in a fresh process, with the code of ``source`` (a ``src`` folder) if given."""
    peaks: dict[int, int] = {}
    before = _cpu_ticks()
    started = time.perf_counter()
    with open(os.devnull, "w") as null:
        process = subprocess.Popen([*URLSIFT, *argv], stdout=null, stderr=null, env=_env(source))
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for pid, rss in _tree_rss(process.pid).items():
                peaks[pid] = max(peaks.get(pid, 0), rss)
            done.wait(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    process.wait()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if process.returncode not in (0, 1, 2):
        raise SystemExit(f"urlsift {' '.join(argv)} failed with status {process.returncode}")
    spent = [after - earlier for earlier, after in zip(before, _cpu_ticks(), strict=False)]
    total = sum(spent) or 1
    main_peak = peaks.pop(process.pid, 0)
    return Run(seconds, main_peak, max(peaks.values(), default=0), spent[3] / total, spent[7] / total)


def _env(source: str | None) -> dict[str, str] | None:
    return None if source is None else {**os.environ, "PYTHONPATH": source}


PARTS = """
import sys, time
began = time.perf_counter()
import urlsift.cli
from functools import partial
try:
    from urlsift.batches import unit_parts as work
except ImportError:  # (--before) before issue 29: a unit's events
    try:
        from urlsift.results import unit_pieces as work
    except ImportError:  # before issue 28: a unit's results whole
        from urlsift.results import scan_unit as work
from urlsift.rows import Options
from urlsift.units import plan
from urlsift.workers import in_order, workers
imported = time.perf_counter()
jobs, scheduler, path = int(sys.argv[1]), sys.argv[2] or None, sys.argv[3]
options = Options()
units = list(plan([path], options.read, 16 * 10**6))
planned = time.perf_counter()
with workers(jobs, scheduler, [path]) as found:
    started = time.perf_counter()
    for _, pieces in in_order(units, partial(work, options=options), found[0], 2 * found[1], *found[2:]):
        list(pieces)
    first = time.perf_counter()
stopped = time.perf_counter()
print(imported - began, started - planned, first - started, stopped - first)
"""
"""Times the parts of a way's start, in a process of its own: the arguments are ``jobs``, the
scheduler (empty for none) and a path to read as units."""


def startup(folder: Path, counts: list[int], rounds: int, *, dask: bool, before: str | None) -> None:
    """What each way of running costs before any work: its wall time on an empty file (the median
    of ``rounds``, interleaved), that less the time of ``-j 1`` (one process, no workers), and its
    parts (``PARTS``)."""
    empty = folder / "scale-empty.txt"
    empty.write_bytes(b"")
    ways: dict[str, tuple[int, str]] = {f"-j {n}": (n, "") for n in counts}
    if dask:
        ways.update({f"dask local:{n}": (n, f"local:{n}") for n in counts if n > 1})
    sources = {"": None} if before is None else {"": None, " (before)": before}
    times: dict[str, list[float]] = {}
    parts: dict[str, list[list[float]]] = {}
    for _ in range(rounds):
        for name, (jobs, scheduler) in ways.items():
            argv = ["--scheduler", scheduler] if scheduler else ["-j", str(jobs)]
            for label, source in sources.items():
                timing = run([*argv, "--no-progress", str(empty)], source).seconds
                times.setdefault(name + label, []).append(timing)
                timed = subprocess.run(
                    [sys.executable, "-c", PARTS, str(jobs), scheduler, str(empty)],
                    capture_output=True,
                    text=True,
                    check=True,
                    env=_env(source),
                )
                parts.setdefault(name + label, []).append([float(part) for part in timed.stdout.split()])
    base = statistics.median(times["-j 1"])
    print(f"start-up on an empty file, median of {rounds} interleaved rounds: wall s, beyond -j 1's;")
    print("in a process of its own: import urlsift.cli, start the workers, first unit's results, stop")
    for name, found in times.items():
        wall = statistics.median(found)
        within = "  ".join(f"{statistics.median(part):.3f}" for part in zip(*parts[name], strict=True))
        print(f"  {name:23} {wall:.2f}  {wall - base:+.2f}   {within}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1G", help="archive size (1G, 200M ...)")
    parser.add_argument("--jobs", default="1,2", help="worker counts to run (-j N and local:N)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument(
        "--startup", type=int, default=5, metavar="N", help="start-up rounds on an empty file (0: none)"
    )
    parser.add_argument("--startup-only", action="store_true", help="measure the start-up only")
    parser.add_argument(
        "--before", metavar="SRC", help="also time the start-up with PYTHONPATH=SRC (another checkout's src)"
    )
    add_options(parser)
    args = parser.parse_args()
    counts = [int(n) for n in args.jobs.split(",")]
    if args.startup_only:
        startup(Path(args.dir), counts, args.startup or 5, dask=not args.no_dask, before=args.before)
        return
    size = _size(args.size)
    archive = make_archive(Path(args.dir), size, files(parser, corpora_root(parser, args), "mail/*.mbox"))
    megabytes = archive.stat().st_size / 1e6
    common = ["--no-progress", "--format", "jsonl", "--invalid", str(archive)]
    configs = {f"-j {n}": ["-j", str(n), *common] for n in counts}
    if not args.no_dask:
        configs.update({f"dask local:{n}": ["--scheduler", f"local:{n}", *common] for n in counts if n > 1})
    runs: dict[str, list[Run]] = {name: [] for name in configs}
    for _ in range(args.rounds):
        for name, argv in configs.items():
            runs[name].append(run(argv))
    cores = os.cpu_count()
    if args.startup:
        startup(Path(args.dir), counts, args.startup, dask=not args.no_dask, before=args.before)
    print(f"archive: {archive} ({megabytes:,.0f} MB); {args.rounds} interleaved rounds; {cores} cores")
    print(
        "| run | wall s (best) | MB/s (best) | speed-up (median of rounds) | rounds | efficiency "
        "| peak RSS, printing process | peak RSS, a worker | idle, steal |"
    )
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for name, found in runs.items():
        workers = int(name.rsplit(" ", 1)[-1].split(":")[-1])
        # Each round's speed-up against the -j 1 of the same round: a slow spell of this shared
        # machine then slows both sides of a ratio, not one configuration's best.
        ups = [one.seconds / mine.seconds for one, mine in zip(runs["-j 1"], found, strict=True)]
        speed_up = statistics.median(ups)
        seconds = min(one.seconds for one in found)
        main_peak = max(one.main_peak for one in found)
        worker_peak = max(one.worker_peak for one in found)
        idle = statistics.median(one.idle for one in found)
        steal = statistics.median(one.steal for one in found)
        worker = f"{worker_peak / 1e6:,.0f} MB" if worker_peak else "(the same process)"
        print(
            f"| `{name}` | {seconds:.1f} | {megabytes / seconds:.1f} | {speed_up:.2f}x "
            f"| {' '.join(f'{up:.2f}' for up in ups)} | {speed_up / workers:.0%} "
            f"| {main_peak / 1e6:,.0f} MB | {worker} | {idle:.0%}, {steal:.0%} |"
        )


if __name__ == "__main__":
    main()
