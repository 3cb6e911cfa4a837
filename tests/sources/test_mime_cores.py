"""The message reader of the core (rust/core/src/mime.rs) against sources/mime.py, its oracle
(issue 32): every message of the corpora and the hostile inputs, and generated ones (folded
headers, encoded words, nested multiparts, damaged quoted-printable and base64, every byte in each
native charset, CRLF), give the same ``MessageText`` from both readers; what the core does not read
it hands back, and the Python reader reads it (``mime.read``)."""

from __future__ import annotations

import base64
import io
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import growth
import pytest
from hostile_cases import message_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import SEEDS, mutate
from scan import test_core_scan as core_scan
from sources.test_hostile_messages import BAD_DECODING, nested_multiparts

from urlsift import _select
from urlsift._model import MessageText, Provenance
from urlsift.sources import mime
from urlsift.sources.mbox import messages

pytestmark = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")

ROOT = Path(__file__).parents[2]
SHARED = ROOT.parent / "shared" / "corpora"  # beside the checkout, where it is there
WHERE = Provenance("m", None, 3, 10)
MAIL_FILES = sorted(
    path
    for root in (SHARED, ROOT / "corpora")
    for path in (*root.glob("mail/**/*"), *root.glob("news/**/*"))
    if path.is_file() and path.name != "SOURCES.md"
)


def _read(core: _select.Core, data: bytes) -> MessageText:
    with _select.using(core):
        return mime.read(data, WHERE, pipermail=True)


def _by_core(data: bytes) -> str | None:
    """Why the core left ``data`` to the Python reader; None when it read it."""
    assert _select.NATIVE is not None
    found = mime._native_reader(_select.NATIVE).read(data)
    return found if isinstance(found, str) else None


def _assert_same(data: bytes) -> None:
    assert _read("rust", data) == _read("python", data), data[:300]


def _file_messages(path: Path) -> list[bytes]:
    data = path.read_bytes()
    if path.suffix == ".mbox":
        return [message.data for message in messages(io.BytesIO(data))]
    return [data]  # a news article, a spool file: one message


def test_the_corpora_include_mail_and_news() -> None:
    assert any(path.suffix == ".mbox" for path in MAIL_FILES)
    assert any(path.suffix != ".mbox" for path in MAIL_FILES)


