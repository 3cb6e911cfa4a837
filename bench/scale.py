"""Scaling out (issue 8): one archive of 1 GB or more, made by repeating the mboxes of the corpora,
read by ``urlsift -j 1``, ``-j 2`` ... and a local Dask cluster of 2 ... workers, in the same run.

    python bench/scale.py [--size 1G] [--jobs 1,2] [--rounds 2] [--dir /tmp]

Each run is a fresh process (``--quiet --format jsonl --invalid`` to /dev/null), so process and
cluster start-up count. The figures: MB/s (wall time), the scaling efficiency (throughput with N
over N times the throughput with 1, ``-j 1`` measured in the same round), and the peak resident
memory of the printing process and of the busiest worker, sampled every 0.1 s from /proc over the
whole process tree. The best of the rounds (interleaved, so a slow spell of the machine hits every
configuration) is printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from urlsift.cli import _size

SHARED = Path(__file__).parents[2] / "shared" / "corpora" / "mail"
LOCAL = Path(__file__).parents[1] / "corpora" / "mail"
URLSIFT = [sys.executable, "-m", "urlsift"]


def make_archive(folder: Path, size: int) -> Path:
    """An mbox of at least ``size`` bytes: the corpora's mboxes, one after another, again and again."""
    path = folder / f"scale-{size // 10**6}MB.mbox"
    if path.exists() and path.stat().st_size >= size:
        return path
    sources = sorted(SHARED.glob("*.mbox")) or sorted(LOCAL.glob("*.mbox"))
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


def run(argv: list[str]) -> tuple[float, int, int]:
    """(wall seconds, peak RSS of the printing process, peak RSS of the largest other process)."""
    peaks: dict[int, int] = {}
    started = time.perf_counter()
    with open(os.devnull, "w") as null:
        process = subprocess.Popen([*URLSIFT, *argv], stdout=null, stderr=null)
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
    main_peak = peaks.pop(process.pid, 0)
    return seconds, main_peak, max(peaks.values(), default=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1G", help="archive size (1G, 200M ...)")
    parser.add_argument("--jobs", default="1,2", help="worker counts to run (-j N and local:N)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    size = _size(args.size)
    archive = make_archive(Path(args.dir), size)
    megabytes = archive.stat().st_size / 1e6
    counts = [int(n) for n in args.jobs.split(",")]
    common = ["--quiet", "--format", "jsonl", "--invalid", str(archive)]
    configs = {f"-j {n}": ["-j", str(n), *common] for n in counts}
    if not args.no_dask:
        configs.update({f"dask local:{n}": ["--scheduler", f"local:{n}", *common] for n in counts if n > 1})
    best: dict[str, tuple[float, int, int]] = {}
    for _ in range(args.rounds):
        for name, argv in configs.items():
            found = run(argv)
            if name not in best or found[0] < best[name][0]:
                best[name] = found
    base = megabytes / best["-j 1"][0]
    print(f"archive: {archive} ({megabytes:,.0f} MB); best of {args.rounds} rounds; {os.cpu_count()} cores")
    print("| run | wall s | MB/s | speed-up | efficiency | peak RSS, printing process | peak RSS, a worker |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, (seconds, main_peak, worker_peak) in best.items():
        workers = int(name.rsplit(" ", 1)[-1].split(":")[-1])
        speed = megabytes / seconds
        worker = f"{worker_peak / 1e6:,.0f} MB" if worker_peak else "(the same process)"
        print(
            f"| `{name}` | {seconds:.1f} | {speed:.1f} | {speed / base:.2f}x | {speed / base / workers:.0%} "
            f"| {main_peak / 1e6:,.0f} MB | {worker} |"
        )


if __name__ == "__main__":
    main()
