"""The command line on a big plain text (and on an mbox), beside ripgrep on the same file, in one
run: issue 31's target is 0.25x ripgrep's speed (CPU time) for ``--input-format text --format
jsonl`` on 100 MB of the corpora's text.

    python bench/rows_speed.py [--size MB] [--rounds N] [--against SRC] [--mbox PATH] [--corpora DIR]

The text: the corpora's ``text/`` and ``rfc/`` files (DIR's; else the shared corpora's, else the
repository's), joined and repeated to ``--size`` MB in a temporary file. Each way runs as its own process
(start-up included, as a user sees it), ``--format jsonl`` to /dev/null; a figure is the best CPU
time (user + sys of the child) of ``--rounds`` rounds, the ways interleaved so a slow spell of the
machine hits all of them; bytecode is written and used (``PYTHONDONTWRITEBYTECODE`` unset, as after
``pip install``), after one round not counted. The ways: ripgrep (``rg -o -n -b -i`` with the
issue's pattern), this checkout under ``URLSIFT_CORE=rust`` and ``python``, and with ``--against
SRC`` another checkout's ``src`` (its own built core) under ``rust``: a change's before and after in
one run. ``--mbox`` runs the same ways but ripgrep on an mbox (the message path).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _corpora import REPO, SHARED

PATTERN = r'<URL:[^>]*>|(https?|ftp)://[^[:space:]<>"]+|www\.[^[:space:]<>"]+'
SRC = Path(__file__).resolve().parents[1] / "src"


def _text(root: Path, size: int, into: Path) -> Path:
    paths = sorted(p for folder in ("text", "rfc") for p in (root / folder).iterdir() if p.is_file())
    data = b"".join(path.read_bytes() for path in paths)
    path = into / "text.txt"
    with path.open("wb") as out:
        written = 0
        while written < size:
            out.write(data)
            written += len(data)
    return path


def _cpu(command: list[str], environment: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=100, help="MB of text (default 100)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", help="another checkout's src folder, run under URLSIFT_CORE=rust")
    parser.add_argument("--mbox", help="an mbox to run the ways on instead of the text")
    parser.add_argument("--corpora", type=Path, default=SHARED if SHARED.is_dir() else REPO)
    args = parser.parse_args()
    rg = shutil.which("rg")
    with tempfile.TemporaryDirectory() as held:
        path = Path(args.mbox) if args.mbox else _text(args.corpora, args.size * 10**6, Path(held))
        fmt = [] if args.mbox else ["--input-format", "text"]
        urlsift = [sys.executable, "-m", "urlsift", *fmt, "--format", "jsonl", str(path)]
        ways: dict[str, tuple[list[str], dict[str, str]]] = {}
        # Compiling the modules' source (~0.2 s a process here) is no part of a run after install.
        base = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        if rg is not None:
            ways["ripgrep"] = ([rg, "-o", "-n", "-b", "-i", PATTERN, str(path)], base)
        for core in ("rust", "python"):
            ways[f"this, {core}"] = (urlsift, {**base, "URLSIFT_CORE": core, "PYTHONPATH": str(SRC)})
        if args.against:
            ways["against, rust"] = (
                urlsift,
                {**base, "URLSIFT_CORE": "rust", "PYTHONPATH": args.against},
            )
        best = dict.fromkeys(ways, float("inf"))
        for round_ in range(args.rounds + 1):
            for name, (command, environment) in ways.items():
                cpu = _cpu(command, environment)
                if round_:  # (the first round writes the bytecode)
                    best[name] = min(best[name], cpu)
        print(f"{path.name}: {path.stat().st_size / 1e6:.1f} MB, CPU s, best of {args.rounds}")
        for name, seconds in best.items():
            ratio = f"  {best['ripgrep'] / seconds:.3f}x ripgrep" if "ripgrep" in best else ""
            print(f"  {name:14} {seconds:6.2f}{ratio}")


if __name__ == "__main__":
    main()
