"""Hostile Zstandard streams and JSON-lines dumps (issue 21), for the driver ``bench/hostile.py``:
each case builds its input in the folder it is given and returns urlsift's arguments and a file for
standard input, or None. Small variants of each are tests in ``tests/sources/test_zstd.py`` and
``tests/sources/test_jsonl.py``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from backports import zstd

GOOD = b"<URL:http://good.example/>\n"
LINES = b"a" * 1023 + b"\n"  # text that compresses well and is no long line, no binary
JSONL = ["--input-format", "jsonl", "--text-field", "body"]


def _with_good(folder: Path, *paths: Path, options: tuple[str, ...] = ()) -> list[str]:
    """The arguments: the hostile files, then a good one (it must still be read)."""
    (folder / "good.txt").write_bytes(GOOD)
    return ["--no-progress", "--stats", *options, *map(str, paths), str(folder / "good.txt")]


def zst_frames(folder: Path) -> tuple[list[str], Path | None]:
    frame = zstd.compress(LINES * (64 << 10))  # 64 MiB a frame, 160 frames: 10 GiB
    path = folder / "bomb.txt.zst"
    path.write_bytes(frame * 160)
    return _with_good(folder, path), None


def zst_window(folder: Path) -> tuple[list[str], Path | None]:
    """A frame that declares a 2 GiB window (zstd --long=31): the decoder would fill that much."""
    compressor = zstd.ZstdCompressor(options={zstd.CompressionParameter.window_log: 31})
    path = folder / "long.txt.zst"
    path.write_bytes(compressor.compress(LINES * (64 << 10)) + compressor.flush())
    return _with_good(folder, path), None


def jsonl_long_line(folder: Path) -> tuple[list[str], Path | None]:
    """A JSON line of 50 MB under --max-message 10M, then a good record: measured, never held."""
    path = folder / "long.jsonl"
    with open(path, "wb") as out:
        out.write(b'{"body": "')
        for _ in range(50):
            out.write(b"a" * 10**6)
        out.write(b'"}\n{"body": "<URL:http://after.example/>"}\n')
    return ["--no-progress", "--stats", "--max-message", "10M", *JSONL, str(path)], None


CASES: dict[str, Callable[[Path], tuple[list[str], Path | None]]] = {
    "zst 160 frames of 64 MiB": zst_frames,
    "zst window 2 GiB (zstd --long=31)": zst_window,
    "jsonl line of 50 MB (--max-message 10M)": jsonl_long_line,
}