@pytest.mark.parametrize("path", MAIL_FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_message_of_the_corpora_reads_the_same_by_both_cores(path: Path) -> None:
    for data in _file_messages(path):
        _assert_same(data)


def test_most_messages_of_the_corpora_are_read_by_the_core() -> None:
    """The Python reader is the exception (charsets beyond the four native ones, in a part or a
    word; a page with a ``<base href>`` and relative links)."""
    why = Counter(_by_core(data) for path in MAIL_FILES for data in _file_messages(path))
    read = why.pop(None)
    assert read > (99 if SHARED.is_dir() else 9) * sum(why.values()), why
    assert set(why) <= {"charset", "word-charset", "html-base"}, why  # pages are read, words decoded


@pytest.mark.parametrize("data", [*BAD_DECODING, *SEEDS], ids=range(len(BAD_DECODING) + len(SEEDS)))
def test_hostile_and_seed_messages_read_the_same_by_both_cores(data: bytes) -> None:
    _assert_same(data)


def _hostile_cases() -> dict[str, Any]:
    return message_cases()


# bench/hostile_cases/messages.py's cases of a few MB (the others are GB-scale or not mbox).
HOSTILE = [
    "mbox multiparts nested 10,000 deep",
    "mbox 3 MB of 60 KB From lines of times",
    "html 100 KB of '<a '",
    "subject 240 KB of '=?a?q?x '",
    "mbox 20,000 messages of bad charsets and words",
    "mbox 20,000 messages of RFC 2231 charsets with a NUL",
]


@pytest.mark.parametrize("case", HOSTILE)
def test_every_message_of_the_hostile_cases_reads_the_same_by_both_cores(case: str, tmp_path: Path) -> None:
    args, _ = _hostile_cases()[case](tmp_path)
    mboxes = [Path(arg) for arg in args if arg.endswith(".mbox")]
    assert mboxes
    for path in mboxes:
        for data in _file_messages(path)[:600]:  # (the 20,000 messages repeat a few shapes)
            _assert_same(data)


@pytest.mark.parametrize("depth", [1, mime.MAX_DEPTH - 1, mime.MAX_DEPTH, mime.MAX_DEPTH + 36])
def test_nesting_around_the_limit_reads_the_same_by_both_cores(depth: int) -> None:
    data = nested_multiparts(depth, b"http://deep.example/\n")
    assert _by_core(data) is None
    _assert_same(data)
    deep = [d for d in _read("rust", data).defects if "deeper" in d.detail]
    assert len(deep) == (depth > mime.MAX_DEPTH)


def test_what_the_core_leaves_to_python_it_names() -> None:
    assert _by_core(b"Content-Type: text/html\n\n<a href='http://a.example/'>") is None
    assert _by_core(b"Content-Type: text/html\n\n<base href='http://a.example/'><a href=x>") == "html-base"
    assert _by_core(b"Content-Type: text/plain; charset=koi8-r\n\n\xc1") == "charset"
    assert _by_core(b"Content-Type: text/plain; name*=utf-8''x\n\nx") == "rfc2231"
    assert _by_core("Content-Type: text/plain; x=\u00e9\n\nx".encode()) == "non-ascii-type"
    assert _by_core(b"Subject: =?koi8-r?q?=C1?= http://a.example/\n\nx") == "word-charset"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.composite(lambda draw: mutate(draw, draw(st.sampled_from(SEEDS))))())
def test_mutated_messages_read_the_same_by_both_cores(data: bytes) -> None:
    _assert_same(data)


# Generated messages: each piece a choice among the cases the reader tells apart.
_WORDS = [
    "see",
    "http://a.example/x",
    ":",
    "www.",
    "WwW.b.example",
    "=?utf-8?q?http=3A//q.example/?=",
    "=?iso-8859-1?b?aHR0cDovL2IuZXhhbXBsZS/p?=",
    "=?x-unknown?q?a?=",
    "=?utf-8?b?a?=",
    "=?",
    "?=",
    "caf\u00e9",
    "\ufffd",
    " ",
    "\t",
]
_FOLDS = [b"\n ", b"\r\n\t", b"\n\t"]
_NAMES = [
    "Subject",
    "List-Archive",
    "Received",
    "X-Url",
    "Message-ID",
    "Date",
    "Newsgroups",
    "DKIM-Signature",
]
_CHARSETS = [
    None,
    "utf-8",
    "UTF-8",
    "utf8",
    '"us-ascii"',
    "ascii",
    "iso-8859-1",
    "Latin1",
    "latin-1",
    "",
    "cp1252",
]
_ENCODINGS = [None, "7bit", "8bit", "quoted-printable", "Quoted-Printable ", "base64", " BASE64"]
_QP_PIECES = [
    b"=",
    b"=3D",
    b"=3a",
    b"=\n",
    b"=\r\n",
    b"=\r",
    b"==",
    b"=G1",
    b"=A",
    b"\n",
    b"\r\n",
    b"a",
    b" ",
]


@st.composite
def _header(draw: st.DrawFn, newline: bytes) -> bytes:
    name = draw(st.sampled_from(_NAMES)).encode()
    words = draw(st.lists(st.sampled_from(_WORDS), max_size=6))
    value = b""
    for word in words:
        value += draw(st.sampled_from(_FOLDS)) if draw(st.booleans()) and value else b""
        value += word.encode(draw(st.sampled_from(["utf-8", "latin-1"])), "replace")
    return name + b":" + draw(st.sampled_from([b" ", b"", b"\t "])) + value + newline


