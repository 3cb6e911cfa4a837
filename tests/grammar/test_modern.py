"""The modern profile (D29): RFC 3986's and the scheme RFCs' own examples, cited by section, the
strict/modern differences table, IRIs, the scanner's "www." hosts, and the command line's view."""

from __future__ import annotations

import json
from pathlib import Path

import growth
import pytest
from pictures import picture

import urlsift
from urlsift import MODERN, STRICT, CaveatKind, canonical, validate
from urlsift.cli import main
from urlsift.validate import validate_www

# Issue 31: every test here runs on each core (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("core")

# --- RFC 3986 1.1.2, "Examples" ----------------------------------------------------------------

RFC3986_1_1_2 = [
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
]


@pytest.mark.parametrize("url", RFC3986_1_1_2)
def test_rfc3986_1_1_2_examples_are_valid(url: str) -> None:
    verdict = validate(url, "modern")
    assert verdict.valid, verdict.error
    assert verdict.profile == "modern"


def test_rfc3986_1_1_2_parts() -> None:
    ldap = validate("ldap://[2001:db8::7]/c=GB?objectClass?one", MODERN)
    assert (ldap.parts["host"], ldap.parts["path"], ldap.parts["query"]) == (
        "[2001:db8::7]",
        "/c=GB",
        "objectClass?one",
    )
    telnet = validate("telnet://192.0.2.16:80/", MODERN)
    assert (telnet.parts["host"], telnet.parts["port"]) == ("192.0.2.16", 80)
    assert [w.kind for w in telnet.warnings] == [CaveatKind.PORT]  # 80 is not telnet's 23
    urn = validate("urn:oasis:names:specification:docbook:dtd:xml:4.1.2", MODERN)
    # RFC 8141 2 reads it (grammar/opaque.py): namespace "oasis", and the rest its NSS
    assert (urn.parts["nid"], urn.parts["nss"]) == ("oasis", "names:specification:docbook:dtd:xml:4.1.2")
    # RFC 1738 cannot read the IPv6 literal; the others it takes.
    assert [validate(url).valid for url in RFC3986_1_1_2] == [True, True, False, True, True, True, True, True]


# --- RFC 3986 6.2.2 and 6.2.3, normalisation -----------------------------------------------------

EQUIVALENT = [
    # 6.2.2: "example://a/b/c/%7Bfoo%7D" and "eXAMPLE://a/./b/../b/%63/%7bfoo%7d" are equivalent
    ("example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"),
    # 6.2.2.1: "HTTP://www.EXAMPLE.com/" is equivalent to "http://www.example.com/"
    ("http://www.example.com/", "HTTP://www.EXAMPLE.com/"),
    # 6.2.2.1: "%3a" and "%3A" are equivalent
    ("http://h/a%3Ab", "http://h/a%3ab"),
    # 6.2.2.2: escapes of ALPHA, DIGIT, "-", ".", "_", "~" are decoded
    ("http://h/~a-b._c", "http://h/%7E%61%2D%62%2E%5Fc"),
    # 6.2.3: these four are equivalent for http
    ("http://example.com/", "http://example.com"),
    ("http://example.com/", "http://example.com:/"),
    ("http://example.com/", "http://example.com:80/"),
    # and https's default port is 443 (RFC 9110 4.2.2)
    ("https://example.com/", "HTTPS://Example.com:443"),
]


@pytest.mark.parametrize(("normal", "variant"), EQUIVALENT)
def test_rfc3986_6_2_normalisation(normal: str, variant: str) -> None:
    assert canonical(variant, "modern") == normal
    assert canonical(normal, "modern") == normal


