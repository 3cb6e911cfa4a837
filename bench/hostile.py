"""Hostile inputs at full size: wall time, peak memory and exit status of ``urlsift`` on each.

The cases live in ``bench/hostile_cases/*.py`` (archives, messages, command line, ``-j``), each a dict
``CASES`` of name -> build(folder) -> (arguments after ``urlsift``, a file for standard input or
None). The tests build small versions of the same inputs (``tests/*/test_hostile_*.py``); this
script builds the GB-scale ones, which a test suite should not, and measures them one at a time in
a fresh process.

    python bench/hostile.py                 # every case
    python bench/hostile.py -k tar          # the cases whose name holds "tar"
    python bench/hostile.py --timeout 120   # seconds a case may run (default 300)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

Build = Callable[[Path], tuple[list[str], Path | None]]
HERE = Path(__file__).resolve().parent


def cases() -> dict[str, Build]:
    """Every case of every ``hostile_cases`` module, named "module: case"."""
    found: dict[str, Build] = {}
    for path in sorted((HERE / "hostile_cases").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"hostile_cases_{path.stem}", path)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name, build in module.CASES.items():
            found[f"{path.stem}: {name}"] = build
    return found


def measure(arguments: list[str], stdin: Path | None, timeout: float) -> tuple[float, int, int | str]:
    """(seconds, peak RSS in MB, exit status or "timeout") of ``urlsift ARGUMENTS`` alone."""
    # A child of its own that waits for urlsift: RUSAGE_CHILDREN then holds urlsift's peak alone.
    probe = (
        "import resource, subprocess, sys\n"
        "stdin = open(sys.argv[1], 'rb') if sys.argv[1] else subprocess.DEVNULL\n"
        "code = subprocess.call([sys.executable, '-m', 'urlsift', *sys.argv[2:]], stdin=stdin,\n"
        "                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe, str(stdin or ""), *arguments],
            capture_output=True,
            text=True,
            timeout=timeout,
            start_new_session=True,
        )
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, 0, "timeout"
    seconds = time.perf_counter() - start
    code, peak_kb = done.stdout.split()
    return seconds, int(peak_kb) // 1024, int(code)


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("-k", default="", help="only the cases whose name holds this text")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    print(f"{'case':<60} {'seconds':>8} {'peak MB':>8} {'exit':>7}")
    for name, build in cases().items():
        if args.k not in name:
            continue
        with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as folder:
            arguments, stdin = build(Path(folder))
            seconds, peak, code = measure(arguments, stdin, args.timeout)
        print(f"{name:<60} {seconds:>8.2f} {peak:>8} {code!s:>7}", flush=True)


if __name__ == "__main__":
    main()
