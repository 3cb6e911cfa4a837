"""Whether a change left the command line's output as it was: one digest per corpus file and way of
running, written to a file, and compared with an earlier one (issue 22: no output changes).

    python bench/same_output.py --write DIGESTS [--shared | --corpora DIR] [--columns N]
    python bench/same_output.py --compare DIGESTS [--shared | --corpora DIR] [--columns N]

Every file under the corpora folder (the repository's by default) is read by ``python -m urlsift``
(this interpreter, so PYTHONPATH picks the code) in each of the ways of ``RUNS``, all the files in
one process per way, from the corpora folder with relative paths (the ``source`` column is then the
same whatever checkout the corpora lie in). The JSON Lines output is cut into files by its ``source``
column (the rows come file after file) and each file's lines are hashed; standard error and the exit
status are hashed together, once per way. With ``--columns N`` each jsonl object is cut to its first
N keys and written again as ``json.dumps(..., ensure_ascii=False)`` writes it (which is how urlsift
writes it): so a branch that adds columns at the end compares with one that has not. ``--compare``
says which files differ, and exits 1 when one does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from _corpora import add_options
from _corpora import root as corpora_root

RUNS = {
    "strict": ["--format", "jsonl", "--invalid"],
    "modern": ["--format", "jsonl", "--invalid", "--profile", "modern"],  # naked URLs are the default
}
MORE_RUNS = {
    "strict-text": ["--invalid"],
    "modern-text": ["--invalid", "--profile", "modern"],
    "strict-csv": ["--format", "csv", "--invalid"],
    "modern-csv": ["--format", "csv", "--invalid", "--profile", "modern"],
    "strict-j2": ["--format", "jsonl", "--invalid", "-j", "2", "--split-size", "64k"],
    "modern-csv-j2": [
        "--format",
        "csv",
        "--invalid",
        "--profile",
        "modern",
        "-j",
        "2",
        "--split-size",
        "64k",
    ],
    "text-j2-context": ["--format", "jsonl", "-j", "2", "--split-size", "64k", "--context", "20"],
    "unique-j2": ["--format", "jsonl", "--unique", "-j", "2", "--split-size", "64k"],
}
"""``--all``: the other formats, and ``-j 2`` with files cut in pieces (the pieces joined again):
their output is hashed whole (text and CSV rows are not cut by file)."""
STATUS = "(standard error and exit status)"
"""The key, among a run's files, of what it said besides its rows."""


def corpus_files(folder: Path) -> list[str]:
    """Every file under ``folder``, as paths relative to it, in a stable order."""
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


def trimmed(line: bytes, columns: int | None) -> bytes:
    """A jsonl line as it is, or its object's first ``columns`` keys written again."""
    if columns is None:
        return line
    pairs = list(json.loads(line).items())[:columns]
    return json.dumps(dict(pairs), ensure_ascii=False).encode() + b"\n"


def digests(folder: Path, names: list[str], options: list[str], columns: int | None) -> dict[str, str]:
    """sha256 of each file's output lines (``names`` in order), and of the run's standard error and
    exit status."""
    command = [sys.executable, "-m", "urlsift", "--no-progress", "--verbose", *options, "--", *names]
    done = subprocess.run(command, cwd=folder, capture_output=True, check=False)
    if "jsonl" not in options or "--unique" in options:
        whole = hashlib.sha256(done.stdout).hexdigest()
        said = hashlib.sha256(done.stderr + f"exit {done.returncode}".encode()).hexdigest()
        return {"(all rows)": whole, STATUS: said}
    hashes = {name: hashlib.sha256() for name in names}
    for line in done.stdout.splitlines(keepends=True):
        source = json.loads(line)["source"]
        if source not in hashes:
            raise SystemExit(f"a row of a file not asked for: {source!r}")
        hashes[source].update(trimmed(line, columns))
    found = {name: digest.hexdigest() for name, digest in hashes.items()}
    found[STATUS] = hashlib.sha256(done.stderr + f"exit {done.returncode}".encode()).hexdigest()
    return found


def differences(before: dict[str, Any], after: dict[str, Any]) -> Iterable[str]:
    """What differs between two digest files: a way of running, or a file of one, with why."""
    for run in sorted(before["runs"].keys() | after["runs"].keys()):
        old, new = before["runs"].get(run), after["runs"].get(run)
        if old is None or new is None:
            yield f"{run}: only in the {'new' if old is None else 'old'} digests"
            continue
        for name in sorted(old.keys() | new.keys()):
            if name not in old or name not in new:
                yield f"{run}: {name}: only in the {'new' if name not in old else 'old'} digests"
            elif old[name] != new[name]:
                yield f"{run}: {name}: output differs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", type=Path, metavar="DIGESTS", help="write the digests to DIGESTS")
    what.add_argument("--compare", type=Path, metavar="DIGESTS", help="compare with the digests in DIGESTS")
    parser.add_argument("--columns", type=int, metavar="N", help="keep the first N keys of each jsonl object")
    parser.add_argument("--all", action="store_true", help="also the ways of MORE_RUNS (text, csv, -j 2)")
    add_options(parser)
    args = parser.parse_args()
    if args.columns is not None and args.columns < 1:
        parser.error("--columns takes a positive number")
    folder = corpora_root(parser, args)
    names = corpus_files(folder)
    runs = {**RUNS, **MORE_RUNS} if args.all else RUNS
    found = {
        "corpora": str(folder),
        "columns": args.columns,
        "runs": {run: digests(folder, names, options, args.columns) for run, options in runs.items()},
    }
    if args.write is not None:
        args.write.write_text(json.dumps(found, indent=1) + "\n")
        print(f"{len(names)} files, {len(runs)} ways: digests written to {args.write}")
        return
    try:
        before = json.loads(args.compare.read_text())
    except (OSError, ValueError) as error:
        parser.error(f"cannot read the digests in {args.compare}: {error}")
    if before.get("columns") != args.columns:
        made = before.get("columns") or "all"
        print(f"note: {args.compare} keeps {made} columns, this run {args.columns or 'all'}", file=sys.stderr)
    differ = list(differences(before, found))
    for line in differ:
        print(line)
    print(f"{len(names)} files, {len(runs)} ways: {len(differ) or 'none'} differ")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
