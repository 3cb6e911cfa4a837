"""Growth tests for the message parsers (issue 17): 10x the input takes about 10x the time, on the
inputs that made them quadratic. The ``From `` separator, RFC 2047 words, HTML pages and MIME
nesting; each step of sizes is 10x (``growth.assert_linear``)."""

from __future__ import annotations

import io

import growth
from sources.test_hostile_messages import nested_multiparts

from urlsift._model import Provenance
from urlsift.flowed import unflow
from urlsift.sources import mime, page
from urlsift.sources.mbox import is_separator, messages

SIZES = (1, 10, 100)


@growth.timing
def test_a_from_line_of_times_without_a_year_is_tested_in_linear_time() -> None:
    # Up to 4 KB: past MAX_SEPARATOR_BYTES a line is no separator, whatever it holds.
    lines = [b"From x " + b"12:34 " * (6 * size) for size in SIZES]
    growth.assert_linear(is_separator, lines, "From line of times")


@growth.timing
def test_an_mbox_of_from_lines_after_empty_lines_is_read_in_linear_time() -> None:
    body = b"\nFrom x " + b"12:34 " * 500 + b"\n"
    files = [b"From a@b Thu Jan  1 00:00:00 1970\n\n" + body * (20 * size) for size in SIZES]
    growth.assert_linear(lambda data: list(messages(io.BytesIO(data))), files, "mbox of From lines")


@growth.timing
def test_unclosed_encoded_words_are_decoded_in_linear_time() -> None:
    values = [f"=?a?q?x =?utf-8?q?{'x' * 10} " * (300 * size) for size in SIZES]
    growth.assert_linear(mime._header_text, values, "unclosed encoded words")


@growth.timing
def test_closed_encoded_words_are_decoded_in_linear_time() -> None:
    values = ["=?utf-8?q?a=C3=A9?= " * (300 * size) for size in SIZES]  # one run of one charset
    growth.assert_linear(mime._header_text, values, "encoded words")


@growth.timing
def test_html_of_unclosed_tags_is_read_in_linear_time() -> None:
    for unit in ["<a ", '<a href="', "<a b=c ", "<!--", "< "]:
        growth.assert_linear(page.text, [unit * (1000 * size) for size in SIZES], repr(unit))


@growth.timing
def test_nested_multiparts_are_read_in_linear_time(core: str) -> None:
    messages_ = [nested_multiparts(60, b"lorem ipsum dolor sit amet\n" * (200 * size)) for size in SIZES]
    growth.assert_linear(lambda data: mime.read(data, Provenance("m")), messages_, "nested 60 deep")


@growth.timing
def test_many_parts_are_read_in_linear_time(core: str) -> None:
    part = b"--b\nContent-Type: text/plain\n\nhttp://x.example/\n"
    messages_ = [
        b"Content-Type: multipart/mixed; boundary=b\n\n" + part * (100 * size) + b"--b--\n" for size in SIZES
    ]
    growth.assert_linear(lambda data: mime.read(data, Provenance("m")), messages_, "many parts")


@growth.timing
def test_parts_of_as_many_content_types_are_read_in_linear_time(core: str) -> None:
    # Each part's value new to the cache of parsed values (and every other one too long to be kept).
    pad = "p" * mime.MAX_CACHED_TYPE
    messages_ = [
        b"Content-Type: multipart/mixed; boundary=b\n\n"
        + b"".join(
            f"--b\nContent-Type: text/plain; x-n={n}{pad * (n % 2)}\n\nhttp://x.example/\n".encode()
            for n in range(100 * size)
        )
        + b"--b--\n"
        for size in SIZES
    ]
    growth.assert_linear(lambda data: mime.read(data, Provenance("m")), messages_, "many content types")


@growth.timing
def test_flowed_text_is_unflowed_in_linear_time() -> None:
    # Soft-broken lines at one depth (all joined), at alternating depths (none), and deep quotes.
    for line in ["word word \n", "> x \n>> y \n", ">" * 40 + " x \r\n", " \n"]:
        texts = [line * (300 * size) for size in SIZES]
        growth.assert_linear(lambda text: unflow(text, delsp=True), texts, repr(line))
