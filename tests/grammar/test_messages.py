"""Each kind of failure gets a clear message, a position and the RFC production; each decision of
docs/decisions.md (D1-D36) is pinned by examples."""

from __future__ import annotations

import pytest

import urlsift
from urlsift import CaveatKind

# Issue 31: every test here runs on each core (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("core")


def error(url: str) -> urlsift.Problem:
    verdict = urlsift.validate(url)
    assert not verdict.valid, url
    assert verdict.error is not None
    assert verdict.parts == {}
    return verdict.error


@pytest.mark.parametrize(
    ("url", "position", "production", "words"),
    [
        # unknown (unsafe, national, control, non-ASCII) characters
        (
            "http://host/a~b",
            13,
            "hsegment",
            "'~' (U+007E) is unsafe (section 2.2) and must be encoded as %7E",
        ),
        ("http://host/a b", 13, "hsegment", "a space is unsafe"),
        ("ftp://host/a\tb", 12, "fsegment", "control character U+0009 must be encoded as %09"),
        ("http://host/caf\u00e9", 15, "hsegment", "not US-ASCII: encode its octets (as UTF-8: %C3%A9)"),
        ("http://host/a{b}", 13, "hsegment", "'{'"),
        ("news:comp.lang.c~", 16, "group", "unsafe"),
        # bad escapes (D5)
        ("http://host/%4", 12, "escape", "'%' must start an escape of two hexadecimal digits"),
        ("http://host/%G1", 12, "escape", "not '%G1'"),
        ("http://host/%%41", 12, "escape", "escape"),
        ("mailto:joe%", 10, "escape", "escape"),
        # bad hosts (D7)
        ("http://exa_mple.com/", 10, "domainlabel", "'_' (U+005F) cannot be in a host name"),
        ("http://-foo.com/", 7, "domainlabel", "must start with a letter or digit"),
        ("http://foo-.com/", 10, "domainlabel", "must end with a letter or digit"),
        ("http://a..b/", 9, "domainlabel", "empty label"),
        ("http://host.com./", 15, "hostname", "may not end with '.'"),
        ("http://1.2.3/", 7, "hostnumber", "four groups of digits; '1.2.3' has 3"),
        ("http://1.2.3.4.5/", 7, "hostnumber", "has 5"),
        ("http://host.123/", 12, "toplabel", "must start with a letter"),
        ("ftp://u@9host:21/", 8, "toplabel", "must start with a letter"),
        ("http://a.-b/", 9, "domainlabel", "must start with a letter or digit"),
        ("http://.a/", 7, "domainlabel", "empty label"),
        ("http://a--/", 9, "domainlabel", "must end with a letter or digit"),
        ("http://ho%41st/", 9, "domainlabel", "cannot be in a host name"),
        ("http:///path", 7, "host", "the host is missing"),
        ("news:joe@", 9, "host", "the host is missing"),
        # bad ports (D8)
        ("http://host:/", 12, "port", "must be followed by a port number"),
        ("http://host:8o/", 13, "port", "'o' cannot be in a port"),
        ("http://host:80:81/", 14, "port", "cannot be in a port"),
        ("file://host:80/x", 11, "domainlabel", "':' (U+003A) cannot be in a host name"),
        # missing parts
        ("mailto:", 7, "encoded822addr", "ends where the mail address was expected"),
        ("nntp://news.example", 19, "nntpurl", "ends where '/' was expected"),
        ("nntp://news.example/", 20, "group", "ends where the newsgroup name was expected"),
        ("file://host", 11, "fileurl", "ends where '/' was expected"),
        ("prospero://host", 15, "prosperourl", "'/'"),
        ("http:", 5, "httpurl", "'//'"),
        ("ftp://host/a;type=", 18, "ftptype", "the URL ends where the typecode was expected"),
        # wrong typecodes (D3, D11)
        ("ftp://host/a;type=x", 18, "ftptype", "must be one of A, I, D, a, i, d"),
        ("ftp://host/a;TYPE=a", 13, "ftpurl", "must be ';type=' in lower case"),
        ("ftp://host/a;type=aa", 19, "ftpurl", "end of the URL"),
        # D11: a ";" that does not start ";type=" is one a segment may not hold (not a case error)
        ("ftp://host/a;x=1", 12, "ftpurl", "';' is reserved in an ftp path and must be encoded as %3B"),
        ("ftp://host/a;Tx=1", 12, "ftpurl", "must be encoded as %3B"),
        ("ftp://host/a;type", 17, "ftpurl", "the URL ends where ';type=' was expected"),
        ("ftp://host/a; type=a", 13, "ftpurl", "a space is unsafe"),
        # ";" and "=" are user characters: this can still become "ftp://host;type=a@host/"
        ("ftp://host;type=a", 17, "login", "the URL ends where '@' was expected"),
        # structure
        ("http://user:pw@host/", 14, "hostport", "http URLs take no user name or password (section 3.3)"),
        # RFC 1738's user may hold "?": the authority ends at the first "/" only (D10)
        ("http://a?b@host/", 10, "hostport", "http URLs take no user name or password (section 3.3)"),
        ("prospero://a?b@host/p", 14, "hostport", "prospero URLs take no user name or password"),
        # D1: a generic URL may have a login; its error is the character it cannot hold
        ("foo://u s@host/", 7, "schemepart", "a space is unsafe"),
        ("http://host?query", 11, "domainlabel", "'?' (U+003F) cannot be in a host name"),
        ("http://host/p?q/r", 15, "search", "'/' is not allowed here in the search part"),
        ("http://host/p?q?r", 15, "search", "'?' is not allowed here in the search part"),
        ("prospero://host/p;a", 19, "fieldspec", "'='"),
        ("nntp://host/group/12a", 20, "digits", "'a' is not allowed here in a number"),
        ("news:*.foo", 10, "article", "the URL ends where '@' was expected"),  # "*" is a uchar
        ("wais://host/db?x/y", 16, "search", "'/'"),
        ("http://host/#a#b", 14, "fragment", "'#' (U+0023) is unsafe"),
        # the scheme (D2)
        ("www.example.com", 15, "scheme", "no ':' after a scheme name"),
        ("x_y:z", 1, "scheme", "'_' (U+005F) cannot be in a scheme name"),
        (":foo", 0, "scheme", "the scheme name before ':' is empty"),
        ("", 0, "scheme", "no ':'"),
        (" http://host/", 0, "scheme", "a space is unsafe"),
        ("\u212aelvin:x", 0, "scheme", "not US-ASCII"),
    ],
)
def test_failure_messages(url: str, position: int, production: str, words: str) -> None:
    problem = error(url)
    assert (problem.position, problem.production) == (position, production), problem
    assert words in problem.message
    assert "\n" not in problem.message
    assert len(problem.message) < 160


