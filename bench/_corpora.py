"""Where the benchmarks read their texts: the repository's ``corpora/`` by default, so that they run
in a plain checkout; the larger shared corpora beside the checkout (``../shared/corpora``) only
when asked for with ``--shared``, or any folder laid out the same way with ``--corpora DIR``.

A figure in docs/performance.md says which corpora it was measured on.
"""

from __future__ import annotations

import argparse
from pathlib import Path

REPO = Path(__file__).resolve().parents[1] / "corpora"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def add_options(parser: argparse.ArgumentParser) -> None:
    """``--shared`` and ``--corpora DIR``: which corpora to read (the repository's by default)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--shared", action="store_true", help=f"read the shared corpora ({SHARED})")
    where.add_argument(
        "--corpora", type=Path, metavar="DIR", help=f"read the corpora in DIR (default: {REPO})"
    )


def root(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Path:
    """The corpora folder the options name; a usage error (no traceback) when it is not there."""
    folder: Path = args.corpora or (SHARED if args.shared else REPO)
    if not folder.is_dir():
        parser.error(f"no corpora folder at {folder}")
    return folder


def files(parser: argparse.ArgumentParser, folder: Path, *names: str) -> list[Path]:
    """``names`` (paths or glob patterns under ``folder``) that are there, in order; a usage error
    when none is."""
    found: list[Path] = []
    for name in names:
        found += sorted(folder.glob(name)) if any(c in name for c in "*?[") else [folder / name]
    found = [path for path in found if path.exists()]
    if not found:
        parser.error(f"none of {', '.join(names)} in {folder}")
    return found
