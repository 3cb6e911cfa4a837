"""Write what the command line prints for every file of the corpora, to compare two trees' outputs
byte for byte (a speed change must change none of them).

    python bench/corpus_outputs.py OUT [--shared | --corpora DIR]
    diff -r BEFORE AFTER

One file per corpus file and option set (jsonl with --invalid: strict, modern, --no-naked, and
modern --canonical), standard error and the exit status beside it. The tree measured is the one
``urlsift`` is imported from: run it with ``PYTHONPATH`` naming each tree's ``src/`` in turn.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from _corpora import add_options
from _corpora import root as corpora_root

OPTION_SETS: dict[str, tuple[str, ...]] = {
    "strict": (),
    "modern": ("--profile", "modern"),
    "no-naked": ("--no-naked",),
    "canonical": ("--profile", "modern", "--canonical"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to write (made if missing)")
    add_options(parser)
    args = parser.parse_args()
    root = corpora_root(parser, args)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = str(path.relative_to(root)).replace(os.sep, "_")
        for label, options in OPTION_SETS.items():
            command = [sys.executable, "-m", "urlsift", "--no-progress", "--format", "jsonl", "--invalid"]
            command += options
            # Relative paths: the rows name the file as given, the same from any checkout.
            done = subprocess.run([*command, str(path.relative_to(root))], cwd=root, capture_output=True)
            (args.out / f"{name}.{label}.jsonl").write_bytes(done.stdout)
            (args.out / f"{name}.{label}.err").write_bytes(done.stderr + b"rc=%d\n" % done.returncode)
    print(f"{args.out}: the outputs of {root}")


if __name__ == "__main__":
    main()
