"""The light MIME reader (sources/mime.py) against the stdlib parser it replaced (stdlib_mime.py):
the same texts, by the same part names, give the same URLs, on real mail and on generated MIME."""

from __future__ import annotations

import io
import re
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path
from typing import Any

import pytest
import stdlib_mime
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import urlsift
from urlsift._model import Defect, DefectKind, Provenance
from urlsift.sources import mime
from urlsift.sources.mbox import messages

CORPORA = Path(__file__).parents[2] / "corpora"
MBOXES = sorted(CORPORA.glob("*/*.mbox"))


def _by_oracle(data: bytes) -> tuple[list[tuple[Any, ...]], list[tuple[DefectKind, str | None, str]]]:
    units = list(stdlib_mime.units(data, Provenance("m")))
    texts = [(unit.provenance.part, unit.text) for unit in units if not isinstance(unit, Defect)]
    defects = [(unit.kind, unit.provenance.part, unit.detail) for unit in units if isinstance(unit, Defect)]
    return _found(texts), defects


def _by_reader(data: bytes) -> tuple[list[tuple[Any, ...]], list[tuple[DefectKind, str | None, str]]]:
    found = mime.read(data, Provenance("m"))
    defects = [(defect.kind, defect.provenance.part, defect.detail) for defect in found.defects]
    return _found(list(zip(found.parts, found.texts, strict=True))), defects


def _found(texts: list[tuple[str | None, str]]) -> list[tuple[Any, ...]]:
    return [
        (part, m.url, m.valid, m.line, m.column, m.span)
        for part, text in texts
        for m in urlsift.extract(text, invalid=True)
    ]


@pytest.mark.parametrize("path", MBOXES, ids=lambda path: path.name)
def test_every_message_of_the_corpora_reads_as_the_stdlib_reads_it(path: Path, core: str) -> None:
    for message in messages(io.BytesIO(path.read_bytes())):
        assert _by_reader(message.data) == _by_oracle(message.data), message.number


def test_trace_and_signature_headers_are_not_scanned_but_spf_explanations_are(core: str) -> None:
    data = (
        b"Received: from a.example (<http://a.example/received>) by b.example; 1 Jan 2001 00:00:00\n"
        b"DKIM-Signature: v=1; d=a.example; h=From:To; b=<http://a.example/dkim>\n"
        b"Received-SPF: fail (see http://spf.example/why?id=1)\n"
        b"List-Post: <mailto:list@a.example>\n"
        b"\n"
        b"body\n"
    )
    found = mime.read(data, Provenance("m"))
    assert found.parts == ["Received-SPF", "List-Post", "0 text/plain"]
    assert [m.url for m in urlsift.extract("\n".join(found.texts))] == [
        "http://spf.example/why?id=1",
        "mailto:list@a.example",
    ]


def test_a_header_naming_a_www_host_with_no_colon_is_scanned(core: str) -> None:
    """The modern profile finds "www." hosts with no scheme: a header value that holds one and no
    colon is kept for scanning, as one with a colon is; one with neither is not."""
    data = (
        b"Organization: see WWW.Example.org\n"
        b"X-Encoded: =?us-ascii?q?www.example.net?=\n"
        b"Subject: nothing here\n"
        b"\n"
        b"body\n"
    )
    found = mime.read(data, Provenance("m"))
    assert found.parts == ["Organization", "X-Encoded", "0 text/plain"]
    urls = [m.url for m in urlsift.extract("\n".join(found.texts), profile="modern")]
    assert urls == ["WWW.Example.org", "www.example.net"]


def test_an_html_link_inside_angle_brackets_is_not_glued_to_its_text(core: str) -> None:
    # usrp-users quoting: "Jason <" + <a href="mailto:jason@x">jason@x</a> + "> wrote:"
    page = 'On Tue Jason &lt;<a href="mailto:jason@g.example">jason@g.example</a>&gt; wrote:'
    data = b"Content-Type: text/html\n\n" + page.encode()
    (text,) = mime.read(data, Provenance("m")).texts
    assert [m.url for m in urlsift.extract(text, invalid=True)] == ["mailto:jason@g.example"]


