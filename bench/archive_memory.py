"""Peak memory and speed of the command line as an archive grows: 10 MB, 100 MB and 1 GB mboxes made
by repeating the mailing-list mboxes of the corpora (issue 5: the 1 GB run stays under 200 MB).

    python bench/archive_memory.py [--shared | --corpora DIR] [--sizes 10,100,1000]

The mboxes: four mailing lists of the shared corpora (--shared), else every mbox of the corpora's
mail/ folder (the repository's by default).

Each size runs ``urlsift --no-progress --format jsonl`` in a fresh process, output to /dev/null; peak
memory is that process's maximum resident set size (getrusage of the child).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _corpora import SHARED, add_options, files
from _corpora import root as corpora_root

MBOXES = ["mail/kasan-dev.mbox", "mail/usrp-users.mbox", "mail/linux-audit.mbox", "mail/blinux-list.mbox"]
"""The shared corpora's mailing lists (docs/performance.md's figures)."""


def build(path: Path, mboxes: list[Path], megabytes: int) -> int:
    """An mbox of about ``megabytes`` MB: ``mboxes`` over and over."""
    pieces = [mbox.read_bytes() for mbox in mboxes]
    written = 0
    with path.open("wb") as out:
        while written < megabytes * 10**6:
            for piece in pieces:
                out.write(piece if piece.endswith(b"\n\n") else piece + b"\n")
                written += len(piece)
                if written >= megabytes * 10**6:
                    break
    return written


def run(path: Path) -> tuple[float, float]:
    """(seconds, peak resident megabytes) of one CLI run over ``path``."""
    command = [sys.executable, "-m", "urlsift", "--no-progress", "--format", "jsonl", str(path)]
    started = time.perf_counter()
    with open(os.devnull, "wb") as null:
        subprocess.run(command, stdout=null, stderr=null, check=False)  # (its warnings: the corpora's)
    seconds = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child so far
    return seconds, peak_kib / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_options(parser)
    parser.add_argument("--sizes", default="10,100,1000")
    args = parser.parse_args()
    root = corpora_root(parser, args)
    mboxes = files(parser, root, *MBOXES) if root == SHARED else files(parser, root, "mail/*.mbox")
    print(f"{'size':>8} {'MB/s':>7} {'peak RSS':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for megabytes in (int(size) for size in args.sizes.split(",")):
            path = Path(folder) / f"archive-{megabytes}.mbox"
            size = build(path, mboxes, megabytes)
            seconds, peak = run(path)
            print(f"{size / 1e6:6.0f}MB {size / 1e6 / seconds:7.1f} {peak:7.1f}MB", flush=True)
            path.unlink()


if __name__ == "__main__":
    main()
