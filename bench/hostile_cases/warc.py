"""Hostile WARC files (issue 21), for the driver ``bench/hostile.py``: each case builds its input
in the folder it is given and returns urlsift's arguments (the hostile file, then a good one) and
no standard input. Small variants of each are tests in ``tests/sources/test_warc.py``. warcio writes them
(``pip install 'urlsift[warc]'``)."""

from __future__ import annotations

import gzip
import io
import random
import re
import zlib
from collections.abc import Callable, Iterator
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
    return ["--no-progress", "--stats", str(path), str(folder / "good.txt")]


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


# --- issue 28 ------------------------------------------------------------------------------------


def _gzip_record(path: Path, head: bytes, body: Callable[[], Iterator[bytes]], length: int) -> None:
    """A .warc.gz: a response record of WARC headers ``head`` and a body of ``length`` bytes
    (``body`` gives them in pieces), then a good record; written in pieces, never held."""
    with gzip.open(path, "wb", compresslevel=6) as out:
        out.write(b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e/\r\n" + head)
        out.write(b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % length)
        for piece in body():
            out.write(piece)
        out.write(b"\r\n\r\n" + _record(GOOD))


def chunk_of_1_gib(folder: Path) -> tuple[list[str], Path | None]:
    """One HTTP chunk of 1 GiB in a 1.5 MB .warc.gz: warcio held it whole and inflated it in one call."""
    size = 1 << 30
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n" % size
    noise = random.Random(28)  # 600 hex digits a MiB: the file packs 725 times, within the 1000x ratio

    def body() -> Iterator[bytes]:
        yield http
        for _ in range(size >> 20):
            head = b"http://chunk.example/ %0600x " % noise.getrandbits(2400)
            yield head + b"a" * ((1 << 20) - len(head) - 1) + b"\n"
        yield b"\r\n0\r\n\r\n"

    path = folder / "chunk.warc.gz"
    _gzip_record(path, b"", body, len(http) + size + 7)
    return _with_good(folder, path), None


def http_header_lines_10m(folder: Path) -> tuple[list[str], Path | None]:
    """10 million short HTTP header lines in a 117 KB .warc.gz (warcio kept them all: 2 GB)."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
    lines = b"a: b\r\n" * 100_000

    def body() -> Iterator[bytes]:
        yield http
        for _ in range(100):
            yield lines
        yield b"\r\nhttp://lost.example/"

    path = folder / "lines.warc.gz"
    _gzip_record(path, b"", body, len(http) + len(lines) * 100 + 22)
    return _with_good(folder, path), None


def endless_header_block_on_stdin(folder: Path) -> tuple[list[str], Path | None]:
    """A WARC header block of 2 GB of lines on standard input (gzipped: 2 MB): it grew without bound,
    with nothing printed; now one report at its 10,000th line, then a search that ends with the input."""
    path = folder / "stdin.warc.gz"
    lines = b"X-Header: yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\r\n" * 20_000
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(b"WARC/1.0\r\n")
        for _ in range(2 * 10**9 // len(lines)):
            out.write(lines)
    return ["--no-progress", "--stats", "--max-expand", "5G", "-"], path


def bad_zstd_checksum(folder: Path) -> tuple[list[str], Path | None]:
    """A 20 MB text of URLs in one Zstandard frame whose content checksum is wrong: all kept."""
    from backports import zstd

    urls = b"".join(b"see http://u%d.example/ and more\n" % k for k in range(600_000))
    frame = bytearray(zstd.compress(urls, options={zstd.CompressionParameter.checksum_flag: 1}))
    frame[-1] ^= 0xFF
    path = folder / "urls.txt.zst"
    path.write_bytes(bytes(frame))
    return ["--no-progress", "--stats", "--count", str(path)], None


def huge_content_length(folder: Path) -> tuple[list[str], Path | None]:
    """500 records whose Content-Length is 2**64 (warcio: OverflowError), each before a good one."""
    bad = re.sub(rb"Content-Length: \d+", b"Content-Length: 18446744073709551616", _record(GOOD), count=1)
    path = folder / "lengths.warc"
    path.write_bytes((bad + _record(GOOD)) * 500)
    return _with_good(folder, path), None


def _coded(folder: Path, how: str) -> tuple[list[str], Path | None]:
    """600,000 URLs in one response: not chunked though its header says so (read as it is, one
    warning; all were lost), 100,000 gzip members (all but the first lost), or gzip as a transfer
    coding under chunked (scanned as compressed bytes)."""
    lines = [b"see http://u%d.example/ and more\n" % k for k in range(600_000)]
    if how == "chunked":
        body, headers = b"".join(lines), [("Transfer-Encoding", "chunked")]
    elif how == "members":
        body = b"".join(gzip.compress(b"".join(lines[k : k + 6]), 1) for k in range(0, len(lines), 6))
        headers = [("Content-Encoding", "gzip")]
    else:
        packed = gzip.compress(b"".join(lines))
        pieces = [packed[k : k + 4096] for k in range(0, len(packed), 4096)]
        body = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"
        headers = [("Transfer-Encoding", "gzip, chunked")]
    path = folder / "coded.warc"
    path.write_bytes(_record(body, headers) + _record(GOOD))
    return ["--no-progress", "--stats", "--count", str(path)], None


CASES.update(
    {
        "a 1 GiB chunk in a 1.5 MB .warc.gz": chunk_of_1_gib,
        "10 million HTTP header lines (.warc.gz)": http_header_lines_10m,
        "an endless WARC header block on standard input": endless_header_block_on_stdin,
        "a Zstandard frame with a bad checksum (20 MB)": bad_zstd_checksum,
        "Content-Length 2**64, 500 times": huge_content_length,
        "a page not chunked, its header chunked (19 MB)": lambda folder: _coded(folder, "chunked"),
        "a gzip body of 100,000 members (19 MB of URLs)": lambda folder: _coded(folder, "members"),
        "Transfer-Encoding: gzip, chunked (19 MB of URLs)": lambda folder: _coded(folder, "transfer"),
    }
)
