"""Hostile WARC files (issue 21), for the driver ``bench/hostile.py``: each case builds its input
in the folder it is given and returns urlsift's arguments (the hostile file, then a good one) and
no standard input. Small variants of each are tests in ``tests/test_warc.py``. warcio writes them
(``pip install 'urlsift[warc]'``)."""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

GOOD = b"<URL:http://good.example/>\n"


def _record(body: bytes, headers: list[tuple[str, str]] | None = None) -> bytes:
    """One response record (text/plain, and ``headers``), uncompressed."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=False)
    status = StatusAndHeaders(
        "200 OK", [("Content-Type", "text/plain"), *(headers or [])], protocol="HTTP/1.1"
    )
    payload = io.BytesIO(body)
    writer.write_record(
        writer.create_warc_record("http://e/", "response", payload=payload, http_headers=status)
    )
    return buffer.getvalue()


def _with_good(folder: Path, path: Path) -> list[str]:
    (folder / "good.txt").write_bytes(GOOD)
    return ["--quiet", "--stats", str(path), str(folder / "good.txt")]


def content_coding_bomb(folder: Path) -> tuple[list[str], Path | None]:
    """A record whose body is 4 GiB of zeros, gzip content coding (4 MB): stopped at 1000 times."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 24)
    body = b"".join(packer.compress(zeros) for _ in range(256)) + packer.flush()
    path = folder / "bomb.warc"
    path.write_bytes(_record(body, [("Content-Encoding", "gzip")]) + _record(GOOD))
    return _with_good(folder, path), None


def garbage_between_records(folder: Path) -> tuple[list[str], Path | None]:
    """50 MB of lines that are no record between two records."""
    path = folder / "garbage.warc"
    path.write_bytes(_record(GOOD) + b"no record here\r\n" * 3_000_000 + _record(GOOD))
    return _with_good(folder, path), None


def damaged_many_times(folder: Path) -> tuple[list[str], Path | None]:
    """100,000 records, each followed by a line of garbage: 1,000 are read, then one report."""
    one = _record(GOOD) + b"garbage\r\n"
    path = folder / "damaged.warc"
    path.write_bytes(one * 100_000)
    return _with_good(folder, path), None


def header_line_of_100_mb(folder: Path) -> tuple[list[str], Path | None]:
    """A record whose WARC header holds a 100 MB line (warcio would hold it whole)."""
    record = _record(GOOD)
    long = record.replace(b"WARC-Type:", b"X-Long: " + b"y" * 100_000_000 + b"\r\nWARC-Type:", 1)
    path = folder / "long.warc"
    path.write_bytes(record + long + record)
    return _with_good(folder, path), None


CASES: dict[str, Callable[[Path], tuple[list[str], Path | None]]] = {
    "gzip content coding 4 GiB (4 MB)": content_coding_bomb,
    "50 MB of garbage between two records": garbage_between_records,
    "100,000 damaged stretches": damaged_many_times,
    "a header line of 100 MB": header_line_of_100_mb,
}
