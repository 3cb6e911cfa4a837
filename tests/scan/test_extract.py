"""The scanner and rejoiner on small texts, one input and one picture each (see pictures.py)."""

from __future__ import annotations

import pytest
from pictures import check_consistent, picture

import urlsift
from urlsift._model import Unclosed
from urlsift.scanner import MAX_SCHEME_CHARS

pytestmark = pytest.mark.usefixtures("core")  # issue 31: each test on both cores

APPENDIX = (
    "      Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n"
    "      type=d> but you can probably pick it up from <URL:ftp://ds.in\n"
    "      ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.\n"
    "      net/instructions/overview.html#WARNING>.\n"
)


def test_the_appendix_example() -> None:
    matches = list(urlsift.extract(APPENDIX))
    assert [m.url for m in matches] == [
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://ds.internic.net/rfc",
        "http://ds.internic.net/instructions/overview.html#WARNING",
    ]
    assert [(m.line, m.column, m.wrapper, m.alternatives) for m in matches] == [
        (1, 33, "URL:", ()),
        (2, 51, "URL:", ()),
        (3, 44, "URL:", ()),
    ]
    assert matches[2].fragment == "WARNING"
    assert matches[2].verdict.parts["fragment"] == "WARNING"
    assert picture(APPENDIX).splitlines()[1] == (
        "      «type=d»> but you can probably pick it up from <URL:«ftp://ds.in»"
    )
    for match in matches:
        check_consistent(APPENDIX, match)


