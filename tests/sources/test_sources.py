"""Mail sources: mbox splitting, MIME decoding, provenance, and what the command line makes of them."""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path

import pytest

import urlsift
from urlsift import _select
from urlsift._model import Provenance
from urlsift.cli import main
from urlsift.sources import sniff
from urlsift.sources.mbox import messages
from urlsift.sources.mime import read

CORPORA = Path(__file__).parents[2] / "corpora"
HARD_CASES = CORPORA / "mail" / "mail-url-hard-cases.mbox"
PIPERMAIL = CORPORA / "mail" / "r-devel-2000-May.mbox"


@pytest.mark.parametrize(("path", "count"), [(HARD_CASES, 33), (PIPERMAIL, 396)])
def test_every_message_of_a_real_mbox_is_found_at_its_offset(
    core: _select.Core, path: Path, count: int
) -> None:
    data = path.read_bytes()
    found = list(messages(io.BytesIO(data)))
    assert [message.number for message in found] == list(range(count))
    assert all(data[message.offset : message.offset + 5] == b"From " for message in found)
    # What lies between the separators is the messages, less one empty line each.
    assert all(message.data.split(b"\n", 1)[0].count(b":") for message in found)
    # size counts the bytes in the file: the ">" of each unquoted ">From " line included.
    assert all(len(m.data) <= m.size <= len(m.data) + m.data.count(b"From ") for m in found)
    assert all(message.complete for message in found)


def test_separators_quoting_and_false_from_lines(core: _select.Core) -> None:
    mbox = (
        b"From someone at example.org  Mon May  5 12:34:56 1997\n"
        b"Subject: one\n\nbody\n>From the start\n>>From here\n\n"
        b"From the start of time, this is no separator\n"
        b"From x@y Thu Jan  1 00:00:00 1970\n"  # not after an empty line: body
        b"\n"
        b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
        b"Subject: two\n\n<URL:http://two/>\n"
    )
    found = list(messages(io.BytesIO(mbox)))
    assert [(m.number, m.offset) for m in found] == [(0, 0), (1, mbox.index(b"From mboxrd"))]
    first = found[0].data
    assert b"\nFrom the start\n>From here\n" in first
    assert b"From the start of time" in first
    assert found[1].data == b"Subject: two\n\n<URL:http://two/>\n"


def test_sniffing() -> None:
    assert sniff(b"From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: a\n", "x") == "mbox"
    assert sniff(b"Path: a!b\nFrom: x@y\nNewsgroups: comp.x\n\nbody", "12904") == "eml"
    assert sniff(b"Return-Path: <a@b>\r\nReceived: by x\r\n\r\n", "x") == "eml"
    assert sniff(b"anything", "message.EML") == "eml"
    assert sniff(b"Note: this is text\nsee <URL:http://a/>\n", "notes.txt") == "text"


MESSAGE = (
    b"Message-ID: <1@example.org>\n"
    b"Date: Mon, 1 May 2000 12:48:53 +1200\n"
    b"Newsgroups: comp.infosystems.www\n"
    b"Subject: =?utf-8?q?see_http://subject.example/=C3=A9?=\n"
    b"List-Archive: <http://lists.example.org/\n archive/>\n"
    b"MIME-Version: 1.0\n"
    b'Content-Type: multipart/mixed; boundary="b"\n\n'
    b"--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
    b"A wrapper broken by a soft line break: <https://wiki.debian.org/accessibil=\nity>.\n"
    b"--b\nContent-Type: text/html; charset=x-made-up\n\n"
    b'<p>Go <a href="http://h/?a=1&amp;b=2">there</a> or to http://text.example/.</p>\n'
    b"--b\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: base64\n\n"
    + base64.encodebytes("Base64 text: <URL:ftp://b64.example/caf\xe9>\n".encode("latin-1"))
    + b"--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n"
    + base64.encodebytes(b"\x89PNG http://not.scanned/")
    + b"--b--\n"
)


def test_a_message_gives_its_headers_and_decoded_text_parts(core: str) -> None:
    found = read(MESSAGE, Provenance("m.eml", message=0, offset=0))
    urls = {part: urlsift.extract_urls(text) for part, text in zip(found.parts, found.texts, strict=True)}
    assert urls["Subject"] == []  # decoded to "see http://subject.example/é": not strict RFC 1738
    assert urls["List-Archive"] == ["http://lists.example.org/archive/"]
    assert urls["1 text/plain"] == ["https://wiki.debian.org/accessibility"]
    assert urls["2 text/html"] == ["http://h/?a=1&b=2", "http://text.example/"]
    assert "4 image/png" not in urls
    assert [(d.kind, d.provenance.part) for d in found.defects] == [("unknown-charset", "2 text/html")]
    assert found.parts[: found.headers] == ["Date", "Subject", "List-Archive"]  # those with a colon
    assert found.provenance == Provenance(
        "m.eml",
        None,
        0,
        0,
        "<1@example.org>",
        "Mon, 1 May 2000 12:48:53 +1200",
        "comp.infosystems.www",
        None,
    )
    assert "café" in found.texts[found.parts.index("3 text/plain")]


def test_jsonl_carries_every_field_and_the_provenance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--format", "jsonl", str(HARD_CASES)]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert list(rows[0]) == list(urlsift.rows.FIELDS)
    data = HARD_CASES.read_bytes()
    assert all(data[row["offset"] : row["offset"] + 5] == b"From " for row in rows)
    debian = [row for row in rows if row["url"] == "https://wiki.debian.org/accessibility"]
    assert [(row["message"], row["part"], row["wrapper"], row["line"]) for row in debian] == [
        (3, "0 text/plain", None, 12),
        (3, "0 text/plain", "<>", 12),
    ]
    assert debian[0]["message_id"] is not None
    assert debian[0]["date"] is not None
    assert "unknown-charset: unknown charset 'x-unknown'" in err
    # Quoted-printable soft line breaks inside wrappers are gone after decoding.
    urls = {row["url"] for row in rows}
    assert "https://www.freedomscientific.com/Training/Certification/" in urls
    assert not any("=" in url.split("?")[0].split("#")[0] for url in urls)


def test_csv_has_a_header_and_escapes_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "t.txt").write_bytes(b"see <URL:http://a/\x1b[31m> and <URL:http://ok/>\n")
    assert main(["--format", "csv", "--invalid", str(tmp_path / "t.txt")]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == list(urlsift.rows.FIELDS)
    assert rows[1][0] == "http://a/\\x1b[31m"
    assert rows[1][2] == "false"
    assert rows[2][0] == "http://ok/"


def test_the_text_format_escapes_rejected_candidates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "t.txt").write_bytes(b"<URL:http://a/\x07b>")
    assert main(["--invalid", str(tmp_path / "t.txt")]) == 1
    assert capsys.readouterr().out.startswith("http://a/\\x07b\t")
