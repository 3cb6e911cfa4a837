"""WARC and WET files (sources/warc.py): built with warcio's writer from the corpora in tmp_path,
they give the URLs of the plain files, with the records' provenance; damage is reported and read
past."""

from __future__ import annotations

import gzip
import html
import io
import json
import re
import subprocess
import sys
import tracemalloc
import zipfile
import zlib
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO

import growth
import pytest

pytest.importorskip("warcio")
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from urlsift._model import Defect, MessageText, Provenance
from urlsift.cli import main
from urlsift.results import Options, Report, scan_file
from urlsift.sources import ReadOptions, read_path, warc
from urlsift.sources.mbox import messages
from urlsift.sources.packed import Budget

CORPORA = Path(__file__).parents[2] / "corpora"
TEXTS = [CORPORA / "text" / "lynx-README", CORPORA / "rfc" / "rfc1738.txt", CORPORA / "text" / "quickurl.el"]
MBOX = CORPORA / "mail" / "r-devel-1997-May.mbox"
_URL, _MEMBER, _MESSAGE, _OFFSET, _MESSAGE_ID, _DATE, _PART = 0, 9, 10, 11, 12, 13, 15


def _chunked(data: bytes, size: int = 1000) -> bytes:
    pieces = [
        b"%x\r\n%s\r\n" % (len(data[k : k + size]), data[k : k + size]) for k in range(0, len(data), size)
    ]
    return b"".join(pieces) + b"0\r\n\r\n"


def _page(text: bytes) -> bytes:
    return (
        b"<html><head><title>t</title></head><body><pre>"
        + html.escape(text.decode()).encode()
        + b"</pre></body></html>"
    )


def _bodies() -> Iterator[tuple[str, list[tuple[str, str]], bytes]]:
    """(target URI, HTTP headers, body) of the responses: the texts as HTML pages (the second one
    gzipped and chunked, its charset only in a <meta>), then the mbox's messages as message/rfc822."""
    for k, path in enumerate(TEXTS):
        page = _page(path.read_bytes())
        headers = [("Content-Type", "text/html; charset=utf-8")]
        if k == 1:
            page = page.replace(b"<head>", b'<head><meta charset="utf-8">')
            headers = [
                ("Content-Type", "text/html"),
                ("Content-Encoding", "gzip"),
                ("Transfer-Encoding", "chunked"),
            ]
            page = _chunked(gzip.compress(page))
        yield f"http://example.org/{path.name}.html", headers, page
    with MBOX.open("rb") as file:
        for k, raw in enumerate(messages(file, 10**8)):
            yield f"http://lists.example.org/msg{k}.eml", [("Content-Type", "message/rfc822")], raw.data


def _write(path: Path, *, gz: bool, wet: bool = False) -> list[str]:
    """A WARC of the corpora's texts and messages (a WET of the texts: conversion records), a
    request and a metadata record among them; the records' ids, in order."""
    ids: list[str] = []
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=gz)
        info = writer.create_warcinfo_record(path.name, {"software": "test"})
        writer.write_record(info)
        ids.append(info.rec_headers.get_header("WARC-Record-ID"))
        if wet:
            for text in TEXTS:
                uri = f"http://example.org/{text.name}"
                record = writer.create_warc_record(
                    uri, "conversion", payload=io.BytesIO(text.read_bytes()), warc_content_type="text/plain"
                )
                writer.write_record(record)
                ids.append(record.rec_headers.get_header("WARC-Record-ID"))
            return ids
        for k, (uri, headers, body) in enumerate(_bodies()):
            if k == 1:
                request = writer.create_warc_record(
                    uri, "request", payload=io.BytesIO(b"GET / HTTP/1.1\r\nHost: example.org\r\n\r\n")
                )
                writer.write_record(request)
                ids.append(request.rec_headers.get_header("WARC-Record-ID"))
            status = StatusAndHeaders(
                "200 OK", [*headers, ("Content-Length", str(len(body)))], protocol="HTTP/1.1"
            )
            record = writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=status)
            writer.write_record(record)
            ids.append(record.rec_headers.get_header("WARC-Record-ID"))
        metadata = writer.create_warc_record(
            "http://example.org/", "metadata", payload=io.BytesIO(b"a: b\r\n")
        )
        writer.write_record(metadata)
        ids.append(metadata.rec_headers.get_header("WARC-Record-ID"))
    return ids


def _rows(path: Path) -> list[tuple[object, ...]]:
    events, _ = scan_file(str(path), Options())
    return [event for event in events if isinstance(event, tuple) and not isinstance(event, Report)]


def _plain_urls() -> list[str]:
    return [str(row[_URL]) for path in [*TEXTS, MBOX] for row in _rows(path)]


