"""Relative links resolved (issue 30.7, D39): in an HTML mail part against its ``<base href>``, in a
WARC page against its ``<base href>`` or the record's WARC-Target-URI; given in a part of their
own, named ``<part> resolved``. Each input is built here."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from urlsift.cli import main

PAGE = (
    '<html><head>{base}</head><body><p>See <a href="intro.html">intro</a>, <a href="../api/#x">api</a>, '
    '<a href="#top">top</a>, <a href=" ">blank</a>, <a href="mailto:a@b.example">mail</a>,\n'
    '<img src="//cdn.example.net/logo.png"> and http://plain.example/ in the text.</p></body></html>\n'
)


def _rows(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str, int, int]]:
    assert main(["--no-progress", "--format", "jsonl", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    return [(row["url"], row["part"], row["line"], row["start"]) for row in rows]


def _mail(path: Path, base: str) -> Path:
    body = PAGE.format(base=base)
    path.write_text(
        "From: a@example.org\nSubject: s\nMessage-ID: <m@example.org>\nMIME-Version: 1.0\n"
        'Content-Type: multipart/alternative; boundary="b"\n\n--b\nContent-Type: text/plain\n\nplain\n'
        f"--b\nContent-Type: text/html; charset=utf-8\n\n{body}--b--\n"
    )
    return path


def test_an_html_mail_part_has_its_links_resolved_against_its_base(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _mail(tmp_path / "m.eml", '<base href="https://docs.example.org/guide/">')
    assert _rows(path, capsys) == [
        ("https://docs.example.org/guide/", "2 text/html", 2, 1),
        ("mailto:a@b.example", "2 text/html", 26, 108),
        ("http://plain.example/", "2 text/html", 34, 170),
        # The page's order; #top and a blank href point at the page itself; mailto: had a scheme.
        ("https://docs.example.org/guide/intro.html", "2 text/html resolved", 1, 0),
        ("https://docs.example.org/api/#x", "2 text/html resolved", 3, 43),
        ("https://cdn.example.net/logo.png", "2 text/html resolved", 5, 76),
    ]


def test_without_a_base_a_mail_part_resolves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for base in ("", '<base href="/relative/">', '<base href="file:///home/a/">'):
        rows = _rows(_mail(tmp_path / "m.eml", base), capsys)
        assert {part for _, part, _, _ in rows} == {"2 text/html"}


def _warc(path: Path, pages: list[tuple[str, str]]) -> Path:
    pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=False)
        for uri, html in pages:
            body = html.encode()
            status = StatusAndHeaders(
                "200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(body)))], "HTTP/1.1"
            )
            record = writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=status)
            writer.write_record(record)
    return path


def test_a_warc_page_resolves_against_its_uri_or_its_base(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _warc(
        tmp_path / "crawl.warc",
        [
            ("http://site.example/a/page.html", PAGE.format(base="")),
            ("https://site.example/b/c.html", PAGE.format(base='<base href="/docs/">')),
        ],
    )
    resolved = [(url, part) for url, part, _, _ in _rows(path, capsys) if part.endswith("resolved")]
    assert resolved == [
        ("http://site.example/a/intro.html", "text/html resolved"),
        ("http://site.example/api/#x", "text/html resolved"),
        ("http://cdn.example.net/logo.png", "text/html resolved"),
        ("https://site.example/docs/intro.html", "text/html resolved"),
        ("https://site.example/api/#x", "text/html resolved"),
        ("https://cdn.example.net/logo.png", "text/html resolved"),
    ]


def test_resolved_links_count_as_urls_and_their_part_as_a_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _warc(tmp_path / "one.warc", [("http://site.example/a/page.html", PAGE.format(base=""))])
    assert main(["--no-progress", "--stats", str(path)]) == 0
    err = capsys.readouterr().err
    assert "urlsift: parts               2 text parts scanned, and 0 headers" in err
    assert "urlsift: URLs                5 valid (5 printed), 0 candidates rejected" in err


def test_resolved_links_are_bounded_by_the_pages_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """200,000 ``<a href=x>`` (2.2 MB) under a base of 2,000 characters would resolve to 400 MB: they
    stop at twice the page's text (at least 1 MiB), and one report says how many were left."""
    base = "http://h.example/" + "d/" * 991
    path = tmp_path / "m.eml"
    links = "<a href=x>\n" * 200_000
    path.write_text(f'Content-Type: text/html\nMessage-ID: <b@x>\n\n<base href="{base}">{links}\n')
    status = main(["--no-progress", "--count", str(path)])
    out, err = capsys.readouterr()
    assert status == 2
    count = int(out.split(":")[-1])
    assert 1000 < count < 1500  # about 2 x 1.4 MB of text / 2,000 characters
    assert err == (
        f"urlsift: {path}#0: too-large: {200_000 - count + 1:,} relative links not resolved: "
        "the resolved ones passed 2 times the page's text (D39)\n"
    )


@pytest.mark.parametrize("base", ["http://a b/", "http://%41/", "http://[::1/", "http://a\x01b/"])
def test_a_base_with_a_blank_or_no_host_resolves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], base: str
) -> None:
    # "http://a b/" + "intro.html" made "http://a b/intro.html", read as the valid URL http://a.
    path = _mail(
        tmp_path / "m.eml", f'<base href="{base}"><a href="rel/path?q=1">r</a> <a href="x y.html">s</a>'
    )
    assert main(["--no-progress", "--invalid", "--format", "jsonl", str(path)]) in (0, 1)
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["url"] for row in rows if row["part"].endswith(" resolved")] == []


def test_a_link_with_a_blank_inside_is_not_resolved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _mail(tmp_path / "m.eml", '<base href="https://h.example/"><a href="x y.html">s</a>')
    urls = [url for url, part, _, _ in _rows(path, capsys) if part.endswith(" resolved")]
    assert "https://h.example/x" not in urls
    assert "https://h.example/guide/intro.html" not in urls
    assert "https://h.example/intro.html" in urls
