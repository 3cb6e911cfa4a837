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
import zipfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

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

CORPORA = Path(__file__).parents[1] / "corpora"
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
    assert main(["--stats", "-q", str(path)]) == 0
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
    assert main(["--quiet", "--format", "parquet", "--output", str(tmp_path / "out"), str(path)]) == 0
    rows = pq.read_table(tmp_path / "out").to_pylist()
    assert len(rows) > 20
    header = path.read_bytes().split(b"WARC-Date: ")[2][:20].decode()  # the first conversion record's
    assert rows[0]["date"] == datetime.fromisoformat(header)
    assert rows[0]["date"].tzinfo is not None