@pytest.mark.parametrize("gz", [False, True])
def test_a_warc_of_pages_and_messages_gives_the_plain_files_urls(gz: bool, tmp_path: Path) -> None:
    path = tmp_path / ("crawl.warc.gz" if gz else "crawl.warc")
    ids = _write(path, gz=gz)
    rows = _rows(path)
    assert [row[_URL] for row in rows] == _plain_urls()
    assert len(rows) > 100
    # By hand: the first page's first row, the gzipped chunked page's, a message's.
    first = rows[0]
    assert (first[_MEMBER], first[_MESSAGE], first[_MESSAGE_ID], first[_PART]) == (
        ids[1],
        1,
        "http://example.org/lynx-README.html",
        "text/html",
    )
    assert str(first[_DATE]).startswith("20")
    rfc = next(row for row in rows if row[_MESSAGE_ID] == "http://example.org/rfc1738.txt.html")
    assert (rfc[_MEMBER], rfc[_MESSAGE]) == (ids[3], 3)  # after the request record, skipped
    mail = next(row for row in rows if str(row[_MESSAGE_ID]).endswith(".eml"))
    number = 5 + int(str(mail[_MESSAGE_ID]).split("msg")[1][:-4])  # warcinfo, 3 pages, a request
    assert mail[_MEMBER] == ids[number]
    assert mail[_MESSAGE] == number
    assert mail[_PART] == "0 text/plain"
    offset = mail[_OFFSET]
    assert isinstance(offset, int)
    data = gzip.decompress(path.read_bytes()) if gz else path.read_bytes()
    assert data[offset:].startswith(b"WARC/1.")
    assert ids[number].encode() in data[offset : offset + 400]


def test_a_wet_of_conversion_records_gives_the_texts_urls(tmp_path: Path) -> None:
    path = tmp_path / "crawl.warc.wet.gz"
    ids = _write(path, gz=True, wet=True)
    rows = _rows(path)
    assert [row[_URL] for row in rows] == [row[_URL] for text in TEXTS for row in _rows(text)]
    assert {row[_MEMBER] for row in rows} == set(ids[1:])
    assert rows[-1][_MESSAGE_ID] == "http://example.org/quickurl.el"
    assert rows[-1][_PART] == "text/plain"


def test_skipped_records_are_counted_in_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "crawl.warc"
    _write(path, gz=False)
    assert main(["--stats", "--no-progress", str(path)]) == 0
    err = capsys.readouterr().err
    assert "records             3 WARC records skipped" in err  # warcinfo, request, metadata
    assert "files               1 = 1 scanned + 0 failed" in err


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "urlsift", *args], capture_output=True, text=True, check=False
    )


def test_two_jobs_print_what_one_does(tmp_path: Path) -> None:
    for name, gz in (("a.warc", False), ("b.warc.gz", True)):
        _write(tmp_path / name, gz=gz, wet=True)
    paths = [str(tmp_path / "a.warc"), str(tmp_path / "b.warc.gz")]
    one = _cli("--format", "jsonl", "-j", "1", *paths)
    two = _cli("--format", "jsonl", "-j", "2", "--split-size", "64K", *paths)
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout
    assert len(one.stdout.splitlines()) > 50
    assert json.loads(one.stdout.splitlines()[0])["member"].startswith("<urn:uuid:")


def _reports(path: Path) -> list[Report]:
    events, _ = scan_file(str(path), Options())
    return [event for event in events if isinstance(event, Report)]


