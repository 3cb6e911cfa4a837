"""Properties over URLs generated from the grammar itself (one strategy per production)."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, note, settings
from hypothesis import strategies as st
from strategies import SCHEMES, production_strategies, urls

import urlsift
from urlsift.grammar import STRICT
from urlsift.grammar import rfc1738 as g
from urlsift.grammar._bnf import furthest_failure, to_regex
from urlsift.grammar.strict import STRICT_RULES

ESCAPE = regex.compile(r"%[0-9A-Fa-f]{2}")

PRODUCTIONS = {name: pair for root in STRICT_RULES for name, pair in production_strategies(root).items()}


@pytest.mark.parametrize("name", sorted(PRODUCTIONS))
@settings(max_examples=40)
@given(data=st.data())
def test_each_production_generates_what_it_matches(name: str, data: st.DataObject) -> None:
    rule, strategy = PRODUCTIONS[name]
    text = data.draw(strategy)
    assert regex.fullmatch(to_regex(rule), text), (name, text)
    assert furthest_failure(rule, text, 0, len(text)) is None, (name, text)


@pytest.mark.parametrize("scheme", SCHEMES)
@given(data=st.data())
def test_every_generated_url_validates(scheme: str, data: st.DataObject) -> None:
    url = data.draw(urls(scheme))
    verdict = urlsift.validate(url)
    assert verdict.valid, (url, verdict.error)
    assert verdict.error is None
    assert verdict.scheme == url.split(":", 1)[0].lower()
    assert verdict.parts["fragment"] == (url.split("#", 1)[1] if "#" in url else None)


UNSAFE_TO_INSERT = [*list(' <>"{}|\\^~[]`'), "\t", "\n", "\r", "\x00", "\x7f", "é", "。", "\xa0"]


def _expected_position(url: str, at: int) -> int:
    """The change itself, or the "%" of the escape it splits (D5: escape errors sit at the "%")."""
    for escape in ESCAPE.finditer(url):
        if escape.start() < at < escape.end():
            return escape.start()
    return at


@pytest.mark.parametrize("scheme", SCHEMES)
@given(data=st.data())
def test_inserting_an_unsafe_character_fails_at_the_change(scheme: str, data: st.DataObject) -> None:
    url = data.draw(urls(scheme))
    at = data.draw(st.integers(0, len(url)))
    char = data.draw(st.sampled_from(UNSAFE_TO_INSERT))
    broken = url[:at] + char + url[at:]
    verdict = urlsift.validate(broken)
    note(f"{broken!r}: {verdict.error}")
    assert not verdict.valid
    assert verdict.error is not None
    assert verdict.error.position == _expected_position(url, at)


@pytest.mark.parametrize("scheme", SCHEMES)
@given(data=st.data())
def test_breaking_an_escape_fails_at_its_percent(scheme: str, data: st.DataObject) -> None:
    url = data.draw(urls(scheme))
    escapes = list(ESCAPE.finditer(url))
    if not escapes:
        return
    escape = data.draw(st.sampled_from(escapes))
    digit = data.draw(st.sampled_from([1, 2]))
    bad = data.draw(st.sampled_from(["G", "g", "x", "%", ""]))
    broken = url[: escape.start() + digit] + bad + url[escape.start() + digit + 1 :]
    if ESCAPE.match(broken, escape.start()):  # "%4%41": the new "%" may itself start an escape
        return
    verdict = urlsift.validate(broken)
    note(f"{broken!r}: {verdict.error}")
    assert not verdict.valid
    assert verdict.error is not None
    assert verdict.error.position == escape.start()
    assert verdict.error.production == "escape"


MUTATIONS = [*list(":/@.-?;=&%#*_~ aZ09"), "%4", "%2F", "//", "::"]


@pytest.mark.parametrize("scheme", SCHEMES)
@given(data=st.data())
def test_the_walk_and_the_pattern_agree(scheme: str, data: st.DataObject) -> None:
    """The diagnostic walk accepts exactly what the compiled pattern accepts, and every invalid
    verdict carries a position inside the string."""
    url = data.draw(urls(scheme))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(url)))
        cut = data.draw(st.integers(0, 2))
        url = url[:at] + data.draw(st.sampled_from(MUTATIONS)) + url[at + cut :]
    colon = url.find(":")
    end = url.find("#") if "#" in url else len(url)
    if 0 < colon < end:
        syntax = STRICT.syntax(url[:colon].lower())
        by_pattern = syntax.pattern.fullmatch(url, colon + 1, end) is not None
        by_walk = furthest_failure(syntax.rule, url, colon + 1, end) is None
        assert by_pattern == by_walk, url
    verdict = urlsift.validate(url)
    if not verdict.valid:
        assert verdict.error is not None
        assert 0 <= verdict.error.position <= len(url)
        assert verdict.error.message


def test_every_scheme_production_is_exercised() -> None:
    names = {rule.name for root in STRICT_RULES for rule, _ in PRODUCTIONS.values() if rule}
    for production in (
        "hostport",
        "hsegment",
        "fsegment",
        "ftptype",
        "gopher+_string",
        "encoded822addr",
        "article",
        "group",
        "waisdoc",
        "fieldspec",
        "ip-schemepart",
        "toplabel",
    ):
        assert production in names
    assert set(g.SCHEME_RULES) == {
        "http",
        "ftp",
        "news",
        "nntp",
        "telnet",
        "gopher",
        "wais",
        "mailto",
        "file",
        "prospero",
    }
