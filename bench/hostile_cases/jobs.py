"""Issue 28's ``-j`` cases for bench/hostile.py (its driver runs ``python -m urlsift ARGS`` on each
and prints wall time, peak RSS and the exit status): a compressed file is one unit of work, so its
worker's rows must come back in pieces, never held whole; and a plain text of one huge line.

``python bench/hostile_cases/jobs.py`` measures the library's ``scan(workers=2)`` on the same file
(the printing process's peak, which the driver cannot run).

Each case builds its input in the empty folder it is given, in a few seconds and under 100 MB."""

from __future__ import annotations

import gzip
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

Case = Callable[[Path], tuple[list[str], Path | None]]

URLS = 2_000_000


def _gz(root: Path) -> Path:
    """A 9 MB ``.gz`` of 2,000,000 URLs, one a line: one unit of work for ``-j``."""
    path = root / "urls.txt.gz"
    with gzip.open(path, "wb", compresslevel=6) as file:
        for start in range(0, URLS, 100_000):
            lines = (f"see http://h{k % 5000}.example/p/{k} here\n" for k in range(start, start + 100_000))
            file.write("".join(lines).encode())
    return path


def _gz_j2(root: Path) -> tuple[list[str], Path | None]:
    """-j 2 on the .gz, text output (expected exit 0; 1,090 MB before issue 28's fix)."""
    return ["-j", "2", str(_gz(root))], None


def _gz_j2_jsonl(root: Path) -> tuple[list[str], Path | None]:
    """-j 2 on the .gz, JSON lines (2,742 MB before the fix)."""
    return ["-j", "2", "--format", "jsonl", str(_gz(root))], None


def _gz_local2(root: Path) -> tuple[list[str], Path | None]:
    """--scheduler local:2 on the .gz (needs urlsift[dask]; 1,100 MB before the fix)."""
    return ["--scheduler", "local:2", str(_gz(root))], None


def _one_line(root: Path) -> tuple[list[str], Path | None]:
    """A 24 MB plain text of one line, "> " then 1,000,001 URLs: each has its quote depth, and
    every one is counted (expected exit 2, for the long line; 104,538 before the fix: an internal
    error ended the file)."""
    path = root / "one-line.txt"
    with path.open("wb") as file:
        file.write(b"> ")
        for start in range(0, 1_000_000, 100_000):
            file.write("".join(f"http://h.example/{k} " for k in range(start, start + 100_000)).encode())
        file.write(b"http://last.example/\n")
    return ["--format", "jsonl", "--count", str(path)], None


CASES: dict[str, Case] = {
    "-j 2 on a .gz of 2,000,000 URLs": _gz_j2,
    "-j 2 jsonl on a .gz of 2,000,000 URLs": _gz_j2_jsonl,
    "--scheduler local:2 on a .gz of 2,000,000 URLs": _gz_local2,
    "one line of 24 MB, 1,000,001 URLs": _one_line,
}

_LIBRARY = """
import resource, sys, urlsift
rows = sum(1 for found in urlsift.scan(sys.argv[1], workers=2) if not isinstance(found, urlsift.Report))
print(rows, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""
"""``scan(workers=2)`` on a path: its rows, and the peak RSS (MB) of this, the printing, process."""


def main() -> None:
    """``scan(workers=2)`` on the .gz: seconds, rows, and the calling process's peak."""
    with tempfile.TemporaryDirectory() as folder:
        path = _gz(Path(folder))
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _LIBRARY, str(path)], capture_output=True, text=True)
        seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(done.stderr)
    rows, peak = done.stdout.split()
    print(f"scan(workers=2) on a .gz of {URLS:,} URLs: {seconds:.1f} s, {int(rows):,} rows, parent {peak} MB")


if __name__ == "__main__":
    main()