def test_normalisation_keeps_what_it_must() -> None:
    # 6.2.2.2: an escaped reserved character is not decoded; a path's case is its own
    assert canonical("http://H/A%2fB%3b?%3D", "modern") == "http://h/A%2FB%3B?%3D"
    assert canonical("http://h:8080/x", "modern") == "http://h:8080/x"
    assert canonical("http://[2001:DB8::1]:80/", "modern") == "http://[2001:db8::1]/"
    # RFC 1738 gave "." and ".." no meaning: the strict form keeps them
    assert canonical("http://h/a/./b/../c", "strict") == "http://h/a/./b/../c"
    assert canonical("http://h/a/./b/../c", "modern") == "http://h/a/c"
    # RFC 3987 5.3.2.3: an IRI and its URI form are one
    assert canonical("http://Bücher.de/ü", "modern") == canonical("http://xn--bcher-kva.de/%C3%BC", "modern")


# --- RFC 6068 6, "Examples" ----------------------------------------------------------------------

RFC6068_EXAMPLES = [
    # 6.1, basic examples
    "mailto:chris@example.com",
    "mailto:infobot@example.com?subject=current-issue",
    "mailto:infobot@example.com?body=send%20current-issue",
    "mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
    "mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
    "mailto:majordomo@example.com?body=subscribe%20bamboo-l",
    "mailto:joe@example.com?cc=bob@example.com&body=hello",
    "mailto:?to=addr1@an.example,addr2@an.example",
    "mailto:addr1@an.example,addr2@an.example",
    "mailto:addr1@an.example?to=addr2@an.example",
    # 6.2, examples of complicated email addresses
    "mailto:%22not%40me%22@example.org",
    "mailto:%22oh%5C%5Cno%22@example.org",
    "mailto:%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org",
    "mailto:user@example.org?subject=caf%C3%A9",
    "mailto:user@example.org?subject=%3D%3Futf-8%3FQ%3Fcaf%3DC3%3DA9%3F%3D",
    "mailto:user@example.org?subject=%3D%3Fiso-8859-1%3FQ%3Fcaf%3DE9%3F%3D",
    "mailto:user@example.org?subject=caf%C3%A9&body=caf%C3%A9",
    "mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO",
    # 6.1 again: characters of an address that must be escaped
    "mailto:gorby%25kremvax@example.com",
    "mailto:unlikely%3Faddress@example.com?blat=foop",
    "mailto:Mike%26family@example.org",
]


@pytest.mark.parametrize("url", RFC6068_EXAMPLES)
def test_rfc6068_examples_are_valid(url: str) -> None:
    verdict = validate(url, "modern")
    assert verdict.valid, verdict.error


def test_rfc6068_parts() -> None:
    found = validate("mailto:joe@example.com?cc=bob@example.com&body=hello", MODERN).parts
    assert found["to"] == ("joe@example.com",)
    assert found["headers"] == (("cc", "bob@example.com"), ("body", "hello"))
    listed = validate("mailto:?to=addr1@an.example,addr2@an.example", MODERN).parts
    assert (listed["to"], listed["headers"]) == ((), (("to", "addr1@an.example,addr2@an.example"),))
    assert validate("mailto:%22not%40me%22@example.org", MODERN).parts["to"] == ('"not@me"@example.org',)


@pytest.mark.parametrize(
    ("url", "position", "production"),
    [
        ("mailto:joe@example.com?body=a/b", 29, "hfvalue"),  # "/" is no qchar: escape it
        ("mailto:joe@@example.com", 11, "domain"),
        ("mailto:joe@example.com?subject", 30, "hfield"),  # an hfield needs "="
    ],
)
def test_rfc6068_refusals(url: str, position: int, production: str) -> None:
    error = validate(url, MODERN).error
    assert error is not None
    assert (error.position, error.production) == (position, production), error