@st.composite
def _body(draw: st.DrawFn, encoding: str | None) -> bytes:
    raw = draw(st.binary(max_size=40)) if draw(st.booleans()) else bytes(range(256))
    how = (encoding or "").strip().lower()
    if how == "base64":
        encoded = base64.encodebytes(raw)
        cut = draw(st.integers(0, len(encoded)))
        damage = draw(st.sampled_from([b"", b"=", b"==", b"!", b"-_", b"A", b"AB=C", b"\r\n"]))
        return encoded[:cut] + damage + encoded[cut:] if draw(st.booleans()) else encoded[:cut]
    if how == "quoted-printable":
        return b"".join(draw(st.lists(st.sampled_from([*_QP_PIECES, raw[:8]]), max_size=20)))
    return raw


@st.composite
def _entity(draw: st.DrawFn, depth: int, newline: bytes) -> bytes:
    headers = b"".join(draw(st.lists(_header(newline), max_size=3)))
    if depth > 0 and draw(st.booleans()):
        boundary = draw(st.text("ab'()+_,-./:=? ", min_size=1, max_size=8))
        quoted = f'"{boundary}"' if draw(st.booleans()) else boundary.replace(" ", "_")
        subtype = draw(st.sampled_from(["mixed", "alternative", "digest"]))
        headers += f"Content-Type: multipart/{subtype}; boundary={quoted}".encode() + newline
        delimiter = b"--" + quoted.strip('"').encode()
        parts = draw(st.lists(_entity(depth - 1, newline), max_size=3))
        body = draw(st.sampled_from([b"", b"preamble" + newline]))
        for part in parts:
            body += delimiter + draw(st.sampled_from([b"", b" \t"])) + newline + part + newline
        body += draw(st.sampled_from([delimiter + b"--" + newline, b"", delimiter + newline]))
        return headers + newline + body
    kinds = ["text/plain", "text/x-y", "TEXT/Plain", "image/png"] + ["message/rfc822"] * (depth > 0)
    kind = draw(st.sampled_from(kinds))
    if kind == "message/rfc822":
        return (
            headers + b"Content-Type: message/rfc822" + newline + newline + draw(_entity(depth - 1, newline))
        )
    charset = draw(st.sampled_from(_CHARSETS))
    flowed = draw(st.sampled_from(["", "; format=flowed", '; format="Flowed"; delsp=yes', "; DelSp=YES"]))
    content = f"Content-Type: {kind}" + (f"; charset={charset}" if charset is not None else "") + flowed
    encoding = draw(st.sampled_from(_ENCODINGS))
    headers += content.encode() + newline
    if encoding is not None:
        headers += f"Content-Transfer-Encoding: {encoding}".encode() + newline
    return headers + newline + draw(_body(encoding))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([b"\n", b"\r\n"]).flatmap(lambda newline: _entity(3, newline)))
def test_generated_messages_are_read_by_the_core_as_python_reads_them(data: bytes) -> None:
    # No HTML, the native charsets only (but for the words of an unknown one: Python decodes them).
    assert _by_core(data) == ("word-charset" if _by_core(data) and b"x-unknown" in data else None)
    _assert_same(data)


@pytest.mark.parametrize("charset", ["utf-8", "us-ascii", "iso-8859-1", "windows-1252"])
@pytest.mark.parametrize("encoding", ["8bit", "quoted-printable", "base64"])
def test_every_byte_value_decodes_as_pythons_codecs_decode_it(charset: str, encoding: str) -> None:
    raw = bytes(range(256)) + b"\xef\xbf\xbd\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82" + bytes(range(255, -1, -1))
    body = {
        "8bit": raw,
        "quoted-printable": b"".join(b"=%02X" % b for b in raw),
        "base64": base64.b64encode(raw),
    }
    data = f"Content-Type: text/plain; charset={charset}\nContent-Transfer-Encoding: {encoding}\n\n".encode()
    found = _read("rust", data + body[encoding])
    assert found == _read("python", data + body[encoding])
    codec = {"us-ascii": "utf-8"}.get(charset, charset)
    assert found.texts[-1] == raw.decode(codec, "replace")
    assert bool(found.defects) == (charset != "iso-8859-1")