def test_a_cut_warc_gz_keeps_the_records_before_the_cut(tmp_path: Path) -> None:
    whole = tmp_path / "whole.warc.gz"
    _write(whole, gz=True)
    data = whole.read_bytes()
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(data[: len(data) * 2 // 3])
    rows, expected = _rows(cut), [row[_URL] for row in _rows(whole)]
    assert 0 < len(rows) < len(expected)
    assert [row[_URL] for row in rows] == expected[: len(rows)]
    kinds = [report.kind for report in _reports(cut)]
    assert "truncated" in kinds
    assert kinds[-1] == "corrupt"


def test_garbage_and_a_bad_content_length_are_reported_and_read_past(tmp_path: Path) -> None:
    whole = tmp_path / "whole.warc"
    _write(whole, gz=False)
    data = whole.read_bytes()
    records = data.split(b"\r\n\r\nWARC/1.")
    assert len(records) > 20
    # Garbage after the 4th record; the 8th's Content-Length 10 bytes short.
    records[4] += b"\r\n\r\nno record here\r\nnor here\r\n"
    length = re.search(rb"\r\nContent-Length: (\d+)", records[8])
    assert length is not None
    records[8] = records[8].replace(length.group(), length.group()[:-2], 1)  # a tenth of it
    damaged = tmp_path / "damaged.warc"
    damaged.write_bytes(b"\r\n\r\nWARC/1.".join(records))
    reports = [report for report in _reports(damaged) if report.kind == "corrupt"]
    assert [report.message for report in reports] == [5, 9]  # the garbage takes an index
    assert "not a WARC record" in reports[0].detail
    assert "Content-Length" in reports[1].detail
    urls = [row[_URL] for row in _rows(damaged) if row[_MESSAGE] != 9]
    good = [row[_URL] for row in _rows(whole) if row[_MESSAGE] != 8]
    assert urls == good
    assert len(good) > 100
    assert main([str(damaged)]) == 2


def _record(kind: bytes, headers: bytes, body: bytes, *, length: bool = True) -> bytes:
    said = b"Content-Length: %d\r\n" % len(body) if length else b""
    return b"WARC/1.0\r\nWARC-Type: %s\r\n%s%s\r\n%s\r\n\r\n" % (kind, headers, said, body)


def test_records_warcio_cannot_read_are_reported_and_read_past(tmp_path: Path) -> None:
    """A record with no Content-Length (warcio would read the rest of the file as its text) is
    damage, reported, and the next record is read; a file of one header line is cut in its headers."""
    good = _record(b"resource", b"Content-Type: text/plain\r\n", b"after http://after.example/")
    path = tmp_path / "no-length.warc"
    path.write_bytes(_record(b"resource", b"Content-Type: text/plain\r\n", b"x", length=False) + good)
    assert [row[_URL] for row in _rows(path)] == ["http://after.example/"]
    assert [report.kind for report in _reports(path)] == ["corrupt"]
    cut = tmp_path / "cut.warc"
    cut.write_bytes(b"WARC/1.0\r\n")
    assert [report.kind for report in _reports(cut)] == ["truncated"]


def test_without_warcio_a_warc_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "crawl.warc"
    _write(path, gz=False)
    monkeypatch.setitem(sys.modules, "warcio.archiveiterator", None)
    items = list(read_path(str(path), ReadOptions()))
    assert len(items) == 1
    assert "install urlsift[warc]" in items[0].detail  # type: ignore[union-attr]


def test_a_record_cut_in_its_content_is_scanned_and_reported(tmp_path: Path) -> None:
    whole = tmp_path / "whole.warc"
    ids = _write(whole, gz=False)
    data = whole.read_bytes()
    cut = tmp_path / "cut.warc"
    cut.write_bytes(data[: data.index(ids[5].encode()) - 300])  # the end of the third page
    reports = _reports(cut)
    assert [(report.kind, report.message) for report in reports] == [("truncated", 4)]
    assert "bytes lost" in reports[0].detail
    rows = _rows(cut)
    assert rows
    assert {row[_MESSAGE] for row in rows} == {1, 3, 4}


def _warc(path: Path, bodies: list[tuple[list[tuple[str, str]], bytes]], *, gz: bool = False) -> list[str]:
    """A WARC of the responses ``bodies`` (HTTP headers, body); the records' ids."""
    ids = []
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=gz)
        for k, (headers, body) in enumerate(bodies):
            status = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            record = writer.create_warc_record(
                f"http://example.org/{k}", "response", payload=io.BytesIO(body), http_headers=status
            )
            writer.write_record(record)
            ids.append(record.rec_headers.get_header("WARC-Record-ID"))
    return ids


def _items(path: Path, **options: int) -> list[object]:
    return list(read_path(str(path), ReadOptions(**options)))  # type: ignore[arg-type]


PLAIN = [("Content-Type", "text/plain")]
GOOD = (PLAIN, b"see <URL:http://example.org/after>\n")


def test_a_content_coding_bomb_is_stopped_and_the_next_record_read(tmp_path: Path) -> None:
    bomb = gzip.compress(b"http://example.org/a " + bytes(5_000_000))
    path = tmp_path / "bomb.warc"
    _warc(path, [([*PLAIN, ("Content-Encoding", "gzip")], bomb), GOOD])
    items = _items(path, max_expand=1_000_000)
    bombed = items[0]
    assert isinstance(bombed, MessageText)
    assert [defect.kind for defect in bombed.defects] == ["too-large"]
    assert "decompression bomb" in bombed.defects[0].detail
    assert isinstance(items[1], MessageText)
    assert "http://example.org/after" in items[1].texts[0]


def test_a_record_over_max_message_is_reported_not_held(tmp_path: Path) -> None:
    path = tmp_path / "big.warc"
    _warc(path, [(PLAIN, b"x" * 2_500_000), GOOD])  # no line break: what is left is no header line
    big, good = _items(path, max_message=1_000_000)
    assert isinstance(big, MessageText)
    assert not big.texts
    assert big.defects[0].kind == "too-large"
    assert isinstance(good, MessageText)
    assert good.texts


def test_a_header_line_of_megabytes_is_damage_read_past(tmp_path: Path) -> None:
    whole = tmp_path / "whole.warc"
    _warc(whole, [GOOD, GOOD, GOOD])
    records = whole.read_bytes().split(b"\r\n\r\nWARC/1.")
    records[1] = records[1].replace(b"WARC-Type:", b"X-Long: " + b"y" * 3_000_000 + b"\r\nWARC-Type:", 1)
    path = tmp_path / "long.warc"
    path.write_bytes(b"\r\n\r\nWARC/1.".join(records))
    items = _items(path)
    texts = [item for item in items if isinstance(item, MessageText)]
    defects = [item for item in items if isinstance(item, Defect)]
    assert len(texts) == 2
    assert [defect.kind for defect in defects] == ["corrupt"]
    assert "header line over" in defects[0].detail


def test_a_charset_in_the_http_headers_or_the_pages_meta_decodes_it(tmp_path: Path) -> None:
    page = '<html><head><meta charset="iso-8859-1"></head><body>Café <a href="http://example.org/">x</a>'
    path = tmp_path / "page.warc"
    in_http = [("Content-Type", 'text/plain; charset="ISO-8859-1"')]
    _warc(
        path, [([("Content-Type", "text/html")], page.encode("latin-1")), (in_http, "Olé".encode("latin-1"))]
    )
    found, plain = _items(path)
    assert isinstance(found, MessageText)
    assert found.defects == []
    assert "Café" in found.texts[0]
    assert "http://example.org/" in found.texts[0]
    assert isinstance(plain, MessageText)
    assert plain.texts == ["Olé"]
    assert plain.defects == []


def test_a_warc_in_a_zip_is_named_by_member_and_record(tmp_path: Path) -> None:
    inner = tmp_path / "crawl.warc"
    ids = _warc(inner, [GOOD])
    path = tmp_path / "crawls.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(inner, "crawl.warc")
    (row,) = _rows(path)
    assert row[_MEMBER] == f"crawl.warc!{ids[0]}"
    assert row[_URL] == "http://example.org/after"


def _damaged(stretches: int) -> bytes:
    """A WARC of ``stretches`` records, each followed by a line of garbage."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=False)
    for k in range(stretches):
        status = StatusAndHeaders("200 OK", PLAIN, protocol="HTTP/1.1")
        body = io.BytesIO(b"http://example.org/%d\n" % k)
        writer.write_record(
            writer.create_warc_record("http://e/", "response", payload=body, http_headers=status)
        )
        buffer.write(b"garbage garbage\r\n" * 3)
    return buffer.getvalue()


def _read_all(data: bytes) -> int:
    items = warc.records(io.BytesIO(data), Provenance("x"), Budget(10**9, lambda: len(data)), 10**8)
    return sum(1 for _ in items)


def test_damage_costs_linear_work() -> None:
    growth.assert_linear_steps(_read_all, [_damaged(20), _damaged(200)], "damaged stretches")
    assert _read_all(_damaged(200)) == 2 * 200  # each record and the report on its garbage


def test_parquet_gives_the_warc_date_as_a_utc_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "crawl.warc.wet"
    _write(path, gz=False, wet=True)
    assert main(["--no-progress", "--format", "parquet", "--output", str(tmp_path / "out"), str(path)]) == 0
    rows = pq.read_table(tmp_path / "out").to_pylist()
    assert len(rows) > 20
    header = path.read_bytes().split(b"WARC-Date: ")[2][:20].decode()  # the first conversion record's
    assert rows[0]["date"] == datetime.fromisoformat(header)
    assert rows[0]["date"].tzinfo is not None


# --- issue 28: budgets of the WARC reader -------------------------------------------------------


def _peak(read: Callable[[], object]) -> tuple[object, int]:
    """What ``read()`` gives, and the most memory Python held while it ran (bytes)."""
    tracemalloc.start()
    try:
        found = read()
        return found, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_chunk_is_read_in_steps_not_held(tmp_path: Path) -> None:
    """Issue 28: warcio held a chunk whole (a 1 GiB one in a 1.3 MB .warc.gz took 2 GB) and
    inflated it in one call; the record is held only up to --max-message."""
    text = b"http://example.org/chunk " + b"x" * 30_000_000
    gzipped = gzip.compress(b"http://example.org/inflated " + bytes(30_000_000), 1)
    path = tmp_path / "chunks.warc"
    _warc(
        path,
        [
            ([*PLAIN, ("Transfer-Encoding", "chunked")], b"%x\r\n%s\r\n0\r\n\r\n" % (len(text), text)),
            (
                [*PLAIN, ("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")],
                _chunked(gzipped, 10**6),
            ),
            GOOD,
        ],
    )
    items, peak = _peak(lambda: _items(path, max_message=2_000_000))
    assert isinstance(items, list)
    assert [[defect.kind for defect in item.defects] for item in items] == [["too-large"], ["too-large"], []]
    assert "http://example.org/after" in items[2].texts[0]
    assert peak < 12_000_000  # the message limit and a few steps, not 30 MB chunks
    # Within the limit, chunked and gzip are undone as before.
    small, _ = _items(
        _warc_of(
            tmp_path,
            [*PLAIN, ("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")],
            _chunked(gzip.compress(b"see http://example.org/small\n"), 7),
        )
    )
    assert isinstance(small, MessageText)
    assert small.texts == ["see http://example.org/small\n"]


def _warc_of(tmp_path: Path, headers: list[tuple[str, str]], body: bytes, name: str = "one.warc") -> Path:
    path = tmp_path / name
    _warc(path, [(headers, body), GOOD])
    return path


def _texts_and_reports(path: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """The texts read (joined, per record) and every report, (kind, detail), in order."""
    texts: list[str] = []
    reports: list[tuple[str, str]] = []
    for item in _items(path):
        if isinstance(item, MessageText):
            texts.append("".join(item.texts))
            reports.extend((defect.kind, defect.detail) for defect in item.defects)
        elif isinstance(item, Defect):
            reports.append((item.kind, item.detail))
    return texts, reports


def test_header_blocks_of_too_many_lines_are_damage_read_past(tmp_path: Path) -> None:
    """Issue 28: warcio keeps every header line (10 million short HTTP ones took 2 GB): a block
    of more than 10,000 lines is damage, and the next record is read."""
    good = _record(b"resource", b"Content-Type: text/plain\r\n", b"after http://after.example/")
    http = b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 20_000 + b"Content-Type: text/plain\r\n\r\nhttp://lost/"
    for name, bad in {
        "http": _record(b"response", b"WARC-Target-URI: http://e/\r\n", http),
        "warc": _record(b"resource", b"X: y\r\n" * 20_000 + b"Content-Type: text/plain\r\n", b"http://lost/"),
    }.items():
        path = tmp_path / f"{name}.warc"
        path.write_bytes(bad + good)
        texts, reports = _texts_and_reports(path)
        assert texts == ["after http://after.example/"], name
        assert [kind for kind, _ in reports] == ["corrupt"], name
        assert "a header block over 10,000 lines" in reports[0][1], name
    # 10,000 lines are still headers.
    path = tmp_path / "many.warc"
    path.write_bytes(
        _record(b"resource", b"X: y\r\n" * 9_990 + b"Content-Type: text/plain\r\n", b"http://kept/")
    )
    assert _texts_and_reports(path) == (["http://kept/"], [])


class _Endless(io.RawIOBase):
    """A header line repeated up to ``limit`` bytes (a pipe that would not end), counting what was read."""

    def __init__(self, limit: int) -> None:
        self.given, self._limit = 0, limit
        self._line = b"X-Header: " + b"y" * 20 + b"\r\n"

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        size = min(len(buffer), self._limit - self.given) // len(self._line) * len(self._line)
        buffer[:size] = self._line * (size // len(self._line))
        self.given += size
        return size


def test_an_endless_header_block_is_reported_at_once() -> None:
    """Issue 28: an endless WARC header block on standard input grew to 4 GB with nothing said:
    the report comes once the block passes its bound, before the stream is searched on."""
    stream = _Endless(200_000_000)
    source = io.BufferedReader(_Prefixed(b"WARC/1.0\r\n", io.BufferedReader(stream)), 1 << 16)
    items = warc.records(source, Provenance("-"), Budget(10**9, lambda: stream.given), 10**8)
    first = next(items)
    assert isinstance(first, Defect)
    assert first.kind == "corrupt"
    assert "header block" in first.detail
    assert stream.given < 6_000_000


class _Prefixed(io.RawIOBase):
    """``head``, then ``rest``: a stream that starts a WARC record."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head, self._rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data, self._head = self._head[: len(buffer)], self._head[len(buffer) :]
        data = data or self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


@pytest.mark.parametrize(
    "length", [b"9223372036854775808", b"99999999999999999999", b"+5", b"0x5", b"\xd9\xa5", b"1_0"]
)
def test_a_content_length_that_is_no_length_is_damage_read_past(length: bytes, tmp_path: Path) -> None:
    """Issue 28: 2**63 or more raised an OverflowError, the rest of the file lost; int() takes
    signs, underscores and any script's digits: 1 to 19 ASCII digits, under 2**63, are a length."""
    good = _record(b"resource", b"Content-Type: text/plain\r\n", b"after http://after.example/")
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhttp://lost.example/"
    for kind, headers, body in (
        (b"resource", b"Content-Type: text/plain\r\n", b"http://lost.example/"),
        (b"response", b"WARC-Target-URI: http://e/\r\nContent-Type: application/http\r\n", http),
    ):
        path = tmp_path / "length.warc"
        bad = b"WARC/1.0\r\nWARC-Type: %s\r\n%sContent-Length: %s\r\n\r\n%s\r\n\r\n" % (
            kind,
            headers,
            length,
            body,
        )
        path.write_bytes(bad + good)
        texts, reports = _texts_and_reports(path)
        assert texts == ["after http://after.example/"]
        assert [kind for kind, _ in reports] == ["corrupt"]
        assert "Content-Length" in reports[0][1]


def test_a_damaged_content_coding_is_corrupt_and_what_came_before_kept(tmp_path: Path) -> None:
    """Issue 28: gzip damaged in its first 16 KB made warcio scan the compressed bytes as text;
    damage later is corrupt too, what was decoded before it scanned."""
    lines = b"".join(b"http://example.org/%d\n" % k for k in range(200_000))
    packed = bytearray(gzip.compress(lines))
    early, late = bytearray(packed), bytearray(packed)
    early[100:140] = bytes(40)
    late[len(packed) // 2 : len(packed) // 2 + 40] = bytes(40)
    for name, body in (("early", early), ("late", late)):
        texts, reports = _texts_and_reports(
            _warc_of(tmp_path, [*PLAIN, ("Content-Encoding", "gzip")], bytes(body))
        )
        assert [kind for kind, _ in reports] == ["corrupt"], name
        assert "gzip content coding is damaged" in reports[0][1]
        assert "\x1f" not in texts[0]  # no compressed byte read as text
        assert texts[1] == "see <URL:http://example.org/after>\n"
    assert texts[0].startswith("http://example.org/0\n")
    assert len(texts[0]) > len(lines) // 4  # (the late damage: the lines before it)
    # A chunk size line that is none, after the first chunk.
    chunked = b"5\r\nhttp:\r\nzz\r\n//x/\r\n0\r\n\r\n"
    texts, reports = _texts_and_reports(
        _warc_of(tmp_path, [*PLAIN, ("Transfer-Encoding", "chunked")], chunked)
    )
    assert (texts[0], [kind for kind, _ in reports]) == ("http:", ["corrupt"])


def test_a_warc_cut_inside_a_records_headers_is_truncated(tmp_path: Path) -> None:
    good = _record(b"resource", b"Content-Type: text/plain\r\n", b"after http://after.example/")
    path = tmp_path / "cut.warc"
    path.write_bytes(good + b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n")
    texts, reports = _texts_and_reports(path)
    assert texts == ["after http://after.example/"]
    assert reports == [("truncated", "the file ends inside a record's headers; not read")]


def test_content_codings_are_undone_stacked_up_to_four(tmp_path: Path) -> None:
    """gzip, x-gzip, deflate (zlib's and raw), br and zstd, stacked in the order applied; more
    than four is damage; a coding not known here leaves the body as it is."""
    brotli = pytest.importorskip("brotli")
    from backports import zstd

    page = b"see http://example.org/coded\n"
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    cases = {
        "gzip": gzip.compress(page),
        "x-gzip": gzip.compress(page),
        "deflate": zlib.compress(page),
        "Deflate": raw.compress(page) + raw.flush(),
        "br": brotli.compress(page),
        "zstd": zstd.compress(page),
        "gzip, br": brotli.compress(gzip.compress(page)),
        "br,zstd ,gzip, identity": gzip.compress(zstd.compress(brotli.compress(page))),
        "compress": page,
    }
    for coding, body in cases.items():
        texts, reports = _texts_and_reports(_warc_of(tmp_path, [*PLAIN, ("Content-Encoding", coding)], body))
        assert (texts[0], reports) == (page.decode(), []), coding
    five = gzip.compress(gzip.compress(gzip.compress(gzip.compress(gzip.compress(page)))))
    texts, reports = _texts_and_reports(
        _warc_of(tmp_path, [*PLAIN, ("Content-Encoding", "gzip, " * 4 + "gzip")], five)
    )
    assert [kind for kind, _ in reports] == ["corrupt"]
    assert "5 content codings" in reports[0][1]


def test_a_stacked_coding_bomb_is_stopped_by_the_ratio(tmp_path: Path) -> None:
    """Every layer's output is spent from the record's Budget: 1000 times its bytes in all."""
    bomb = gzip.compress(gzip.compress(b"http://example.org/a " + bytes(20_000_000), 9), 9)
    texts, reports = _texts_and_reports(
        _warc_of(tmp_path, [*PLAIN, ("Content-Encoding", "gzip, gzip")], bomb)
    )
    assert [kind for kind, _ in reports] == ["too-large"]
    assert texts[0].startswith("http://example.org/a")
    assert texts[1] == "see <URL:http://example.org/after>\n"


def test_without_brotli_a_br_page_is_unreadable_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    brotli = pytest.importorskip("brotli")
    path = _warc_of(tmp_path, [*PLAIN, ("Content-Encoding", "br")], brotli.compress(b"http://example.org/br"))
    monkeypatch.setitem(sys.modules, "brotli", None)
    texts, reports = _texts_and_reports(path)
    assert texts == ["", "see <URL:http://example.org/after>\n"]
    assert reports == [
        (
            "unreadable",
            "a brotli content coding, not undone without the brotli package: pip install 'urlsift[warc]'",
        )
    ]


def test_a_response_whose_target_is_not_lower_case_http_is_scanned(tmp_path: Path) -> None:
    """warcio reads HTTP headers only for a target URI that starts with "http:" or "https:" in
    lower case, and the response was skipped: one of type application/http is read as HTTP, any
    other as a resource (by its WARC Content-Type), one with no target too."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhttp://%s.example/"
    records = [
        _record(
            b"response", b"WARC-Target-URI: HTTP://E/\r\nContent-Type: application/http\r\n", http % b"upper"
        ),
        _record(b"response", b"Content-Type: application/http; msgtype=response\r\n", http % b"none"),
        _record(
            b"response",
            b"WARC-Target-URI: dns:e\r\nContent-Type: text/dns\r\n",
            b"e. TXT http://dns.example/",
        ),
    ]
    path = tmp_path / "targets.warc"
    path.write_bytes(b"".join(records))
    texts, reports = _texts_and_reports(path)
    assert texts == ["http://upper.example/", "http://none.example/", "e. TXT http://dns.example/"]
    assert reports == []


@pytest.mark.parametrize("charset", ["utf-16", "UTF-16LE", "utf-16be", "utf-32", "unicode", "x-user-defined"])
def test_a_meta_charset_of_utf16_or_utf32_reads_as_utf8(charset: str, tmp_path: Path) -> None:
    """The HTML standard's prescan reads a UTF-16 <meta> label as UTF-8 (the bytes that said it
    were ASCII) and x-user-defined as windows-1252; the page's URLs were lost."""
    page = f'<html><head><meta charset="{charset}"></head><body><a href="http://example.org/m">x</a>é'
    texts, reports = _texts_and_reports(
        _warc_of(
            tmp_path,
            [("Content-Type", "text/html")],
            page.encode("utf-8" if charset != "x-user-defined" else "cp1252"),
        )
    )
    assert "http://example.org/m" in texts[0]
    assert "é" in texts[0]
    assert reports == []


@pytest.mark.parametrize("where", ["http", "meta"])
@pytest.mark.parametrize("charset", ["punycode", "idna"])
def test_a_domain_label_codec_as_charset_is_refused_not_decoded(
    where: str, charset: str, tmp_path: Path
) -> None:
    """punycode decodes in quadratic time: a 2 MB page labelled with it hung the run. Neither it
    nor idna encodes a page's text; the page reads as UTF-8, reported."""
    page = "<html><head>" + (f'<meta charset="{charset}">' if where == "meta" else "")
    page += '</head><body><a href="http://example.org/p">x</a>' + "a-" * 50
    kind = "text/html" + (f"; charset={charset}" if where == "http" else "")
    texts, reports = _texts_and_reports(_warc_of(tmp_path, [("Content-Type", kind)], page.encode()))
    assert "http://example.org/p" in texts[0]
    assert texts[0].count("a-") == 50
    assert [kind for kind, _ in reports] == ["unknown-charset"]
    assert repr(charset) in reports[0][1]


_LINES = b"".join(b"http://example.org/%d\r\n" % k for k in range(1000))


def _urls_and_kinds(tmp_path: Path, headers: list[tuple[str, str]], body: bytes) -> tuple[int, list[str]]:
    """How many of _LINES' URLs the first record gives, and its reports' kinds."""
    texts, reports = _texts_and_reports(_warc_of(tmp_path, headers, body))
    assert texts[-1] == "see <URL:http://example.org/after>\n"
    found = set(re.findall(r"http://example\.org/\d+", texts[0])) if len(texts) == 2 else set()
    return len(found), [kind for kind, _ in reports]


def test_a_body_not_chunked_as_its_header_says_is_read_as_it_is(tmp_path: Path) -> None:
    """Issue 28: a page that was not chunked though its Transfer-Encoding said so was lost whole
    (its lines were taken for chunk-size lines until the end, or until a line "0"). As browsers
    and wget do, it is read as it is, said by a warning; damage after a first good chunk is
    corrupt, what came before kept; no chunk size is dropped unreported."""
    chunked = [*PLAIN, ("Transfer-Encoding", "chunked")]
    head = b"".join(_LINES.splitlines(True)[:42])
    first = b"%x\r\n%s\r\n" % (len(head), head)  # a first chunk, of 42 URLs
    cases = {
        "lines": (_LINES, (1000, ["malformed"])),
        "lines, the last 0": (_LINES + b"0\r\n", (1000, ["malformed"])),
        "lines, the first 0": (b"0\r\n" + _LINES, (1000, ["malformed"])),
        "the first line hex": (b"be\r\n" + _LINES, (1000, ["malformed"])),
        "a blank line after 0": (b"0\r\n\r\n" + _LINES, (1000, ["malformed"])),
        "a size 0x...": (b"0x%x\r\n%s\r\n0\r\n\r\n" % (len(_LINES), _LINES), (1000, ["malformed"])),
        "17 hex digits": (b"1%016x\r\n%s\r\n0\r\n\r\n" % (len(_LINES), _LINES), (1000, ["malformed"])),
        "no body at all": (b"", (0, [])),
        "leading zeros": (b"%020x\r\n%s\r\n0\r\n\r\n" % (len(_LINES), _LINES), (1000, [])),
        "extensions, a trailer": (
            b"".join(b'%x ; a=1;b="x"\r\n%s\r\n' % (len(line), line) for line in _LINES.splitlines(True))
            + b"0;last\r\nX-T: 1\r\nY: 2\r\n\r\n",
            (1000, []),
        ),
        "a size line of 0x... later": (first + b"0x10\r\n" + _LINES, (42, ["corrupt"])),
        "17 hex digits later": (first + b"1%016x\r\n" % 5 + _LINES, (42, ["corrupt"])),
        "bytes after the trailer": (_chunked(_LINES) + b"http://example.org/x", (1000, ["corrupt"])),
        "no trailer field after 0": (
            _chunked(_LINES)[:-2] + b"http://example.org/x\r\n",
            (1000, ["corrupt"]),
        ),
    }
    for name, (body, wanted) in cases.items():
        assert _urls_and_kinds(tmp_path, chunked, body) == wanted, name
    texts, reports = _texts_and_reports(_warc_of(tmp_path, chunked, _LINES))
    assert texts[0] == _LINES.decode()
    assert "not chunked" in reports[0][1]
    assert "http://example.org/1001" not in texts[0]


def test_gzip_members_follow_one_another_and_bytes_after_a_coding_are_reported(tmp_path: Path) -> None:
    """Issue 28: the second member of a gzip body (RFC 1952 2.2) was lost, and bytes after a
    coding's end dropped unreported. Zero bytes after a gzip member are padding (gzip(1));
    Zstandard frames, skippable ones among them, follow one another too."""
    from backports import zstd

    half = _LINES.index(b"\n", len(_LINES) // 2) + 1
    two = gzip.compress(_LINES[:half]) + gzip.compress(_LINES[half:])
    skippable = b"\x50\x2a\x4d\x18\x04\x00\x00\x00abcd"
    gzipped, zstandard = [*PLAIN, ("Content-Encoding", "gzip")], [*PLAIN, ("Content-Encoding", "zstd")]
    cases = [
        (gzipped, two, (1000, [])),
        (gzipped, two + bytes(100_000), (1000, [])),
        (gzipped, gzip.compress(_LINES) + b"garbage", (1000, ["corrupt"])),
        (gzipped, gzip.compress(_LINES[:half]) + b"\x1f garbage", (_LINES[:half].count(b"\n"), ["corrupt"])),
        (gzipped, two[:-10], (999, ["corrupt"])),  # the second member cut
        ([*PLAIN, ("Content-Encoding", "deflate")], zlib.compress(_LINES) + b"x", (1000, ["corrupt"])),
        (zstandard, zstd.compress(_LINES[:half]) + skippable + zstd.compress(_LINES[half:]), (1000, [])),
        (zstandard, zstd.compress(_LINES) + b"garbage", (1000, ["corrupt"])),
    ]
    for k, (headers, body, wanted) in enumerate(cases):
        assert _urls_and_kinds(tmp_path, headers, body) == wanted, k
    _, reports = _texts_and_reports(_warc_of(tmp_path, gzipped, gzip.compress(_LINES) + b"garbage"))
    assert "bytes after the end of the gzip content coding" in reports[0][1]
    # Members are spent from the record's Budget like one: a bomb of many is stopped.
    member = gzip.compress(bytes(1_000_000), 9)
    bombed = _items(_warc_of(tmp_path, gzipped, gzip.compress(_LINES) + member * 20), max_expand=5_000_000)[0]
    assert isinstance(bombed, MessageText)
    assert [defect.kind for defect in bombed.defects] == ["too-large"]
    assert bombed.texts[0].startswith(_LINES.decode())


def test_transfer_codings_are_undone_last_applied_first(tmp_path: Path) -> None:
    """Issue 28: ``Transfer-Encoding: gzip, chunked`` was unchunked and its gzip scanned as text.
    Transfer codings are undone after chunked, then the content codings; each field's lines are
    joined (RFC 9110 5.3); four codings stacked in all, past them damage."""
    brotli = pytest.importorskip("brotli")

    def transfer(value: str, *more: tuple[str, str]) -> list[tuple[str, str]]:
        return [*PLAIN, ("Transfer-Encoding", value), *more]

    cases = [
        (transfer("gzip, chunked"), _chunked(gzip.compress(_LINES)), (1000, [])),
        (transfer("gzip"), gzip.compress(_LINES), (1000, [])),
        (transfer("x-gzip,deflate , chunked"), _chunked(zlib.compress(gzip.compress(_LINES))), (1000, [])),
        (
            transfer("gzip, chunked", ("Content-Encoding", "br")),
            _chunked(gzip.compress(brotli.compress(_LINES))),
            (1000, []),
        ),
        (
            [*PLAIN, ("Content-Encoding", "gzip"), ("Transfer-Encoding", "gzip"), ("Content-Encoding", "br")],
            gzip.compress(brotli.compress(gzip.compress(_LINES))),
            (1000, []),
        ),
        (transfer("compress, chunked", ("Content-Encoding", "gzip")), _chunked(_LINES), (1000, [])),
        (
            transfer("gzip, gzip, chunked", ("Content-Encoding", "gzip, gzip, gzip")),
            _chunked(_LINES),
            (0, ["corrupt"]),
        ),
    ]
    for k, (headers, body, wanted) in enumerate(cases):
        assert _urls_and_kinds(tmp_path, headers, body) == wanted, k
    bomb = gzip.compress(gzip.compress(bytes(20_000_000), 9), 9)
    stacked = transfer("gzip, chunked", ("Content-Encoding", "gzip"))
    assert _urls_and_kinds(tmp_path, stacked, _chunked(bomb)) == (0, ["too-large"])


def test_of_two_content_types_the_first_is_taken(tmp_path: Path) -> None:
    """As warcio takes it for the WARC headers and ``mime`` for a mail's (warc._content)."""
    text, image = ("Content-Type", "text/plain"), ("Content-Type", "image/png")
    assert _urls_and_kinds(tmp_path, [text, image], _LINES) == (1000, [])
    assert _urls_and_kinds(tmp_path, [image, text], _LINES) == (0, [])