@pytest.mark.parametrize(
    "url",
    [
        # D1: otherurl judges schemes without a production; https is one (D10)
        "https://user:pw@host/x",
        "x-foo:anything;goes?here=1&a=b",
        "note:",  # D27: a genericurl with an empty schemepart is valid; the scanner must not report it
        # D2: any case of the scheme; digit-first and punctuation-only schemes
        "HTTP://host/",
        "HtTp://host/",
        "1abc:x",
        "+.-:x",
        # D4: an empty fragment
        "http://host/#",
        # D5: escapes of any octet
        "http://host/%00%0D%0A%7F%FF%e9",
        # D7: a label may start with a digit; 1.2.3.a is a hostname; no range on host numbers
        "http://3com.com/",
        "http://1.2.3.a/",
        "http://999.999.999.999/",
        "http://a" + "b" * 70 + ".com/",
        # D8: no range on ports
        "http://host:65536/",
        "http://host:00080/",
        # D9: user and password forms
        "ftp://:pw@host/",
        "ftp://a;b?c&d=e:f@host/",
        "ftp://a/b@host/",
        # D10: empty search, ; in segments
        "http://host/?",
        "http://host/a;b/c:d@e&f=g?h;i:j@k&l=m",
        "http://host",
        # D11: ftp segment characters, empty segments
        "ftp://host/a?b:c@d&e=f",
        "ftp://host//etc/motd",
        "ftp://host/x;type=I",
        # D12: file forms
        "file:///",
        "file:////server/share",
        "file://localhost/etc/motd",
        "file://LOCALHOST/x",
        # D13: gopher
        "gopher://host/",
        "gopher://host/%09",
        # D14: mailto's BNF is 1*xchar
        "mailto:joe",
        "mailto:a@x,b@y",
        "mailto://joe@host?subject=hi",
        # D15: news
        "news:a.b-c+d_e",
        "news:x/y;z?w:v&u=t@host.example",
        # D16: nntp
        "nntp://host:119/comp.lang.c",
        # D17: wais
        "wais://host/",
        "wais://host/db//",
        "wais://host/db?",
        # D18: prospero
        "prospero://host/;=",
        "prospero://host/a/b;c=d;e=f",
    ],
)
def test_valid_by_decision(url: str) -> None:
    verdict = urlsift.validate(url)
    assert verdict.valid, (url, verdict.error)