# Growth: 10x the message, at most 15x the instructions of the core (callgrind, as the scanner's).
SHAPES: dict[str, Callable[[int], bytes]] = {
    "folded headers": lambda n: (
        b"".join(b"X-H%d: a\n b\n\tc http://x.example/\n" % k for k in range(n)) + b"\nx\n"
    ),
    "folded headers, then a line that is none": lambda n: (
        b"".join(b"X-H%d : a\n b\n" % k for k in range(n)) + b"no header\n\nx\n"
    ),
    "many parts": lambda n: (
        b"Content-Type: multipart/mixed; boundary=b\n\n"
        + b"--b\nContent-Type: text/plain\n\nhttp://x.example/\n" * n
        + b"--b--\n"
    ),
    "long qp lines": lambda n: b"Content-Transfer-Encoding: quoted-printable\n\n" + b"a=3D=\r\nb" * (40 * n),
    "nested": lambda n: nested_multiparts(60, b"lorem ipsum=\n" * (20 * n)),
    "a page of unclosed tags": lambda n: (
        b"Content-Type: text/html\n\n<p>see <a href='http://h.example/'>it</a>" + b"<a " * (1000 * n)
    ),
    "a page of references, links and scripts": lambda n: (
        b"Content-Type: text/html\n\n"
        + b"<p>a &amp; &notit; &#x41; &#99999<a href=x title='&lt;'>y</a><script>1</scrIpt ><!-- c -->"
        * (20 * n)
        + b"<style>&amp; </styl"
    ),
    "encoded words, some unclosed": lambda n: (
        b"Subject: " + b"=?utf-8?q?a=3A?= =?latin-1?b?6Q?=\n x =?a" * (20 * n) + b"\n\nx\n"
    ),
}


@pytest.mark.skipif(core_scan.VALGRIND is None, reason="valgrind is missing: instructions are not counted")
@pytest.mark.skipif(core_scan.CARGO is None, reason="cargo is missing: the core's example cannot be built")
def test_the_core_readers_instructions_grow_linearly(tmp_path: Path) -> None:
    assert core_scan.VALGRIND is not None
    assert core_scan.CARGO is not None
    files = []
    for k, shape in enumerate(SHAPES.values()):
        for size in (100, 1000):
            files.append(tmp_path / f"{k}-{size}.eml")
            files[-1].write_bytes(shape(size))
    example = core_scan._example(core_scan.CARGO, "read_messages")
    said = subprocess.run([example, *files], capture_output=True, text=True, timeout=300, check=True)
    assert all(line.isdigit() for line in said.stdout.split())  # each was read by the core
    counts = growth.instructions([example, *files], "read_one", len(files), tmp_path)
    growth.assert_instructions_linear(list(SHAPES), counts, core_scan.INSTRUCTION_LIMIT, 10_000)


_TYPE_PIECES = [";", " ", "\t", "\n ", "=", '"', "\\", "\\\n", "charset", "CharSet", "format", "flowed"]
_TYPE_PIECES += ["delsp", "yes", "latin-1", "boundary", "b", "x", "*", "text/plain", "multipart/mixed", "/"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TYPE_PIECES), max_size=16).map("".join))
def test_content_type_parameters_read_as_the_python_reader_reads_them(value: str) -> None:
    """Parameters are stepped through by hand in the core (``mime._PARAMETER``'s findall)."""
    body = b"--b\n\ncaf\xe9 \nhttp://a.example/\n--b--\n"
    _assert_same(b"Content-Type: " + value.encode() + b"\n\n" + body)
