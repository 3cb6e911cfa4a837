"""The public-inbox reader beside the bare read loop of git on the same repository (the floor).

    python bench/publicinbox_speed.py [MBOX] [--rounds N]

A v2 epoch is built from MBOX (default: r-devel-2000-May of the repository's corpora), one commit
per message, with ``git fast-import``, and packed (``git repack -a -d``, as a served inbox is).
Three figures, in MB of messages a second (wall clock: git works in processes of its own), each
the best of N rounds, interleaved: the floor (``git log --raw`` for the blobs, every blob read
through one ``git cat-file --batch`` asked for all at once: what any reader of this repository has
to do), the reader
alone (``publicinbox.read``: the same, and the checks), and the command line (``--format jsonl``
to /dev/null: reading, decoding and scanning).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from _corpora import REPO

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import inbox

from urlsift._model import Provenance
from urlsift.cli import main
from urlsift.sources import publicinbox

DEFAULT = REPO / "mail" / "r-devel-2000-May.mbox"


def floor(repo: str) -> None:
    """Every message's blob, found by ``git log --raw`` and read by ``git cat-file --batch``, all
    the ids written at once by a thread of their own (no round trips: the fastest way to read them)."""
    argv = ["git", f"--git-dir={repo}", "log", "--first-parent", "--reverse", "--raw", "--no-abbrev"]
    log = subprocess.run([*argv, "--format=%H"], capture_output=True, check=True).stdout
    blobs = b"".join(line.split()[3] + b"\n" for line in log.splitlines() if line.endswith(b"\tm"))
    argv = ["git", f"--git-dir={repo}", "cat-file", "--batch"]
    cat = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert cat.stdin is not None
    assert cat.stdout is not None
    stdin = cat.stdin

    def ask() -> None:
        stdin.write(blobs)
        stdin.close()

    asking = threading.Thread(target=ask)
    asking.start()
    while header := cat.stdout.readline():
        cat.stdout.read(int(header.split()[2]) + 1)
    asking.join()
    cat.wait()


def reader(repo: str) -> None:
    for _ in publicinbox.read(repo, Provenance(repo), 10**9, ((), (), True)):
        pass


def cli(repo: str) -> None:
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
        main(["--no-progress", "--format", "jsonl", repo])


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("mbox", nargs="?", default=str(DEFAULT))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    blobs = inbox.mbox_messages(Path(args.mbox))
    size = sum(map(len, blobs))
    with tempfile.TemporaryDirectory() as folder:
        repo = inbox.init(Path(folder) / "0.git")
        inbox.commit(repo, blobs)
        subprocess.run(["git", f"--git-dir={repo}", "repack", "-a", "-d", "-q"], check=True)
        runs: dict[str, Callable[[str], None]] = {"git floor": floor, "reader": reader, "urlsift": cli}
        times = dict.fromkeys(runs, float("inf"))
        for _ in range(args.rounds):
            for name, run in runs.items():
                gc.collect()
                started = time.perf_counter()
                run(str(repo))
                times[name] = min(times[name], time.perf_counter() - started)
    print(f"{Path(args.mbox).name}: {len(blobs):,} messages, {size / 1e6:.1f} MB")
    for name, took in times.items():
        print(f"{name:10} {size / 1e6 / took:7.1f} MB/s {len(blobs) / took:9,.0f} messages/s")


if __name__ == "__main__":
    main_bench()
