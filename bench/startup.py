"""A cold start of urlsift (issues 31 and 32): what a run pays before its first byte, each way as a
fresh process, under both cores, and with ``--against SRC`` another checkout's ``src`` too (its own
built core): a change's before and after in one run.

    python bench/startup.py [--rounds N] [--against SRC]

The ways: ``import urlsift``, ``import urlsift.cli``, ``urlsift --version``, ``urlsift --format
jsonl`` on a one-line text with two URLs (the Public Suffix List, the scanner's tables and, under
the Rust core, the grammar's rendering for it all paid), and the same on a one-message mbox. A
figure is the best of ``--rounds`` rounds, the ways interleaved so that a slow spell of the machine
hits all of them: CPU time (user + sys of the child; steady on a loaded machine) and wall time.
Bytecode is written and used (``PYTHONDONTWRITEBYTECODE`` unset, as after ``pip install``), after
one round not counted. ``bench/scale.py --startup-only`` times ``-j N`` and Dask's starts instead.
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

SRC = Path(__file__).resolve().parents[1] / "src"
TEXT = b"See http://www.example.com/a and <URL:ftp://ftp.example.org/pub/b>.\n"
MESSAGE = b"From a@example.com Sat Jan  1 00:00:00 2000\nSubject: s\n\n" + TEXT


def _ways(folder: Path) -> dict[str, list[str]]:
    text, mbox = folder / "tiny.txt", folder / "tiny.mbox"
    text.write_bytes(TEXT)
    mbox.write_bytes(MESSAGE)
    urlsift = [sys.executable, "-m", "urlsift"]
    return {
        "import urlsift": [sys.executable, "-c", "import urlsift"],
        "import urlsift.cli": [sys.executable, "-c", "import urlsift.cli"],
        "urlsift --version": [*urlsift, "--version"],
        "text, jsonl": [*urlsift, "--format", "jsonl", str(text)],
        "mbox, jsonl": [*urlsift, "--format", "jsonl", str(mbox)],
    }


def _timed(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """CPU and wall seconds of ``command`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", help="another checkout's src folder (its own built core)")
    args = parser.parse_args()
    base = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    sources = {"this": str(SRC)} | ({"against": args.against} if args.against else {})
    setups = {
        (label, core): {**base, "URLSIFT_CORE": core, "PYTHONPATH": source}
        for label, source in sources.items()
        for core in ("python", "rust")
    }
    with tempfile.TemporaryDirectory() as held:
        ways = _ways(Path(held))
        best: dict[tuple[str, str, str], tuple[float, float]] = {}
        for round_ in range(args.rounds + 1):
            for way, command in ways.items():
                for (label, core), environment in setups.items():
                    cpu, wall = _timed(command, environment)
                    if round_:  # (the first round writes the bytecode)
                        known = best.get((way, label, core), (cpu, wall))
                        best[way, label, core] = (min(known[0], cpu), min(known[1], wall))
    print(f"best of {args.rounds} rounds, seconds: CPU (user + sys) / wall")
    columns = list(setups)
    print("| way | " + " | ".join(f"{label}, {core}" for label, core in columns) + " |")
    print("| --- |" + " ---: |" * len(columns))
    for way in ways:
        cells = (best[way, label, core] for label, core in columns)
        print(f"| {way} | " + " | ".join(f"{cpu:.3f} / {wall:.3f}" for cpu, wall in cells) + " |")


if __name__ == "__main__":
    main()
