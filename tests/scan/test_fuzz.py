"""Fuzzing: extract and validate on arbitrary text, and the archive reader on mutated mail.

Text is built from the pieces that steer the scanner (``<`` ``>`` ``URL:`` ``%`` ``-`` line
breaks, quote prefixes, quote marks, full-width punctuation, lone surrogates, other non-ASCII)
mixed with any characters at all. Nothing may raise; every match must be consistent; the work must
grow linearly (token soups from fixed seeds, 10x the size within 30x the steps and the time, as
tests/growth.py measures them). Mail is real messages from the corpora and generated MIME, cut,
spliced and overwritten at random: the reader never raises (an internal error would come out as a
report of kind "internal"), and its counts add up. An input that ever broke one of these goes into
REGRESSIONS below, and stays.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import growth
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mutations import mutated_mbox
from pictures import check_consistent

import urlsift
from urlsift.results import results
from urlsift.rows import Options, Report, Row, Tally

PIECES = [
    "<", ">", "<URL:", "< URL: ", "URL:", "url:", "%", "%4", "%41", "-", "-\n", "\n", "\r\n", "\n\n",
    "\n> ", "> ", ">> ", "\n>> ", "| ", '"', "'", " ", "\t", "\u00a0", "http:", "http://", "https://",
    "ftp://h/", "mailto:", "news:", "nntp://", "file:///", "imap://", "//", "h", "host.example",
    ".", ",", ";", ":", "?", "#", "@", "~", "(", ")", "[", "]", "\u3002", "\uff0c", "\uff09",
    "\u300c", "\ud800", "\udfff", "\u00e9", "\u4e2d", "\U0001f600", "\x00", "\x7f", "\u2028",
]  # fmt: skip
# Schemes whose URLs the extractor judges beyond the grammar (D33, D35), and a generic one.
OPAQUE = ["tel:", "TEL:", "sip:", "sips:", "urn:", "cid:", "mid:", "xmpp:", "h:", "+1", "@h.example"]
soup = st.lists(st.one_of(st.sampled_from(PIECES + OPAQUE), st.text(max_size=8)), max_size=60).map("".join)

# Inputs that once broke something, kept for good (the first three are the cases reading the
# corpora turned up, 2026-11-22; the last two, D33 and D35, broke the oracle, issue 29).
REGRESSIONS = [
    "see http://kb.ettus.com\u3002I can run",
    "Jason <\n\nmailto:jason@g.example\n\njason@g.example\n> wrote:",
    'imap://<iserver>/<enc-mailbox> "ldap://"',
    "<URL:h:>",
    "call tel:abc now",
]

SHAPED = frozenset({"tel", "urn", "sip", "sips", "cid", "mid", "xmpp"})
"""D35's schemes, as docs/decisions.md lists them."""
OWN_RFC = SHAPED - {"xmpp"}
"""Those the modern profile judges by their own RFC: its verdict says whether a URL has the shape."""


def _check(text: str) -> None:
    every = list(urlsift.extract(text, invalid=True))
    for match in every:
        check_consistent(text, match)
        _check_verdict(match)
    assert [m for m in every if m.valid] == list(urlsift.extract(text))


def _check_verdict(match: urlsift.Match) -> None:
    """The verdict a match carries (cached, judged inside the scan) is validate's on its URL, but
    where the extractor rejected what the grammar takes: a wrapper the text ended inside (D21), a
    scheme with nothing after its colon (D33), a naked opaque URL without its RFC's shape (D35)."""
    url, error = match.url, match.verdict.error
    reason = None if error is None else error.reason
    scheme, colon, rest = url.partition(":")
    scheme = scheme.lower()
    # D35's shape is the scheme's own RFC's, which the modern profile judges it by.
    shaped = (
        None
        if not (colon and match.naked and scheme in OWN_RFC and not rest.startswith("//"))
        else urlsift.validate(url.partition("#")[0], "modern").valid
    )
    if isinstance(reason, urlsift.Unclosed):
        assert error is not None
        assert (match.valid, error.position, error.production) == (False, len(url), "wrapper")
        return
    expected = urlsift.validate(url)
    if reason is urlsift.NotInText.EMPTY_SCHEME_PART:
        assert expected.valid, url
        assert (colon, rest) == (":", ""), url
    elif reason is urlsift.NotInText.OPAQUE_SHAPE:
        assert expected.valid, url
        assert match.naked, url
        assert scheme in SHAPED, url
        assert not rest.startswith("//"), url
        assert shaped in (False, None), url
    else:
        assert match.verdict == expected, url
        assert not (match.valid and colon and rest == ""), url  # D33 leaves none of those valid
        assert not (match.valid and shaped is False), url  # nor D35 an opaque URL without its shape