# --- the other scheme RFCs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "parts"),
    [
        # RFC 5538 2.1 and 2.2
        ("news:comp.lang.c", {"newsgroups": "comp.lang.c", "article": None, "host": None}),
        ("news://news.example/comp.*", {"newsgroups": "comp.*", "host": "news.example"}),
        ("news:p0ha49$x84$1@news.example", {"article": "p0ha49$x84$1@news.example"}),
        ("nntp://news.example:563/comp.lang.c/42", {"group": "comp.lang.c", "article": 42, "port": 563}),
        # RFC 8089 2 (and its appendix B forms)
        ("file:///path/to/file", {"host": "", "path": "path/to/file"}),
        ("file:/path/to/file", {"host": "", "path": "path/to/file"}),
        ("file://host.example.com/path/to/file", {"host": "host.example.com"}),
        # RFC 4266 2.1, RFC 4248 2
        (
            "gopher://[::1]:7070/0a%09b",
            {"host": "[::1]", "port": 7070, "gtype": "0", "selector": "a", "search": "b"},
        ),
        ("telnet://joe:pw@host.example/", {"user": "joe", "password": "pw", "host": "host.example"}),
        # RFC 1738 3.2's ftp on RFC 3986's pieces
        ("ftp://h/pub/a%2Fb;type=i", {"segments": ("pub", "a/b"), "typecode": "i"}),
    ],
)
def test_scheme_rfcs(url: str, parts: dict[str, object]) -> None:
    verdict = validate(url, MODERN)
    assert verdict.valid, verdict.error
    assert {key: verdict.parts[key] for key in parts} == parts


@pytest.mark.parametrize(
    ("url", "position", "production", "words"),
    [
        ("http://user@example.com/", 11, "authority", "RFC 9110 4.2.4"),
        # no "//": there is no authority to hold the "@"
        ("http:/u@host/", 6, "http-URI", "expected '//'"),
        ("http://{", 7, "host", "encode it as %7B"),  # nothing of an IP literal: the host is wrong
        ("https:///path", 8, "uri-host", "RFC 9110 4.2.1"),
        ("http://[1::2::3]/", 7, "IP-literal", "not an IPv6 address"),
        ("http://[::1/", 7, "IP-literal", "not an IPv6 address"),
        ("http://h:8x/", 10, "port", "decimal digits"),
        ("http://h/a b", 10, "segment", "encode it as %20"),
        ("http://h/a%zz", 10, "pct-encoded", "two hexadecimal digits"),
        ("http://h/#a#b", 11, "fragment", "'#'"),
        ("1http://h/", 0, "scheme", "starts with a letter"),
        ("file://host", 11, "path-absolute", "'/'"),
        ("nntp://h/g/x", 11, "article-number", "'x'"),
        ("http://h/\ufdd0", 9, "segment", "RFC 3987"),
    ],
)
def test_modern_refusals_say_where_and_why(url: str, position: int, production: str, words: str) -> None:
    error = validate(url, MODERN).error
    assert error is not None
    assert (error.position, error.production) == (position, production), error
    assert words in error.message


# --- IPv6 and IPv4 (RFC 3986 3.2.2) ---------------------------------------------------------------

GOOD_IPV6 = [
    "1:2:3:4:5:6:7:8",
    "::",
    "::1",
    "1::",
    "1::8",
    "1:2::7:8",
    "1:2:3:4:5:6::8",
    "::2:3:4:5:6:7:8",
    "1:2:3:4:5:6:1.2.3.4",
    "::ffff:192.0.2.128",
    "1::1.2.3.4",
    "fe80::1:2",
    "ABCD:EF01::2",
]
BAD_IPV6 = [
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    ":1",
    "1:",
    "12345::",
    "1:2:3:4:5:6:7",
    "::1.2.3.256",
    "g::1",
    "1:2:3:4:5:6:7:1.2.3.4",
    "",
    "::1%25eth0",
]


@pytest.mark.parametrize("address", GOOD_IPV6)
def test_good_ipv6_literals(address: str) -> None:
    assert validate(f"http://[{address}]/", MODERN).valid


@pytest.mark.parametrize("address", BAD_IPV6)
def test_bad_ipv6_literals(address: str) -> None:
    error = validate(f"http://[{address}]/", MODERN).error
    assert error is not None
    assert error.position == 7, error


def test_an_empty_label_is_valid_with_a_warning() -> None:
    for url, at in (("http://a..b.example/", 9), ("http://.../", 7), ("http://.a/", 7)):
        verdict = validate(url, MODERN)
        assert verdict.valid
        assert [(w.kind, w.position) for w in verdict.warnings] == [(CaveatKind.EMPTY_LABEL, at)]
    assert validate("http://a.example./", MODERN).warnings == ()  # a trailing dot is the root's