CASES = [
    # wrappers (D22)
    ("<URL:ftp://ds.in\n      ternic.net/rfc>", "<URL:«ftp://ds.in»\n      «ternic.net/rfc»>"),
    ("<url: http://host/a >", "<url: «http://host/a» >"),
    ("<\n   URL:ftp://host/x>", "<\n   URL:«ftp://host/x»>"),
    ("<ftp://foo.example.\ncom/rfc/>", "<«ftp://foo.example.»\n«com/rfc/»>"),
    ("< http://lists.example.org/listinfo/x>", "< «http://lists.example.org/listinfo/x»>"),
    ("<mailto:joe@example.com?subject=hi>", "<«mailto:joe@example.com?subject=hi»>"),
    ("<foo://bar/baz> <URL:x-private:abc>", "<«foo://bar/baz»> <URL:«x-private:abc»>"),
    ("<URL:http://a/b>。下一句", "<URL:«http://a/b»>。下一句"),
    # quote prefixes (D25)
    ("> see <URL:http://host/a/\n> b/c> end", "> see <URL:«http://host/a/»\n> «b/c»> end"),
    (">> see <URL:http://host/a/\n> > b/c> end", ">> see <URL:«http://host/a/»\n> > «b/c»> end"),
    ("| <http://host/a\n|   /b>", "| <«http://host/a»\n|   «/b»>"),
    # whitespace of every kind (D23), U+00A0 included
    ("<URL:http://h/\ta\u00a0b\x0cc\r\nd>", "<URL:«http://h/»\t«a»\u00a0«b»\x0c«c»\r\n«d»>"),
    # quotes (D26)
    ('say "http://host/a." now', 'say "«http://host/a.»" now'),
    # naked URLs (D19)
    ("see http://host/path.", "see «http://host/path»."),
    ("(see http://host/a)", "(see «http://host/a»)"),
    ("wiki http://host/a_(b) ok", "wiki «http://host/a_(b)» ok"),
    ("[http://host/a]!?", "[«http://host/a»]!?"),
    ("mailto:joe@example.com, news:comp.lang.c;", "«mailto:joe@example.com», «news:comp.lang.c»;"),
    ("http://host/b。\n", "«http://host/b»。\n"),
    (
        "see http://kb.ettus.com。I can, http://a/b\uff0cc",
        "see «http://kb.ettus.com»。I can, «http://a/b»\uff0cc",
    ),
    ("blank line <\n\nhttp://x/ ends a wrapper first>", "blank line <\n\n«http://x/» ends a wrapper first>"),
    ("URL:http://host/x and URL: news:a.b.", "URL:«http://host/x» and URL: «news:a.b»."),
    ("see...http://h/ x.ftp://h/", "see...«http://h/» x.«ftp://h/»"),
    ("raw quoted-printable =09http://h/", "raw quoted-printable =09«http://h/»"),
    ("it is http://a/<b>", "it is «http://a/»<b>"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_pictures(text: str, expected: str) -> None:
    assert picture(text) == expected
    for match in urlsift.extract(text):
        check_consistent(text, match)


NOT_URLS = [
    "Note: Subject: Re: e.g.: 10:30 C:\\x example.com:80",
    "<123.456@host.example> <user@host> <b> <- <http.1@host> <foo:bar@host>",
    'template http://<host>:<port>/<path> and the literal "ftp://" in a grammar',
    'imap://<iserver>/<enc-mailbox> and "ldap://" (the generic form would take "//")',
    "xmailto:joe@x 1abc://x/ thehttp:x news: mailto:",
    "http://host/~user/ is unsafe, and so is <URL:http://host/a b~c>",
    "<URL:http://host/a\n\nmore text>",
]


@pytest.mark.parametrize("text", NOT_URLS)
def test_not_urls(text: str) -> None:
    assert [m.url for m in urlsift.extract(text, naked=False)] == []
    assert [m.url for m in urlsift.extract(text) if m.wrapper is not None] == []
    assert all(m.url == "http://host/a" for m in urlsift.extract(text)), "only D21's first line"


def test_a_scheme_and_slashes_alone_is_no_candidate_at_all() -> None:
    # D27 (rfc5092.txt, uri.7): not even a rejected one, whatever its scheme.
    text = 'imap://<iserver>/ http://<host>/ "ldap://" ".RI ldap:// hostport'
    assert list(urlsift.extract(text, invalid=True)) == []
    assert [m.url for m in urlsift.extract('"ldap://h" imap://h/')] == ["ldap://h", "imap://h/"]


def test_the_hyphen_rule_keeps_both_readings() -> None:
    text = "see <URL:http://ho-\n  st/a-\n b> end"
    (match,) = urlsift.extract(text)
    assert match.url == "http://ho-st/a-b"
    assert match.alternatives == ("http://host/a-b", "http://ho-st/ab", "http://host/ab")
    assert picture(text) == "see <URL:«http://ho-»\n  «st/a-»\n «b»> end"


def test_the_hyphen_reading_that_validates_wins() -> None:
    # "-" cannot end a host label (D7), so only the reading without it is a URL.
    (match,) = urlsift.extract("<URL:http://host-\n.example/>")
    assert (match.url, match.alternatives) == ("http://host.example/", ())
    assert match.pieces == ((5, 16), (18, 27))


def test_a_hyphen_before_a_space_is_plain_whitespace() -> None:
    (match,) = urlsift.extract("<URL:http://a/b- c>")
    assert (match.url, match.alternatives) == ("http://a/b-c", ())


def test_every_unicode_space_in_a_wrapper_is_dropped_and_nothing_else() -> None:
    # D23: whitespace is str.isspace's, however the rejoiner tells a body with some from one without.
    spaces = [chr(code) for code in range(0x110000) if chr(code).isspace()]
    near = "\x1f!\x84\x86\xa1\u180e\u200b\u2027\u202a\u205e\u2060\u3001\ufeff"  # around them, or once spaces
    for char in spaces + list(near):
        found = [m.url for m in urlsift.extract(f"<URL:http://h/a{char}b>", invalid=True)]
        assert found == (["http://h/ab"] if char.isspace() else [f"http://h/a{char}b"]), hex(ord(char))


def test_many_hyphen_breaks_give_the_two_extreme_readings() -> None:
    text = "<URL:http://h/" + "a-\n" * 6 + "b>"
    (match,) = urlsift.extract(text)
    assert match.url == "http://h/" + "a-" * 6 + "b"
    assert match.alternatives == ("http://h/" + "a" * 6 + "b",)


def test_unterminated_wrappers_are_rejected_with_the_reason() -> None:
    text = "x <URL:http://host/a\n\nmore <URL:ftp://h/ <b> <URL:news:a.b"
    assert [m.url for m in urlsift.extract(text, naked=False)] == []
    rejected = [m for m in urlsift.extract(text, invalid=True) if m.wrapper]
    assert [(m.url, m.valid, m.verdict.error and m.verdict.error.production) for m in rejected] == [
        ("http://host/a", False, "wrapper"),
        ("ftp://h/", False, "wrapper"),
        ("news:a.b", False, "wrapper"),
    ]
    reasons = [m.verdict.error.message for m in rejected if m.verdict.error]
    assert "a blank line" in reasons[0]
    assert "a second '<'" in reasons[1]
    assert "the text ended" in reasons[2]
    # The reason travels as data: later stages act on it, not on the words.
    assert [m.verdict.error.reason for m in rejected if m.verdict.error] == [
        Unclosed.BLANK_LINE,
        Unclosed.SECOND_OPEN,
        Unclosed.TEXT_ENDED,
    ]
    # D21: the scan resumes after the "<", so the first line is still found as a naked URL.
    assert urlsift.extract_urls(text) == ["http://host/a", "ftp://h/", "news:a.b"]


def test_a_second_open_stops_the_wrapper_right_before_it() -> None:
    # D21: stopped on its opening line (the scanner's shortcut) or on a later one (its walk line by
    # line), the rejected wrapper ends at the second "<" and shows all it held before it.
    for text, url, pieces in [
        ("<URL:ab<URL:", "ab", ((5, 7),)),
        ("<URL:ab <URL:", "ab", ((5, 7),)),
        ("<URL:ab\n c<URL:", "abc", ((5, 7), (9, 10))),
        ("<URL:<URL:", "", ()),
        ("<http:a<http:", "http:a", ((1, 7),)),
    ]:
        first = next(urlsift.extract(text, invalid=True))
        assert (first.url, first.span, first.pieces) == (url, (0, text.index("<", 1)), pieces), text
        assert first.verdict.error is not None
        assert first.verdict.error.reason is Unclosed.SECOND_OPEN


def test_wrappers_are_bounded_in_lines_and_length() -> None:
    nine_lines = "<URL:http://h/" + "a\n" * 8 + "b>"
    assert urlsift.extract_urls(nine_lines, naked=False) == []
    long = "<URL:http://h/" + "a" * 2100 + ">"
    assert urlsift.extract_urls(long, naked=False) == []
    for text, reason, words in [
        (nine_lines, Unclosed.TOO_MANY_LINES, "no closing '>' within 8 lines"),
        (long, Unclosed.TOO_LONG, "no closing '>' within 2048 characters"),
    ]:
        (rejected,) = [m for m in urlsift.extract(text, invalid=True) if m.wrapper]
        assert rejected.verdict.error is not None
        assert rejected.verdict.error.reason is reason
        assert words in rejected.verdict.error.message
    assert urlsift.extract_urls("<URL:http://h/" + "a\n" * 6 + "b>", naked=False) == ["http://h/aaaaaab"]


def test_a_prefix_mark_never_closes_the_wrapper() -> None:
    text = "> <URL:http://h/a\n> b>"
    assert urlsift.extract_urls(text) == ["http://h/ab"]
    # Without a prefix on the first line, a ">" opening the next line closes the wrapper.
    assert urlsift.extract_urls("<URL:http://h/a\n> b>") == ["http://h/a"]


def test_invalid_candidates_only_when_asked() -> None:
    text = 'see http://host/~u/ and <URL:ftp://h/a b> and <http://h/ok> and "gopher://h:x/"'
    assert urlsift.extract_urls(text) == ["ftp://h/ab", "http://h/ok"]
    every = list(urlsift.extract(text, invalid=True))
    assert [(m.url, m.valid) for m in every] == [
        ("http://host/~u/", False),
        ("ftp://h/ab", True),
        ("http://h/ok", True),
        ("gopher://h:x/", False),
    ]
    assert every[0].verdict.error is not None
    assert every[0].verdict.error.production == "hsegment"
    assert [m.naked for m in every] == [True, False, False, False]


def test_naked_false_keeps_only_delimited_urls() -> None:
    text = 'http://a/ <http://b/> "http://c/" URL:http://d/'
    assert urlsift.extract_urls(text, naked=False) == ["http://b/", "http://c/"]
    assert urlsift.extract_urls(text) == ["http://a/", "http://b/", "http://c/", "http://d/"]


def test_a_url_prefix_belongs_to_the_span() -> None:
    text = "at URL: http://d/."
    (match,) = urlsift.extract(text)
    assert (match.span, match.pieces, match.wrapper, match.naked) == ((3, 17), ((8, 17),), None, True)


def test_the_known_schemes_can_be_changed() -> None:
    text = "tel:+1-555 <urn:isbn:123> <foo:bar> foo:bar"
    assert urlsift.extract_urls(text) == ["tel:+1-555", "urn:isbn:123"]
    assert urlsift.extract_urls(text, schemes={"foo"}) == ["foo:bar", "foo:bar"]
    with pytest.raises(ValueError, match="not schemes: 1x, a b"):
        urlsift.extract_urls(text, schemes={"1x", "a b", "ok"})


def test_a_naked_scheme_may_end_in_any_scheme_character() -> None:
    # The naked trigger checks the character before the colon first: digits, "+", "-", "." too.
    schemes = {"x-1", "a.b", "c+", "d-", "Ee"}
    text = "see x-1:one, A.B:two, c+:three d-:four eE:five"
    found = urlsift.extract_urls(text, schemes=schemes)
    assert found == ["x-1:one", "A.B:two", "c+:three", "d-:four", "eE:five"]


def test_a_naked_scheme_is_the_whole_run_of_scheme_characters_up_to_its_bound() -> None:
    longest = "z+" + "y" * (MAX_SCHEME_CHARS - 3) + "Z"
    assert urlsift.extract_urls(f"see {longest}://x.org/") == [f"{longest}://x.org/"]
    assert urlsift.extract_urls(f"see a{longest}://x.org/") == []  # longer: no scheme
    glued = "y" * (MAX_SCHEME_CHARS - 4)
    assert urlsift.extract_urls(f"{glued}http://x.org/ {glued}zhttp://x.org/") == ["http://x.org/"]  # D36


def test_lines_and_columns_count_characters() -> None:
    text = "é\r\nline two ü <URL:http://a/>\nthree http://b/"
    first, second = urlsift.extract(text)
    assert (first.line, first.column) == (2, 11)
    assert (second.line, second.column) == (3, 6)


def test_extract_is_lazy() -> None:
    matches = urlsift.extract("<URL:http://a/> " * 100_000)
    assert next(matches).url == "http://a/"
    assert next(matches).span == (16, 31)


def test_bytes_are_refused_with_a_clear_error() -> None:
    with pytest.raises(TypeError, match="decode the bytes first"):
        list(urlsift.extract(b"<URL:http://a/>"))  # type: ignore[arg-type]


def test_extract_each_is_public_and_is_extract_on_each_text() -> None:
    """A message's texts in one call (its headers, its parts), exported beside ``extract``."""
    from urlsift.extract import extract_each

    assert "extract_each" in urlsift.__all__
    assert urlsift.extract_each is extract_each
    texts = ["See <URL:ftp://a.example/x\n  y>.", "", "line\nhttp://b.example/ and <http://c.example/", "x"]
    found = {
        "": [(0, "ftp://a.example/xy"), (2, "http://b.example/"), (2, "http://c.example/")],
        "invalid": [(0, "ftp://a.example/xy"), (2, "http://b.example/"), *[(2, "http://c.example/")] * 2],
        "naked": [(0, "ftp://a.example/xy")],
    }
    for option in found:
        naked, invalid = option != "naked", option == "invalid"
        each = list(urlsift.extract_each(texts, naked=naked, invalid=invalid))
        alone = [urlsift.extract(text, naked=naked, invalid=invalid) for text in texts]
        assert each == [(k, m) for k, matches in enumerate(alone) for m in matches]
        assert [(k, m.url) for k, m in each] == found[option]


def test_extract_each_takes_any_iterable_of_texts_and_refuses_one_str_at_the_call() -> None:
    texts = ["see http://a.example/", "and <URL:http://b.example/>"]
    listed = list(urlsift.extract_each(texts))
    assert [(k, m.url) for k, m in listed] == [(0, "http://a.example/"), (1, "http://b.example/")]
    assert list(urlsift.extract_each(iter(texts))) == listed
    assert list(urlsift.extract_each(text for text in texts)) == listed
    with pytest.raises(TypeError, match="not one str"):
        urlsift.extract_each("http://a.example/")  # (no iteration: refused at the call)
    with pytest.raises(TypeError, match="decode the bytes first"):
        urlsift.extract_each([b"http://a.example/"])  # type: ignore[list-item]