text = st.lists(
    st.sampled_from(
        [
            "see <URL:http://a.example/x>",
            "<https://b.example/very-\n long>",
            "http://c.example/",
            "mailto:someone@d.example",
            "caf\u00e9",
            "=",
            "\n",
            " ",
            "> quoted",
            "--b1",
            "\u00a0",
        ]
    ),
    max_size=12,
).map("".join)


def _text(body: str, subtype: str, charset: str) -> MIMEText:
    return MIMEText(body, subtype, charset if body.isascii() else "utf-8")


leaf = st.builds(
    _text,
    text,
    st.sampled_from(["plain", "html"]),
    st.sampled_from(["utf-8", "iso-8859-1", "us-ascii"]),
)


def _multipart(parts: list[Any], subtype: str) -> MIMEMultipart:
    container = MIMEMultipart(subtype)
    for part in parts:
        container.attach(part)
    return container


entity = st.recursive(
    leaf,
    lambda inner: st.builds(
        _multipart, st.lists(inner, min_size=1, max_size=3), st.sampled_from(["mixed", "alternative"])
    ),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entity, text)
def test_generated_mime_reads_as_the_stdlib_reads_it(core: str, message: Any, subject: str) -> None:
    message["Subject"] = subject.replace("\n", " ")
    message["List-Archive"] = "<http://lists.example/archive/>"
    try:
        data = message.as_bytes()
    except (UnicodeError, ValueError):  # us-ascii bodies with non-ASCII text: not a message
        return
    assert _by_reader(data) == _by_oracle(data)


def _first_empty_line(data: bytes) -> tuple[int, int] | None:
    """The oracle of ``mime._blank_line``, by substring searches: the first "\\n\\n", unless a
    "\\n\\r\\n" lies wholly before it."""
    lf = data.find(b"\n\n")
    crlf = data.find(b"\n\r\n", 0, len(data) if lf < 0 else lf)
    if crlf >= 0:
        return crlf + 1, crlf + 3
    return None if lf < 0 else (lf + 1, lf + 2)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([b"\n", b"\r", b"a", b"\r\n"]), max_size=12), st.integers(0, 3))
def test_the_header_block_ends_at_the_first_empty_line(pieces: list[bytes], start: int) -> None:
    data = b"".join(pieces)
    start = min(start, len(data))
    expected = _first_empty_line(data[start:])
    found = mime._blank_line(data, start, len(data))
    assert found == (None if expected is None else (expected[0] + start, expected[1] + start)), data


@pytest.mark.parametrize("pad", [0, mime.MAX_CACHED_TYPE])
def test_a_content_type_reads_the_same_again_and_a_long_one_is_not_kept(pad: int, core: str) -> None:
    value = 'text/plain; charset="iso-8859-1"; format=flowed; x-pad=' + "p" * pad
    data = f"Content-Type: {value}\n\ncaf\xe9 \nsoft\n".encode("latin-1")
    mime._cached_type.cache_clear()
    first, again = mime.read(data, Provenance("m")), mime.read(data, Provenance("m"))
    assert first.texts == again.texts == ["caf\xe9 \nsoft\n"]
    assert first.flowed == again.flowed == {0: False}
    assert mime._cached_type.cache_info().currsize == (pad == 0 and core == "python")


name_characters = st.sampled_from(
    ["a", "Z", "-", "!", "~", "9", ";", " ", "\t", "\n", "\r", "\x7f", "\xe9", "\x00"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(name_characters, max_size=4).map("".join), max_size=4))
def test_header_names_are_checked_as_rfc_5322_writes_them(names: list[str]) -> None:
    """``_is_names`` says whether names (cut at their colons, so holding none) are ``!`` to ``~``."""
    expected = all(re.fullmatch(r"[!-9;-~]*", name) for name in names)
    assert mime._is_names(":".join(names)) == expected


def test_an_empty_content_type_in_a_digest_is_text_plain_as_the_stdlib_reads_it(core: str) -> None:
    data = (
        b'Content-Type: multipart/digest; boundary="b"\n\n--b\nContent-Type:\n\nsee http://a.example/\n'
        b"--b\n\nSubject: inner\n\nsee http://b.example/\n--b--\n"
    )
    assert mime.read(data, Provenance("m")).parts == ["1 text/plain", "3 text/plain"]
    assert _by_reader(data) == _by_oracle(data)
