"""The header values a list archive repeats are scanned once (``matches._plan``): the matches of a
message must be those of one scan of its texts, in the same order, whether its header values are
cached, fresh, or some of each, and whether it is scanned alone or with others (``Matcher.batch``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urlsift
import urlsift.matches
from urlsift._lines import Lines
from urlsift._model import Match, MessageText, Provenance
from urlsift.extract import extract_each
from urlsift.flowed import original, unflow
from urlsift.matches import _HEADER_MATCHES, Matcher, extraction, matches
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


LIST_VALUE = "<https://lists.example.org/listinfo/x>, <mailto:x-request@example.org?subject=unsubscribe>"


def _list_message(k: int) -> MessageText:
    """A list message: the list's own header value, a reply's unique ``<message-id>``, its date."""
    texts = [LIST_VALUE, f"<m{k}@example.org>", f"Mon, 3 Feb 2003 10:11:{k % 60:02d} +0100", "hi\n"]
    return MessageText(Provenance("m"), texts, ["List-Help", "In-Reply-To", "Date", "0 text/plain"], 3, [])


def _scans_of(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each text is given to ``extract_each`` from now on."""
    scanned: Counter[str] = Counter()

    def counting(texts: list[str], **arguments: Any) -> Iterator[tuple[int, Match]]:
        scanned.update(texts)
        return extract_each(texts, **arguments)

    monkeypatch.setattr(urlsift.matches, "extract_each", counting)
    return scanned


def test_a_value_every_message_repeats_stays_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """The least recently used value goes first: unique values (In-Reply-To) as many as the cache
    holds, many times over, never push out the one each message repeats, and the cache stays
    bounded."""
    monkeypatch.setattr(urlsift.matches, "_HEADER_CACHE_SIZE", 8)
    _HEADER_MATCHES.clear()
    scanned = _scans_of(monkeypatch)
    matcher = Matcher(Options(invalid=True))
    for k in range(100):
        list(matcher(_list_message(k)))
    assert scanned[LIST_VALUE] == 1
    assert scanned["<m99@example.org>"] == 1
    assert all(len(cache) <= 8 for cache in _HEADER_MATCHES.values())


def test_a_value_with_no_wrapper_is_not_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value with no ``<`` (a Date, a Subject) is scanned each time and takes no place in the
    cache; the list's value is remembered with its matches."""
    _HEADER_MATCHES.clear()
    scanned = _scans_of(monkeypatch)
    options = Options(invalid=True)
    for k in range(3):
        assert list(matches(_list_message(k), options)) == list(
            extract_each(_list_message(k).texts, **{**extraction(options), "pipermail": False})
        )
    (cache,) = _HEADER_MATCHES.values()
    assert set(cache) == {LIST_VALUE, "<m0@example.org>", "<m1@example.org>", "<m2@example.org>"}
    assert len(cache[LIST_VALUE]) == 2
    assert scanned[LIST_VALUE] == 1


FLOWED = "see http://example.com/a/long/path/the/client/ \nbroke/here and more\n> http://q.example/ \n> b\n"
"""A flowed part: a naked URL soft-broken across two lines, a quoted one whose line flows too."""


def _alone(text: str, flowed: bool | None, arguments: dict[str, Any]) -> list[Match]:
    """The matches of one text scanned by itself (a flowed one unflowed, as D31 says)."""
    if flowed is None:
        return list(urlsift.extract(text, **arguments))
    unflowed = unflow(text, flowed)
    return [
        original(match, unflowed, text, Lines(text)) for match in urlsift.extract(unflowed.text, **arguments)
    ]


@given(messages, st.lists(st.sampled_from([None, False, True]), min_size=3, max_size=3), st.booleans())
def test_a_batch_gives_each_message_the_matches_of_its_own_texts(
    found: list[tuple[list[str], list[str]]], flowed: list[bool | None], pipermail: bool
) -> None:
    """``Matcher.batch`` scans the texts of many messages at once: each message still gets exactly
    the matches of its texts each scanned alone, in order, whatever the cache holds (the first
    time nothing, the second every header value) and whichever parts are flowed."""
    options = Options(invalid=True)
    arguments = {**extraction(options), "pipermail": pipermail}
    batch, expected = [], []
    for headers, bodies in found:
        bodies = [
            FLOWED if k < len(flowed) and flowed[k] is not None else body for k, body in enumerate(bodies)
        ]
        texts = [*headers, *bodies]
        names = [f"x-{k}" for k in range(len(headers))] + [f"{k} text/plain" for k in range(len(bodies))]
        flows = {
            len(headers) + k: delsp for k, delsp in enumerate(flowed[: len(bodies)]) if delsp is not None
        }
        batch.append(MessageText(Provenance("m"), texts, names, len(headers), [], flows, pipermail))
        expected.append(
            [(k, match) for k, text in enumerate(texts) for match in _alone(text, flows.get(k), arguments)]
        )
    _HEADER_MATCHES.clear()
    matcher = Matcher(options)
    for _ in range(2):
        assert matcher.batch(batch) == expected
        assert [list(matcher(message)) for message in batch] == expected


def test_options_that_change_no_match_share_one_cache_and_caches_are_few() -> None:
    """200 ``extract_message`` calls with 200 ``context`` and ``max_message`` values once left 200
    caches: only ``extract_each``'s arguments key one, and the least recently used are forgotten."""
    message = b"List-Post: <mailto:x@example.org>\nSubject: s\n\nhttp://body.example/\n"
    _HEADER_MATCHES.clear()
    for k in range(200):
        rows = list(urlsift.extract_message(message, context=k, max_message=(1 << 20) + k))
        assert [row.url for row in rows if isinstance(row, urlsift.Row)] == [
            "mailto:x@example.org",
            "http://body.example/",
        ]
    assert len(_HEADER_MATCHES) == 1
    for k in range(50):
        list(urlsift.extract_message(message, known_schemes=["mailto", "http", f"x-{k}"]))
    assert 1 < len(_HEADER_MATCHES) <= 8
