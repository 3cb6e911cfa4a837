"""The header values a list archive repeats are scanned once (``matches._scanned``): the matches
of a message must be those of one scan of its texts, in the same order, whether its header values
are cached, fresh, or some of each."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from urlsift._model import MessageText, Provenance
from urlsift.extract import extract_each
from urlsift.matches import _HEADER_MATCHES, extraction, matches
from urlsift.rows import Options

HEADER_VALUES = [
    "<https://lists.example.org/listinfo/x>, <mailto:x-request@example.org?subject=unsubscribe>",
    "<http://lists.example.org/pipermail/x/>",
    "Mon, 3 Feb 2003 10:11:12 +0100",
    "a subject: see http://example.com/a and <URL:ftp://ftp.example.com/f>",
    "no URL: here",
    "<unclosed:wrapper",
]
BODIES = [
    "Hello,\nsee <http://example.com/page> and http://example.net/x.\n",
    "nothing here\n",
    "ftp://ftp.example.org/pub/file.txt\n> quoted <URL:http://a.example/\n> b>\n",
    "",
]
messages = st.lists(
    st.tuples(
        st.lists(st.sampled_from(HEADER_VALUES), max_size=5), st.lists(st.sampled_from(BODIES), max_size=3)
    ),
    min_size=1,
    max_size=6,
)


@given(messages, st.booleans())
def test_matches_are_one_scans_whatever_the_cache_holds(
    found: list[tuple[list[str], list[str]]], pipermail: bool
) -> None:
    options = Options(invalid=True)
    _HEADER_MATCHES.clear()
    for _ in range(2):  # the second time, every header value is cached
        for headers, bodies in found:
            texts = [*headers, *bodies]
            names = [f"x-{k}" for k in range(len(headers))] + [f"{k} text/plain" for k in range(len(bodies))]
            message = MessageText(Provenance("m"), texts, names, len(headers), [], {}, pipermail)
            expected = list(extract_each(texts, **{**extraction(options), "pipermail": pipermail}))
            assert list(matches(message, options)) == expected