@pytest.mark.parametrize(
    ("url", "position", "production"),
    [
        ("http://host/~user/", 12, "hsegment"),  # D6: "~" is national
        ("http://host/a#b#c", 15, "fragment"),  # D4: a second "#"
        ("http://host.com./", 15, "hostname"),  # D7: no trailing dot
        ("http://host_1/", 11, "domainlabel"),  # D7: no "_"
        ("http://host:/", 12, "port"),  # D8: empty port
        ("http://user@host/", 11, "hostport"),  # D10: no login
        ("http://host?x", 11, "domainlabel"),  # D10: search only after "/"
        ("ftp://host/a;type=a/b", 19, "ftpurl"),  # D11: typecode only at the end
        # D11's ";" a segment may not hold ("ftp://host/a/b;c") is left to test_failure_messages:
        # whether it fails at the ";" or after it is the explanation's choice, not the decision's.
        ("file://host", 11, "fileurl"),  # D12: the "/" is mandatory
        ("file://user@host/x", 11, "hostport"),  # D12: no login
        ("mailto:", 7, "encoded822addr"),  # D14: 1*xchar
        # D15: "*" only alone. Every group character is an article character, so what is not a
        # group reads on as an article and fails for want of its "@" at the end.
        ("news:*foo", 9, "article"),
        ("news:1abc", 9, "article"),  # D15: not a group (a digit first), so an article
        ("nntp://host/1abc", 12, "group"),  # D15, D16: a group starts with a letter
        ("news://server/group", 19, "article"),  # D15: no news:// form
        ("news:<joe@host>", 5, "grouppart"),  # D15: no "<" ">"
        ("news:comp.*", 11, "article"),  # D15: no wildmat
        ("news:joe@[1.2.3.4]", 9, "domainlabel"),  # D15: the right side is a host
        ("nntp://host/", 12, "group"),  # D16: the group is required
        ("nntp://host/g/1/2", 15, "digits"),  # D16: nothing after the article number
        ("nntp://host/*", 12, "group"),  # D16: no "*"
        ("telnet://host/x", 14, "telneturl"),  # telneturl = "telnet://" login [ "/" ]
        ("wais://host/db/", 15, "waisdoc"),  # D17: waisdoc is "/" wtype "/" wpath: two slashes
        ("wais://host/db/t", 16, "waisdoc"),  # D17: waisdoc needs wpath after a second "/"
        ("https://host/~user", 13, "schemepart"),  # D6: "~" is national, whatever the scheme
        ("wais://host/db/t/p?q", 18, "wpath"),  # D17: a search is for waisindex only
        ("prospero://u@host/x", 12, "hostport"),  # D18: no login
        ("gopher://user@host/", 13, "hostport"),  # gopher has hostport only
    ],
)
def test_invalid_by_decision(url: str, position: int, production: str) -> None:
    problem = error(url)
    assert (problem.position, problem.production) == (position, production), problem


