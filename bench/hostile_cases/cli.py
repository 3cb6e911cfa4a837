"""Slow variants of tests/cli/test_hostile_cli.py, for bench/hostile.py (its driver runs
``python -m urlsift ARGS`` on each and prints wall time, peak RSS and the exit status).

Each case builds its input in the empty folder it is given, in a few seconds and under 100 MB."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

Case = Callable[[Path], tuple[list[str], Path | None]]


def _hostile_folder(root: Path) -> tuple[list[str], Path | None]:
    """5,000 entries, by fifths: links to themselves, links to nothing, FIFOs, and two fifths
    small files: the walk reports 3,000 problems and reads 2,000 files (expected exit 2)."""
    folder = root / "spool"
    folder.mkdir()
    for n in range(5_000):
        path = folder / str(n)
        match n % 5:
            case 0:
                os.symlink(str(n), path)  # ln -s me me
            case 1:
                os.symlink("nowhere", path)
            case 2:
                os.mkfifo(path)
            case _:
                path.write_text(f"see http://h{n}.example/\n")
    return ["--stats", "--no-progress", str(folder)], None


def _jobs_on_two_files(root: Path) -> tuple[list[str], Path | None]:
    """-j 64 on two 20 MB texts: at most 2 worker processes start (and a warning)."""
    line = b"see http://host.example/a/b/c and more words around it\n"
    for name in ("a.txt", "b.txt"):
        (root / name).write_bytes(line * (20 * 10**6 // len(line)))
    return ["-j", "64", "--split-size", "100M", "--count", str(root / "a.txt"), str(root / "b.txt")], None


def _formula_cells(root: Path) -> tuple[list[str], Path | None]:
    """200,000 rejected candidates that would be spreadsheet formulas, as csv: every url cell
    quoted (expected exit 1: no valid URL)."""
    path = root / "formulas.txt"
    path.write_bytes(b"<URL:=HYPERLINK(1)> <URL:+cmd|calc> <URL:@SUM(1)> <URL:-2+3> ok\n" * 50_000)
    return ["--invalid", "--format", "csv", str(path)], None


def _bidi_everywhere(root: Path) -> tuple[list[str], Path | None]:
    """200,000 rejected candidates full of U+202E, U+200B and ESC (10 MB), as text: each escaped."""
    path = root / "bidi.txt"
    path.write_text("<URL:http://h/\u202e\u200b\x1b[2Jx\x07> and http://fine.example/\n" * 200_000)
    return ["--invalid", str(path)], None


def _huge_ports(root: Path) -> tuple[list[str], Path | None]:
    """``urlsift validate -`` on 10,000 URLs, each with a port of 5,000 digits, then one plain URL:
    every line judged valid (expected exit 0; a traceback at the first before issue 28's fix)."""
    path = root / "ports.txt"
    path.write_text(f"http://h.example:{'9' * 5_000}/\n" * 10_000 + "http://after.example/\n")
    return ["validate", "--profile", "both", "-"], path


def _validate_gib_line(root: Path) -> tuple[list[str], Path | None]:
    """``urlsift validate -`` on a URL, a line of 1 GiB (a sparse file: NULs) and a URL: the long
    line reported and skipped as it streams past (expected exit 1; issue 28.17: held whole, 4.2 GB)."""
    path = root / "urls.txt"
    with path.open("wb") as file:
        file.write(b"http://before.example/\n")
        file.truncate(1 << 30)
        file.seek(0, os.SEEK_END)
        file.write(b"\nhttp://after.example/\n")
    return ["validate", "-"], path


def _surrogates_as_jsonl(root: Path) -> tuple[list[str], Path | None]:
    """100,000 JSON-lines records whose id and text hold lone surrogates (``\\ud800``), written as
    jsonl with --invalid and --context: each written as JSON's escape (expected exit 0; issue 28.9:
    a traceback at the first row)."""
    path = root / "surrogates.jsonl"
    record = '{"id": "m%d\\ud800", "t": "see http://h%d.example/ x\\udc00y <URL:http://b.example/%%zz>"}\n'
    path.write_text("".join(record % (n, n) for n in range(100_000)))
    fields = ["--input-format", "jsonl", "--text-field", "t", "--id-field", "id"]
    return [*fields, "--invalid", "--context", "20", "--format", "jsonl", str(path)], None


def _bomb_then_members(root: Path) -> tuple[list[str], Path | None]:
    """A zip in a zip: a 200 MB deflate bomb, then 10,000 small members at each level, read with
    --max-expand 5M: one report (expected exit 2; issue 28.19: one report per member after it,
    at every level: 20,001)."""
    import io
    import zipfile

    later = [(f"after{k}.txt", b"http://after.example/\n") for k in range(10_000)]
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("bomb.txt", "w") as member:
            for _ in range(200):
                member.write(b"x" * (1 << 20))
        for name, data in later:
            archive.writestr(name, data)
    with zipfile.ZipFile(root / "nested.zip", "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("inner.zip", inner.getvalue())
        for name, data in later:
            archive.writestr(name, data)
    return ["--stats", "--max-expand", "5M", str(root / "nested.zip")], None


CASES: dict[str, Case] = {
    "folder of 5,000 entries, 20% links to themselves": _hostile_folder,
    "-j 64 on two 20 MB files": _jobs_on_two_files,
    "csv of 200,000 formula cells": _formula_cells,
    "text with 200,000 bidi and ESC candidates": _bidi_everywhere,
    "validate 10,000 ports of 5,000 digits": _huge_ports,
    "validate - with a line of 1 GiB": _validate_gib_line,
    "jsonl of 100,000 records of lone surrogates": _surrogates_as_jsonl,
    "zip bomb in a zip, 10,000 members after it at each level": _bomb_then_members,
}
