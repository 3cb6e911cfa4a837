"""Properties of extract, with the validator's grammar-derived URL strategies (strategies.py).

For any valid URL: wrapped as <URL:...> or <...>, broken at arbitrary places with line breaks,
indentation and tabs, quoted with a consistent prefix and embedded in running text, it comes back
exactly (the reading that keeps every hyphen is the URL itself); naked in running text it comes
back too. On any text, every match is consistent and valid unless invalid=True asked otherwise.
Each holds in both profiles, with each profile's URLs.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pictures import check_consistent
from strategies import PROFILE_SCHEMES, SCHEMES, profile_urls, urls

import urlsift
from urlsift.extract import extract_each
from urlsift.rejoin import first_reading, readings
from urlsift.scanner import HIERARCHICAL_SCHEMES
from urlsift.shapes import empty_scheme_part, opaque_shape
from urlsift.validate import validate_www

pytestmark = pytest.mark.usefixtures("core")  # issue 31: each test on both cores

any_url = st.sampled_from(SCHEMES).flatmap(urls)
# (profile, URL): every scheme of both profiles; "known" leaves out the generic syntax, whose
# schemes a bare wrapper or running text does not vouch for (D22).
# A scheme and its colon alone ("0:", "mailto:") is no URL in text (D33), whatever the grammar says.
any_profile_url = (
    st.sampled_from(PROFILE_SCHEMES).flatmap(profile_urls).filter(lambda p: not empty_scheme_part(p[1]))
)
known_profile_url = (
    st.sampled_from([p for p in PROFILE_SCHEMES if p[1] != "other"])
    .flatmap(profile_urls)
    .filter(lambda p: not empty_scheme_part(p[1]))
)

# Running text around a URL: words, spaces, sentence punctuation and line breaks. Quote marks and
# the characters of quote prefixes stay out of it here (the fuzz test below has them all).
prose = st.text(st.sampled_from("abcXYZ019 .,;!?()'\n\t-"), max_size=40)
breaks = st.lists(
    st.tuples(st.integers(min_value=0), st.sampled_from(["\n", "\n  ", "\n\t", " ", "\t", "\r\n    "])),
    max_size=5,
)
prefixes = st.sampled_from(["", "> ", ">> ", "> > ", "| ", ": "])


def _broken(url: str, cuts: list[tuple[int, str]], first: int) -> str:
    """``url`` with whitespace inserted at the cut points (none before index ``first``)."""
    if len(url) <= first:
        return url
    out, last = [], 0
    for at in sorted({first + position % (len(url) - first + 1) for position, _ in cuts}):
        out.append(url[last:at])
        last = at
    pieces = [*out, url[last:]]
    spaces = [space for _, space in cuts] + [""]
    return "".join(piece + spaces[k % len(spaces)] for k, piece in enumerate(pieces[:-1])) + pieces[-1]


def _quoted(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.split("\n"))


@given(any_profile_url, breaks, prefixes, prose, prose, st.sampled_from(["<URL:", "<url: ", "< URL:"]))
def test_a_broken_url_wrapper_gives_the_url_back(
    pair: tuple[str, str], cuts: list[tuple[int, str]], prefix: str, before: str, after: str, opener: str
) -> None:
    profile, url = pair
    text = _quoted(before + " " + opener + _broken(url, cuts, 0) + ">" + after, prefix)
    found = [m for m in urlsift.extract(text, profile=profile) if m.wrapper == "URL:"]
    assert [m.url for m in found] == [url]
    assert found[0].verdict.profile == profile
    check_consistent(text, found[0])


@given(known_profile_url, breaks, prefixes, prose, prose)
def test_a_broken_bare_wrapper_gives_the_url_back(
    pair: tuple[str, str], cuts: list[tuple[int, str]], prefix: str, before: str, after: str
) -> None:
    profile, url = pair
    # The scheme and its colon must stay together for "<" to open a bare wrapper (D22).
    text = _quoted(before + " <" + _broken(url, cuts, url.index(":") + 1) + ">" + after, prefix)
    found = [m for m in urlsift.extract(text, profile=profile) if m.wrapper == "<>"]
    assert [m.url for m in found] == [url]
    check_consistent(text, found[0])


@given(known_profile_url, prose, prose)
def test_a_naked_url_in_running_text_comes_back(pair: tuple[str, str], before: str, after: str) -> None:
    profile, url = pair
    assume(url[-1] not in ".,;:!?')]")  # D19 trims those; test_extract.py shows how
    scheme, _, rest = url.partition(":")
    # A naked URL of a scheme written with "//" is found by its "//" ("file:/etc" is not: D22),
    # and one with nothing after its colon ("mailto:") or its "//" ("telnet://", D27) is no URL in
    # running text.
    assume(rest not in ("", "//") and (scheme.lower() not in HIERARCHICAL_SCHEMES or rest.startswith("//")))
    # D35: a naked tel:, urn:, sip: ... without its own RFC's shape ("tel:%00;...") is no URL of
    # running text, whatever the grammar says (test_extract_mail.py shows those).
    assume(opaque_shape(url) is None)
    text = before + " " + url + " " + after
    found = [m for m in urlsift.extract(text, profile=profile) if m.naked]
    assert [m.url for m in found] == [url]
    check_consistent(text, found[0])


@given(known_profile_url, prose, prose)
def test_a_quoted_url_comes_back_whole(pair: tuple[str, str], before: str, after: str) -> None:
    profile, url = pair
    assume(not url.endswith("://"))  # "telnet://" quoted is a template (D27)
    text = before + ' "' + url + '" ' + after
    found = list(urlsift.extract(text, naked=False, profile=profile))
    assert [(m.url, m.wrapper, m.span[1] - m.span[0]) for m in found] == [(url, '"', len(url) + 2)]


# Host names with no scheme, as mail writes them ("see www.example.com/x."): the modern scanner's.
www_text = st.tuples(
    st.sampled_from(["www.", "WWW.", "xwww.", "@www.", "://www."]),
    st.text(st.sampled_from("abc.-/~?é"), max_size=12),
    st.sampled_from(["", ".", "。", ")", ","]),
).map("".join)

messy = st.lists(
    st.one_of(
        st.sampled_from([*'<>":/-%#@.;?=&| \n\t\r>', "URL:", "http:", "mailto:", "> ", "\u00a0"]),
        st.characters(codec="utf-8"),
    ),
    max_size=40,
).map("".join)


@given(st.lists(st.one_of(messy, any_url), max_size=6).map(" ".join))
def test_every_match_is_consistent_and_valid_unless_asked(text: str) -> None:
    default = list(urlsift.extract(text))
    every = list(urlsift.extract(text, invalid=True))
    for match in every:
        check_consistent(text, match)
        unterminated = match.verdict.error is not None and match.verdict.error.production == "wrapper"
        if not unterminated:
            expected = urlsift.validate(match.url)
            if expected.valid and match.naked and opaque_shape(match.url) is not None:
                assert not match.valid  # D35: valid by the grammar, but no shape a URL in text has
            else:
                assert match.verdict == expected
    assert all(m.valid for m in default)
    assert [m for m in every if m.valid] == default
    starts = [m.span[0] for m in every]
    assert starts == sorted(starts)
    assert [m.url for m in urlsift.extract(text, naked=False)] == [m.url for m in default if not m.naked]


@given(
    st.lists(st.one_of(messy, any_profile_url.map(lambda pair: pair[1]), www_text), max_size=6).map(" ".join)
)
def test_in_the_modern_profile_too_every_match_is_consistent_and_valid_unless_asked(text: str) -> None:
    default = list(urlsift.extract(text, profile="modern"))
    every = list(urlsift.extract(text, profile="modern", invalid=True))
    for match in every:
        check_consistent(text, match)
        assert match.verdict.profile == "modern"
        unterminated = match.verdict.error is not None and match.verdict.error.production == "wrapper"
        if not unterminated:
            judged = validate_www if match.verdict.scheme is None and match.valid else urlsift.validate
            expected = judged(match.url, "modern")
            if expected.valid and match.naked and opaque_shape(match.url) is not None:
                assert not match.valid  # D35: valid by the grammar, but no shape a URL in text has
            else:
                assert match.verdict == expected
    assert all(m.valid for m in default)
    assert [m for m in every if m.valid] == default
    starts = [m.span[0] for m in every]
    assert starts == sorted(starts)


@given(st.lists(st.lists(st.one_of(messy, any_url), max_size=4).map(" ".join), max_size=5))
def test_extract_each_is_extract_on_each_text(texts: list[str]) -> None:
    together = list(extract_each(texts, invalid=True))
    alone = [(k, match) for k, text in enumerate(texts) for match in urlsift.extract(text, invalid=True)]
    assert together == alone


def test_extract_each_says_a_wrapper_left_open_ran_to_the_end_of_its_text() -> None:
    texts = ["see <URL:http://a/", "next", "> <URL:http://b/>"]
    found = [(k, m.url, m.valid, str(m.verdict.error)) for k, m in extract_each(texts, invalid=True)]
    assert found[0][:3] == (0, "http://a/", False)
    assert "the text ended before the closing '>'" in found[0][3]
    assert found[1] == (0, "http://a/", True, "None")  # the naked URL inside it
    assert found[2] == (2, "http://b/", True, "None")
    assert len(found) == 3


# Wrappers left open or closed, broken after hyphens, quoted: the candidates first_reading serves.
wrapper_soup = st.lists(
    st.sampled_from(["<URL:", "<http:", "<", ">", "-\n", "-\n> ", "\n\n", " ", "a", "h/", "at", "-", '"']),
    max_size=30,
).map("".join)


# What a text may end with after a wrapper left open: blanks, a quote prefix, on a line of their own.
open_ends = st.sampled_from(
    ["", "\n", "\n ", " \n \t", "\n> ", "\n>  ", "\n\n ", "\nabc\n \t", "\n> abc\n> "]
)


@given(st.lists(st.tuples(wrapper_soup, open_ends).map("".join), max_size=4))
def test_extract_each_is_extract_on_each_text_whatever_blanks_end_it(texts: list[str]) -> None:
    """A wrapper left open at its text's end reads as stopped by that end, as alone (D21), also
    when blanks follow the text's last line break (the separator's blank line is not the text's)."""
    together = list(extract_each(texts, invalid=True))
    alone = [(k, match) for k, text in enumerate(texts) for match in urlsift.extract(text, invalid=True)]
    assert together == alone


@given(wrapper_soup)
def test_the_first_reading_is_the_first_of_the_readings(text: str) -> None:
    # A wrapper never closed shows first_reading's URL (extract's shortcut for readings(...)[0]).
    for candidate in urlsift.scanner.scan(text):
        assert first_reading(text, candidate) == readings(text, candidate)[0]