def test_validate_judges_exactly_the_string_given() -> None:
    # D28: "URL:http://h/" is an otherurl of scheme "url"; no trimming (D6)
    verdict = urlsift.validate("URL:http://h/")
    assert verdict.valid
    assert verdict.scheme == "url"
    assert not urlsift.validate("<http://h/>").valid
    assert not urlsift.validate("http://h/ ").valid


def test_scheme_is_reported_lower_case_and_generic_parts() -> None:
    verdict = urlsift.validate("HTTPS://User:Pw@Host.example:8443/a/b?c")
    assert verdict.scheme == "https"
    p = verdict.parts
    assert p["scheme"] == "https"
    assert (p["user"], p["password"], p["host"], p["port"], p["urlpath"]) == (
        "User",
        "Pw",
        "Host.example",
        8443,
        "a/b?c",
    )
    assert urlsift.validate("x:opaque").parts == {"scheme": "x", "schemepart": "opaque", "fragment": None}


def test_parts_are_read_only() -> None:
    verdict = urlsift.validate("http://host/")
    with pytest.raises(TypeError):
        verdict.parts["host"] = "other"  # type: ignore[index]


def kinds(url: str) -> list[CaveatKind]:
    verdict = urlsift.validate(url)
    assert verdict.valid, verdict.error
    return [caveat.kind for caveat in verdict.warnings]


def test_warnings_of_section_6_and_the_decisions() -> None:
    assert kinds("http://host/") == []
    assert kinds("http://host:80/") == []
    assert kinds("http://host:8080/") == [CaveatKind.PORT]
    assert kinds("ftp://host:21/") == []
    assert kinds("prospero://host:1525/x") == []
    assert kinds("nntp://host:25/g") == [CaveatKind.PORT]
    assert kinds("ftp://u:secret@host/") == [CaveatKind.PASSWORD]
    assert kinds("ftp://u:@host/") == []  # an empty password is no secret
    assert kinds("x-y://u:secret@host/") == [CaveatKind.PASSWORD]  # D9: generic // forms too
    assert kinds("http://host/a%0D%0Ab") == [CaveatKind.CONTROL, CaveatKind.CONTROL]
    assert kinds("gopher://host/1sel%09search") == []  # D13: the %09 separator is syntax
    assert kinds("gopher://host/1se%0Dl") == [CaveatKind.CONTROL]  # D13
    assert kinds("http://256.1.1.1/") == [CaveatKind.HOSTNUMBER_RANGE]
    assert kinds("http://" + "a" * 64 + ".com/") == [CaveatKind.LONG_LABEL]
    assert kinds("mailto:joe") == [CaveatKind.NOT_ADDR_SPEC]
    assert kinds("mailto:a@x,b@y") == [CaveatKind.NOT_ADDR_SPEC]
    assert kinds("mailto:joe@host.example") == []
    assert kinds("mailto:%22joe%20q%22@host.example") == []  # a quoted-string local part


def test_warning_positions_point_at_the_part() -> None:
    url = "ftp://u:secret@host:2121/"
    positions = {caveat.kind: caveat.position for caveat in urlsift.validate(url).warnings}
    assert positions == {CaveatKind.PORT: url.index("2121"), CaveatKind.PASSWORD: url.index("secret")}


def test_unknown_profile_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown profile 'loose'"):
        urlsift.validate("http://h/", profile="loose")
    assert urlsift.validate("http://h/", profile="strict").profile == "strict"
    assert urlsift.validate("http://h/", profile=urlsift.STRICT).valid


@pytest.mark.parametrize("not_text", [None, 5, b"http://host/"])
def test_validate_says_it_takes_str(not_text: object) -> None:
    with pytest.raises(TypeError, match=r"validate\(\) takes str, not"):
        urlsift.validate(not_text)  # type: ignore[arg-type]