def test_a_dotted_quad_over_255_is_a_reg_name_with_a_warning() -> None:
    verdict = validate("http://192.0.2.256/", MODERN)
    assert verdict.valid
    assert [w.kind for w in verdict.warnings] == [CaveatKind.HOSTNUMBER_RANGE]
    assert validate("http://192.0.2.255/", MODERN).warnings == ()
    # a trailing dot makes it a reg-name too (found by hypothesis: the check once raised on it)
    assert [w.kind for w in validate("ftp://250.250.0.250./", MODERN).warnings] == [
        CaveatKind.HOSTNUMBER_RANGE
    ]


# --- IRIs (RFC 3987) ------------------------------------------------------------------------------


def test_an_iri_gives_its_uri_form() -> None:
    verdict = validate("http://Bücher.example/straße?q=ä#frag-ö", MODERN)
    assert verdict.valid
    assert verdict.uri == "http://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4#frag-%C3%B6"
    assert validate(verdict.uri or "", MODERN).valid
    assert validate("http://example.com/a", MODERN).uri == "http://example.com/a"
    assert validate("http://example.com/ä", STRICT).uri is None  # invalid: no URI form


def test_a_host_mixing_scripts_gets_a_warning() -> None:
    # "paypal" in Cyrillic letters but for one Latin "l"
    mixed = validate("http://\u0440\u0430\u0443\u0440\u0430l.com/", MODERN)
    assert mixed.valid
    assert [(w.kind, w.position) for w in mixed.warnings] == [(CaveatKind.MIXED_SCRIPT, 7)]
    assert "Cyrillic, Latin" in mixed.warnings[0].message
    for fine in ("http://пример.рф/", "http://例え.テスト/", "http://bücher.de/", "http://한국어.kr/"):
        assert validate(fine, MODERN).warnings == (), fine


def test_a_host_idna_refuses_is_valid_with_a_warning_and_escaped() -> None:
    verdict = validate("http://a\u2620b.example/", MODERN)  # a symbol: IDNA 2008 disallows it
    assert verdict.valid
    assert [w.kind for w in verdict.warnings] == [CaveatKind.NOT_IDNA]
    assert verdict.uri == "http://a%E2%98%A0b.example/"


# --- the differences table (README) --------------------------------------------------------------

TABLE = Path(__file__).parents[1] / "expected" / "profiles.tsv"
ROWS = [
    line.split("\t") for line in TABLE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")
]


def test_the_table_is_long_enough_and_every_row_differs() -> None:
    assert len(ROWS) >= 40
    assert all(strict != modern for _, strict, modern, _ in ROWS)


@pytest.mark.parametrize(("url", "strict", "modern", "rule"), ROWS, ids=[row[0] for row in ROWS])
def test_strict_and_modern_judge_as_the_table_says(url: str, strict: str, modern: str, rule: str) -> None:
    by_strict, by_modern = validate(url, STRICT), validate(url, MODERN)
    assert (by_strict.valid, by_modern.valid) == (strict == "valid", modern == "valid"), (
        by_strict.error,
        by_modern.error,
    )
    assert (by_strict.profile, by_modern.profile) == ("strict", "modern")


# --- the scanner --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see www.example.com/x. Thanks", "see «www.example.com/x». Thanks"),
        ("(WWW.Example.ORG)", "(«WWW.Example.ORG»)"),
        ("见www.例子.中国/路径。然后", "见«www.例子.中国/路径»。然后"),
        ("user@www.example.com, http://www.example.com/", "user@www.example.com, «http://www.example.com/»"),
        ("ftp.www.example.com and www.", "ftp.www.example.com and www."),
        # CJK and full-width punctuation ends a naked URL as ASCII punctuation does
        ("见http://example.com/a，然后", "见«http://example.com/a»，然后"),  # noqa: RUF001
        ("「http://example.com/~u」と", "「«http://example.com/~u»」と"),
        ("http://example.com/a．", "«http://example.com/a»．"),  # noqa: RUF001
    ],
)
def test_the_modern_scanner(text: str, expected: str) -> None:
    assert picture(text, profile="modern") == expected


