"""Hostile inputs at full size: wall time, peak memory and exit status of ``urlsift`` on each.

The cases live in ``bench/hostile_cases/*.py`` (archives, messages, command line, ``-j``), each a dict
``CASES`` of name -> build(folder) -> (arguments after ``urlsift``, a file for standard input or
None). The tests build small versions of the same inputs (``tests/*/test_hostile_*.py``); this
script builds the GB-scale ones, which a test suite should not, and measures them one at a time in
a fresh process.

    python bench/hostile.py                 # every case
    python bench/hostile.py -k tar          # the cases whose name holds "tar"
    python bench/hostile.py --timeout 120   # seconds a case may run (default 300)
    python bench/hostile.py --cores python,rust   # each case under each core (issue 32)

With ``--cores``, each case runs once under each ``URLSIFT_CORE``, on the same input, and a last
column says whether their standard output and standard error were the same bytes (SHA-256 of each).
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


Measured = tuple[float, int, "int | str", str]
"""Seconds, peak RSS in MB, exit status (or "timeout") and a digest of what was printed."""


def measure(arguments: list[str], stdin: Path | None, timeout: float, core: str | None = None) -> Measured:
    """What ``urlsift ARGUMENTS`` alone costs and gives (``core``: its ``URLSIFT_CORE``)."""
    # A child of its own that waits for urlsift: RUSAGE_CHILDREN then holds urlsift's peak alone.
    # Its output goes to files, hashed after it ends, so that reading them costs urlsift nothing.
    probe = (
        "import hashlib, resource, subprocess, sys, tempfile\n"
        "stdin = open(sys.argv[1], 'rb') if sys.argv[1] else subprocess.DEVNULL\n"
        "with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:\n"
        "    code = subprocess.call([sys.executable, '-m', 'urlsift', *sys.argv[2:]], stdin=stdin,\n"
        "                           stdout=out, stderr=err)\n"
        "    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "    digest = hashlib.sha256()\n"
        "    for printed in (out, err):\n"
        "        printed.seek(0)\n"
        "        while block := printed.read(1 << 20):\n"
        "            digest.update(block)\n"
        "        digest.update(b'\\0')\n"
        "print(code, peak, digest.hexdigest())\n"
    )
    environment = None if core is None else {**os.environ, "URLSIFT_CORE": core}
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe, str(stdin or ""), *arguments],
            capture_output=True,
            text=True,
            timeout=timeout,
            start_new_session=True,
            env=environment,
        )
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, 0, "timeout", ""
    seconds = time.perf_counter() - start
    code, peak_kb, digest = done.stdout.split()
    return seconds, int(peak_kb) // 1024, int(code), digest


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("-k", default="", help="only the cases whose name holds this text")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--cores", help="comma-separated URLSIFT_CORE values, each case under each")
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    cores: list[str | None] = args.cores.split(",") if args.cores else [None]
    if args.cores:
        print("| case | " + " | ".join(f"{core}: s | MB | exit" for core in cores) + " | same output |")
        print("| --- |" + " ---: | ---: | ---: |" * len(cores) + " --- |")
    else:
        print(f"{'case':<60} {'seconds':>8} {'peak MB':>8} {'exit':>7}")
    for name, build in cases().items():
        if args.k not in name:
            continue
        with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as folder:
            arguments, stdin = build(Path(folder))
            runs = [measure(arguments, stdin, args.timeout, core) for core in cores]
        if not args.cores:
            seconds, peak, code, _ = runs[0]
            print(f"{name:<60} {seconds:>8.2f} {peak:>8} {code!s:>7}", flush=True)
            continue
        figures = " | ".join(f"{seconds:.2f} | {peak} | {code}" for seconds, peak, code, _ in runs)
        same = "yes" if len({digest for *_, digest in runs}) == 1 and runs[0][3] else "NO"
        print(f"| {name} | {figures} | {same} |", flush=True)


if __name__ == "__main__":
    main()