@settings(max_examples=400, deadline=None)
@given(soup)
def test_extract_never_raises_and_every_match_is_consistent(text: str) -> None:
    _check(text)


def test_the_regressions() -> None:
    for text in REGRESSIONS:
        _check(text)


@settings(max_examples=400, deadline=None)
@given(st.one_of(soup, st.text()))
def test_validate_never_raises_and_says_where(text: str) -> None:
    verdict = urlsift.validate(text)
    assert verdict.valid == (verdict.error is None)
    assert bool(verdict.parts) == verdict.valid  # a valid URL has parts; an invalid one none
    if verdict.error is not None:
        assert 0 <= verdict.error.position <= len(text)
    else:  # D2: the scheme is what precedes the first ":", lower-cased
        assert verdict.scheme == text.split(":", 1)[0].lower()


def _soup(seed: int, size: int) -> str:
    pick = random.Random(seed)
    pieces: list[str] = []
    length = 0
    while length < size:
        piece = pick.choice(PIECES)
        pieces.append(piece)
        length += len(piece)
    return "".join(pieces)


def _extract_fresh(text: str) -> int:
    growth.clear_caches()  # a warm verdict cache would favour the small soup, which repeats less
    return sum(1 for _ in urlsift.extract(text, invalid=True))


# The same seed gives a soup whose first part is the one 10x larger: 10x the text, no other change.
@pytest.mark.parametrize("seed", range(5))
def test_token_soups_take_linear_steps(seed: int) -> None:
    growth.assert_linear_steps(_extract_fresh, [_soup(seed, 5_000), _soup(seed, 50_000)], f"seed {seed}")


@growth.timing
@pytest.mark.parametrize("seed", range(5))
def test_token_soups_take_linear_time(seed: int) -> None:
    growth.assert_linear(_extract_fresh, [_soup(seed, 20_000), _soup(seed, 200_000)], f"seed {seed}")


# --- the archive reader ------------------------------------------------------------------------

# Mail that once broke the reader, kept for good.
READER_REGRESSIONS = [
    # Found by the fuzzer, 2026-11-22: an empty message (no header at all) made the header names
    # one short of the lower-cased names ([""]): "zip() argument 2 is longer than argument 1".
    b"From a@b Thu Jan  1 00:00:00 1970\n\nFrom c@d Thu Jan  1 00:00:00 1970\nSubject: x\n\nhttp://h/\n",
]


@settings(max_examples=150, deadline=None)
@given(mutated_mbox())
def test_the_reader_never_raises_on_mutated_mail_and_its_counts_add_up(data: bytes) -> None:
    _read_and_check(data)


def test_the_reader_regressions() -> None:
    for data in READER_REGRESSIONS:
        _read_and_check(data)


def _read_and_check(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mutated.mbox"
        path.write_bytes(data)
        tally = Tally()
        events = list(results(str(path), Options(invalid=True), tally))
    reports = [event for event in events if isinstance(event, Report)]
    assert [r for r in reports if r.kind == "internal"] == []
    rows = [event for event in events if isinstance(event, Row)]
    assert tally.files == 1
    assert tally.messages >= 1
    assert tally.urls + tally.rejected == len(rows)
    assert tally.errors + tally.warnings == len(reports)
    assert 0 <= tally.messages_failed <= tally.messages
    assert all(row[10] is not None and row[10] < tally.messages for row in rows)
