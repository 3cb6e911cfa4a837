"""RFC 2047 words decoded by the core (rust/core/src/mime/words.rs) against ``mime._header_decoded``,
its oracle (issue 32): every header value of the corpora that holds ``=?``, and hypothesis-made ones
(valid and broken words: padding, ``?=`` inside, charsets unknown or in odd case, plain text and
blanks between them, folded), decode to the same text with the same problem; a word in a charset
the core does not decode leaves the value (and its message) to Python."""

from __future__ import annotations

import base64
import email.errors
import io
import quopri
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sources.test_mime_cores import MAIL_FILES, _assert_same, _by_core

from urlsift import _select
from urlsift.sources import mime
from urlsift.sources.mbox import messages

pytestmark = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")

# The names the core decodes (its codecs: UTF-8, US-ASCII, Latin-1, Windows-1252), in any case.
NATIVE = {"utf-8", "utf8", "utf_8", "us-ascii", "ascii", "iso-8859-1", "iso8859-1", "iso_8859-1"}
NATIVE |= {"latin-1", "latin_1", "latin1", "windows-1252", "cp1252"}


def _core(value: str) -> tuple[str, str | None] | None:
    assert _select.NATIVE is not None
    found: tuple[str, str | None] | None = _select.NATIVE.header_decoded(value)
    return found


def _header_values() -> list[str]:
    """Every header value of the corpora's messages with ``=?`` in it, as ``mime.read`` takes it."""
    values = []
    for path in MAIL_FILES:
        data = path.read_bytes()
        found = [m.data for m in messages(io.BytesIO(data))] if path.suffix == ".mbox" else [data]
        for message in found:
            entity = mime._entity(message)
            values += [v.lstrip(" \t").rstrip("\r") for _, _, v in entity.headers if "=?" in v]
    return values


def test_every_header_of_the_corpora_decodes_as_python_decodes_it() -> None:
    values = _header_values()
    native = [value for value in values if _core(value) is not None]
    assert len(native) > 0.9 * len(values) > 200, (len(native), len(values))
    assert sum(_core(value) != (value, None) for value in native) > 200  # words decoded
    for value in native:
        assert _core(value) == mime._header_decoded(value), value


def _q(data: bytes) -> str:
    return quopri.encodestring(data, header=True).decode("ascii").replace("=\n", "")


# An encoded word's text: of bytes well or badly encoded, or pieces that are no encoding at all.
_TEXTS = st.one_of(
    st.text(max_size=6).map(lambda t: _q(t.encode("utf-8"))),
    st.binary(max_size=6).map(_q),
    st.binary(max_size=6).map(lambda b: base64.b64encode(b).decode("ascii")),
    st.binary(max_size=6).map(lambda b: base64.b64encode(b).decode("ascii").rstrip("=")),
    st.lists(
        st.sampled_from(["a", "=", "==", "?", "_", " ", "=4", "=C3=A9", "=E9", "\u00e9", "\u20ac", "QQ"])
    ).map("".join),
)
_CHARSETS = st.sampled_from(
    [
        *("utf-8", "UTF-8", "Utf8", "us-ascii", "ASCII", "iso-8859-1", "Latin-1", "latin_1", "cp1252"),
        *("windows-1252", "koi8-r", "", "x-unknown", "utf-8*en", "hex", "\u212aoi8-r", "us-ascii "),
    ]
)


_WORDS = st.builds(
    lambda charset, encoding, text: f"=?{charset}?{encoding}?{text}?=",
    _CHARSETS,
    st.sampled_from("qQbB"),
    _TEXTS,
)
_PLAIN = st.sampled_from(
    [
        *("", " ", "  ", "\t", "x", "see", "http://a.example/", "\u00e9", "\u20ac", "\U0001f600", "(", ")"),
        *("\\", "=?", "?=", "=?utf-8?", "=?x?q?", "\n ", "\r\n\t", "\n", "\r", "\u2028", "\x1c", "www.a"),
    ]
)
_VALUES = st.lists(st.tuples(st.one_of(st.just(""), _WORDS), _PLAIN), min_size=1, max_size=6).map(
    lambda pieces: "".join(word + plain for word, plain in pieces)
)


def _charsets(value: str) -> set[str]:
    """The charsets of the words Python finds in ``value`` (none where a B word does not decode: the
    value stays as written)."""
    try:
        return {charset for _, charset in mime._header_words(value) if charset is not None}
    except email.errors.HeaderParseError:
        return set()


@settings(max_examples=500, deadline=None)
@given(_VALUES)
def test_made_values_decode_as_python_decodes_them(value: str) -> None:
    found = _core(value)
    if _charsets(value) <= NATIVE:
        assert found is not None, value  # the core decodes every word in a charset it knows
    if found is not None:
        assert found == mime._header_decoded(value), value


@settings(max_examples=200, deadline=None)
@given(_VALUES)
def test_messages_with_made_words_read_the_same_by_both_cores(value: str) -> None:
    folded = value.replace("\r", "").replace("\n", "\n ").encode("utf-8")
    data = b"Subject: a: " + folded + b"\nMessage-ID: " + folded + b"\nDate: " + folded + b"\n\nbody\n"
    _assert_same(data)


def test_problems_and_fallbacks_as_python_says_them() -> None:
    assert _core("x =?utf-8?b?a?= y") == ("x =?utf-8?b?a?= y", mime._header_decoded("x =?utf-8?b?a?= y")[1])
    assert _core("caf\u00e9 =?utf-8?q?x?=") == mime._header_decoded("caf\u00e9 =?utf-8?q?x?=")
    assert _core("=?koi8-r?q?x?=") is None
    data = b"Subject: =?koi8-r?b?wc0=?= http://a.example/\n\nbody\n"
    assert _by_core(data) == "word-charset"
    assert _by_core(data.replace(b"koi8-r", b"utf-8")) is None
    _assert_same(data)


def test_a_subject_of_many_words_reads_the_same_by_both_cores(tmp_path: Path) -> None:
    words = "=?utf-8?q?a=3A?= x =?a" * 20_000 + " =?utf-8?b?aGk?=\n =?latin-1?q?=E9?="
    data = f"Subject: {words}\n\nbody\n".encode()
    assert _by_core(data) is None
    _assert_same(data)
