"""extract_stream: the same matches as extract on the whole text, whatever the chunk size."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scan.test_extract import APPENDIX, CASES, NOT_URLS

import urlsift
from urlsift.extract import Extraction
from urlsift.scanner import LOOKBEHIND, ScanProgress

pytestmark = pytest.mark.usefixtures("core")  # issue 31: each test on both cores

WWW_TEXT = "see www.example.com/x. and http://例子.中国/~u/ or (WWW.A.B) "
pieces_of_text = st.sampled_from(
    [APPENDIX, *(text for text, _ in CASES), *NOT_URLS, "\n", "\n\n", " ", "é", "x" * 5000, "a-\n", WWW_TEXT]
)
# Long enough for many windows (a window reads LOOKAHEAD, about 6,400 characters, past its end).
long_texts = st.lists(pieces_of_text, min_size=1, max_size=60).map("".join)


def _same(text: str, **options: object) -> list[urlsift.Match]:
    return list(urlsift.extract(text, **options))  # type: ignore[arg-type]


@given(
    long_texts,
    st.integers(min_value=1, max_value=20_000),
    st.booleans(),
    st.sampled_from(["strict", "modern"]),
)
def test_chunks_of_any_size_give_the_whole_text_matches(
    text: str, chunk: int, invalid: bool, profile: str
) -> None:
    file = io.StringIO(text)
    streamed = list(urlsift.extract_stream(file, chunk_chars=chunk, invalid=invalid, profile=profile))
    assert streamed == _same(text, invalid=invalid, profile=profile)


@given(long_texts, st.integers(min_value=1, max_value=20_000))
def test_bytes_are_decoded_across_chunk_boundaries(text: str, chunk: int) -> None:
    data = io.BytesIO(text.encode("utf-8"))
    assert list(urlsift.extract_stream(data, chunk_chars=chunk)) == _same(text)


def test_a_wrapper_across_a_chunk_boundary_is_found_once_with_its_true_line() -> None:
    text = "line\n" * 3000 + "see <URL:http://host/a-\n   b>\n" + "tail\n" * 3000
    for chunk in (1, 7, 4096, 15_000, 15_010, 1 << 20):
        (match,) = urlsift.extract_stream(io.StringIO(text), chunk_chars=chunk)
        assert (match.url, match.line, match.column) == ("http://host/a-b", 3001, 4)
        assert text[match.span[0] : match.span[1]] == "<URL:http://host/a-\n   b>"


def test_undecodable_bytes_become_replacement_characters() -> None:
    data = io.BytesIO(b"\xff\xfe <http://a/> \xc3")
    (match,) = urlsift.extract_stream(data)
    assert (match.url, match.span) == ("http://a/", (3, 14))


def _in_two_windows(
    text: str, cut: int, lookbehind: int = LOOKBEHIND, profile: str = "strict"
) -> list[urlsift.Match]:
    """What extract_stream does at one window boundary, with the cut put at ``cut``."""
    extraction, progress = Extraction(profile=profile), ScanProgress()
    first = list(extraction.window(text, 0, cut, base=0, dropped=0, progress=progress))
    dropped = max(0, progress.resume - lookbehind)
    rest = extraction.window(
        text[dropped:], progress.resume - dropped, len(text), base=dropped, dropped=dropped, progress=progress
    )
    return first + list(rest)


SAMPLES = [
    APPENDIX,
    "xx\n> see " + "some words " * 10 + "<URL:http://h/a/\n> b/c> mailto:a@b x\n",
    "a URL:  news:a.b.c, =09http://h/ end",
    WWW_TEXT,
]


@pytest.mark.parametrize("profile", ["strict", "modern"])
@pytest.mark.parametrize("text", SAMPLES)
def test_a_window_boundary_anywhere_changes_nothing(text: str, profile: str) -> None:
    expected = list(urlsift.extract(text, profile=profile))
    for cut in range(len(text) + 1):
        assert _in_two_windows(text, cut, profile=profile) == expected, cut


def test_the_boundary_test_can_fail() -> None:
    # Without the characters behind the window, a quote prefix or a URL: prefix is lost.
    quoted = SAMPLES[1]
    assert any(
        _in_two_windows(quoted, cut, lookbehind=0) != list(urlsift.extract(quoted)) for cut in range(200)
    )