def test_www_hosts_have_no_scheme_and_are_naked() -> None:
    (match,) = urlsift.extract("see www.example.com/x.", profile="modern")
    assert (match.url, match.verdict.scheme, match.naked, match.wrapper) == (
        "www.example.com/x",
        None,
        True,
        None,
    )
    assert match.verdict.profile == "modern"
    assert match.canonical == "http://www.example.com/x"
    assert match.verdict == validate_www("www.example.com/x", "modern")
    # only the modern profile knows them
    assert list(urlsift.extract("see www.example.com/x.")) == []


def test_a_rejected_www_host_says_where_in_itself() -> None:
    (match,) = urlsift.extract("see www.ex%zz.com", profile="modern", invalid=True)
    assert not match.valid
    assert match.verdict.error is not None
    assert match.verdict.error.position == 6  # the "%" in "www.ex%zz.com"


def test_the_profile_is_a_value() -> None:
    text = "<URL:http://host/~user/>"
    assert [m.url for m in urlsift.extract(text, profile=urlsift.MODERN)] == ["http://host/~user/"]
    assert [m.url for m in urlsift.extract(text, profile="modern")] == ["http://host/~user/"]
    assert list(urlsift.extract(text, profile=urlsift.STRICT)) == []
    assert urlsift.PROFILES["modern"] is urlsift.MODERN
    with pytest.raises(ValueError, match="unknown profile 'loose'"):
        validate("http://h/", "loose")


def test_the_profile_stays_one_object_when_caches_are_emptied() -> None:
    """The growth tests empty every functools cache of the package; the modern profile, built at
    first use, was one of them, and a second profile came (CI saw "PROFILES['modern'] is not
    MODERN" in a worker that had run a growth test first)."""
    first = urlsift.PROFILES["modern"]
    growth.clear_caches()
    assert urlsift.PROFILES["modern"] is first is urlsift.MODERN is urlsift.grammar.MODERN


# --- the command line -----------------------------------------------------------------------------


def test_validate_both_profiles_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--profile", "both", "http://host/~user/", "http://host/"]) == 1
    first, second = capsys.readouterr().out.splitlines()
    fields = first.split("\t")
    assert fields[:3] == ["strict:invalid", "modern:valid", "http://host/~user/"]
    assert fields[3].startswith("strict: at 12 (hsegment): '~' (U+007E) is unsafe")
    assert second == "strict:valid\tmodern:valid\thttp://host/"
    assert main(["validate", "--profile", "both", "http://host/"]) == 0


def test_stats_counts_what_only_strict_rejects(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mail = tmp_path / "note.txt"
    # rejected: a "~" (modern takes it), a bad escape (modern does not), a wrapper never closed
    # (rejected whatever it holds, D21; the naked URL inside it is found)
    mail.write_text(
        "Home: <URL:http://host/~me/>, and <URL:http://h/%zz> and http://ok.example/\n"
        "<URL:http://open.example/\n\nthe end\n"
    )
    assert main(["--stats", "--no-progress", str(mail)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["http://ok.example/", "http://open.example/"]
    assert "3 candidates rejected" in captured.err
    assert "1 of the rejected are valid by today's rules" in captured.err
    assert "--profile modern" in captured.err
    assert main(["--stats", "--no-progress", "--profile", "modern", str(mail)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["http://host/~me/", "http://ok.example/", "http://open.example/"]
    assert "today's rules" not in captured.err


def test_unique_takes_a_www_host_as_the_http_url_it_stands_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "w.txt"
    text.write_text("see www.Example.com/x. and http://www.example.com/x and WWW.example.com:80/x\n")
    assert main(["--profile", "modern", "--unique", "--format", "jsonl", str(text)]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (row["url"], row["scheme"], row["canonical"], row["count"]) == (
        "www.Example.com/x",
        None,
        "http://www.example.com/x",
        3,
    )
