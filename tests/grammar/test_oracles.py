"""Independent oracles for RFC 1738 section 5: hand-written atoms crossed with templates.

Every class, atom and template below was written from reading section 5 of RFC 1738
(``shared/spec/rfc1738.txt``) and the decisions it cites, never generated from ``urlsift.grammar``
(``tests/strategies.py`` is, so it cannot see a production mis-transcribed there). A production
written wrong in ``grammar/rfc1738.py`` (a character left out of a class or let into one, a literal
misspelled, an optional part made required) makes a valid atom fail or an invalid one pass.

An atom is put in every template of its production (``{}`` marks where); an invalid atom says how
far into it the URL reads (``at``) and which production the verdict must name there. Where two
readings of the grammar stop at the same character, both names are accepted (``news:a b@h``
could be a group or an article when the space stops it).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import urlsift

# Issue 31: every test here runs on each core (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("core")

# --- section 5's "Miscellaneous definitions", spelled out again -----------------------------

ALPHA = "abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGIT = "0123456789"
SAFE = "$-_.+"
EXTRA = "!*'(),"
UNRESERVED = ALPHA + DIGIT + SAFE + EXTRA
# uchar = unreserved | escape: every member once, and escapes of both cases
UCHARS = UNRESERVED + "%41%7e%7E%00%FF"
RESERVED = ";/?:@&="
XCHARS = UCHARS + RESERVED

# Section 2.2: never in a URL unencoded, whatever the production. "#" is left out (D4: it starts
# the fragment), and "%" (it starts an escape, tested below); controls and non-ASCII added.
NEVER = [*' <>"{}|\\^~[]`', "\t", "\x00", "\x1f", "\x7f", "\u00e9", "\u3002"]
# D5: an escape is "%" and two hex digits; each of these fails at its "%".
BAD_ESCAPES = ["%", "%4", "%G0", "%0g", "%%30", "%-1"]

HOST_NAMES = frozenset({"host", "hostname", "domainlabel", "toplabel", "hostnumber"})
WAIS = frozenset({"waisurl", "waisdatabase", "waisindex", "waisdoc"})


@dataclass(frozen=True)
class Bad:
    """An invalid atom: the URL reads ``at`` characters into it, then fails in ``production``."""

    atom: str
    at: int
    production: str | frozenset[str]


@dataclass(frozen=True)
class Oracle:
    """One production of section 5: where it stands in URLs, and atoms of it good and bad."""

    production: str
    templates: tuple[str, ...]
    valid: tuple[str, ...]
    invalid: tuple[Bad, ...]
    escapes: bool = True
    """Whether an escape may stand in it (then a bad escape fails at its "%", D5)."""
    never_in: str | frozenset[str] | None = None
    """The production named when a NEVER character stops it ("a" char "b"); None: no such test."""


def either(*names: str) -> frozenset[str]:
    return frozenset(names)


ORACLES = [
    # hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]; hpath = hsegment *[ "/" hsegment ]
    Oracle(
        "hsegment",
        ("http://h/{}", "http://h/{}/x", "http://h/a/{}?q", "HTTP://h.example:8080/{}#f"),
        ("", "abc", UCHARS + ";:@&=", "a;b:c@d&e=f", "a//b", "/", "%7Euser"),
        (Bad("a~b", 1, "hsegment"), Bad("a%2", 1, "escape")),
        never_in="hsegment",
    ),
    # search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]; only after "/" hpath (D10)
    Oracle(
        "search",
        ("http://h/?{}", "http://h/p/q?{}", "http://h:1/p?{}#f"),
        ("", "q", UCHARS + ";:@&=", "a=1&b=2;c:d@e", "%2F%3F"),
        (Bad("a/b", 1, "search"), Bad("a?b", 1, "search"), Bad("?", 0, "search")),
        never_in="search",
    ),
    # fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]; fpath = fsegment *[ "/" fsegment ]
    Oracle(
        "fsegment",
        ("ftp://h/{}", "ftp://u:p@h/{}/x", "ftp://h/a/{};type=i", "FTP://h:21/{}/"),
        ("", "abc", UCHARS + "?:@&=", "a?b:c@d&e=f", "a//b", "%3B%2F"),
        (Bad("a~b", 1, "fsegment"), Bad("a b", 1, "fsegment")),
        never_in="fsegment",
    ),
    # ftptype = "A" | "I" | "D" | "a" | "i" | "d", after the lower-case literal ";type=" (D3)
    Oracle(
        "ftptype",
        ("ftp://h/p;type={}", "ftp://h/;type={}", "ftp://u@h/a/b;type={}#f"),
        tuple("AIDaid"),
        (
            Bad("", 0, "ftptype"),
            Bad("x", 0, "ftptype"),
            Bad("e", 0, "ftptype"),
            Bad("%41", 0, "ftptype"),
            Bad("aa", 1, "ftpurl"),
            Bad("a/b", 1, "ftpurl"),
            Bad("a;type=a", 1, "ftpurl"),
        ),
        escapes=False,
    ),
    # host = hostname | hostnumber; hostname = *[ domainlabel "." ] toplabel;
    # domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit;
    # toplabel = alpha | alpha *[ alphadigit | "-" ] alphadigit; hostnumber = 4 digits groups (D7)
    # hostport = host [ ":" port ]; port = digits (D8). Schemes with hostport and no login only:
    # in a login, what is not a host may still be a user name.
    Oracle(
        "hostport",
        ("http://{}", "http://{}/p", "gopher://{}/1x", "nntp://{}/g", "wais://{}/db", "prospero://{}/p"),
        (
            "h",
            "H",
            "host.example",
            "a.b.c.d.e",
            "3com.com",
            "a-b.c-d",
            "a--b.x",
            "x1.y2.z3",
            "0.a",
            "1.2.3.a",
            "1.2.3.4",
            "999.999.999.999",
            "0000.1.2.3",
            "a" * 70 + ".com",
            ALPHA + DIGIT + ".z",
            "h:80",
            "h:0",
            "1.2.3.4:65536",
            "h:00080",
        ),
        (
            Bad("", 0, "host"),
            Bad("-h", 0, "domainlabel"),
            Bad("h-", 1, "domainlabel"),
            Bad("a.-b", 2, "domainlabel"),
            Bad("a..b", 2, "domainlabel"),
            Bad(".a", 0, "domainlabel"),
            Bad("a.b.", 3, "hostname"),
            Bad("a_b", 1, HOST_NAMES),
            Bad("h%41", 1, HOST_NAMES),
            Bad("a.1b", 2, "toplabel"),
            Bad("host.123", 5, "toplabel"),
            Bad("1.2.3", 0, "hostnumber"),
            Bad("1.2.3.4.5", 0, "hostnumber"),
            Bad("1", 0, "hostnumber"),
            Bad("[::1]", 0, HOST_NAMES),
            Bad("h:", 2, "port"),
            Bad("h:8o", 3, "port"),
            Bad("h:-1", 2, "port"),
            Bad("h:80:81", 4, "port"),
            Bad("u@h", 1, "hostport"),
            Bad("u:p@h", 3, "hostport"),
        ),
        escapes=False,
        never_in=HOST_NAMES,
    ),
    # login = [ user [ ":" password ] "@" ] hostport; user and password = *[ uchar | ";" | "?" |
    # "&" | "=" ] (D9: empty ones differ from none)
    Oracle(
        "login",
        ("ftp://{}/", "ftp://{}/a;type=a", "telnet://{}", "telnet://{}/"),
        (
            "h",
            "@h",
            ":@h",
            "u@h",
            "u:@h",
            ":p@h",
            "u:p@h:21",
            UCHARS + ";?&=:" + UCHARS + ";?&=@h.example",
            "%40%3A%2F@h",
        ),
        (
            Bad("u~@h", 1, "user"),
            Bad("u:p~@h", 3, "password"),
            Bad("u:p:q@h", 3, "password"),
            Bad("u%4@h", 1, "escape"),
            Bad("u:%zz@h", 2, "escape"),
            Bad("u@", 2, "host"),
            Bad("u@-h", 2, "domainlabel"),
        ),
        escapes=False,
    ),
    # fileurl = "file://" [ host | "localhost" ] "/" fpath (D12: no port, no login)
    Oracle(
        "fileurl",
        ("file://{}/x", "file://{}//", "FILE://{}/a/b#f"),
        ("", "localhost", "LOCALHOST", "h.example", "1.2.3.4"),
        (
            Bad("h:80", 1, HOST_NAMES),
            Bad("u@h", 1, "hostport"),
            Bad("-h", 0, "domainlabel"),
            Bad("h_", 1, HOST_NAMES),
        ),
        escapes=False,
    ),
    # gopherurl = "gopher://" hostport [ "/" [ gtype [ selector [ "%09" search [ "%09"
    # gopher+_string ] ] ] ] ]; gtype = xchar; selector = *xchar (D13: so the rest is *xchar)
    Oracle(
        "gopher-path",
        ("gopher://h/{}", "gopher://h:70/{}", "GOPHER://h.example/{}#f"),
        ("", "0", "1", "%09", "1sel", "7a%09b", "1a%09b%09+", "1" + XCHARS, "%41abc", ";/?:@&="),
        (Bad("1a~", 2, "selector"), Bad("~", 0, "gtype"), Bad("1%09a b", 5, either("search", "selector"))),
        never_in=either("selector", "gtype"),
    ),
    # mailtourl = "mailto:" encoded822addr; encoded822addr = 1*xchar (D14)
    Oracle(
        "encoded822addr",
        ("mailto:{}", "MailTo:{}", "mailto:{}#f"),
        ("joe", "joe@host.example", "a@x,b@y", XCHARS, "%22joe%20q%22@h", "//joe@h?subject=x"),
        (Bad("", 0, "encoded822addr"), Bad("joe smith", 3, "encoded822addr")),
        never_in="encoded822addr",
    ),
    # newsurl = "news:" grouppart; grouppart = "*" | group | article;
    # group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ];
    # article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host (D15)
    Oracle(
        "grouppart",
        ("news:{}", "NEWS:{}", "news:{}#f"),
        (
            "*",
            "a",
            "comp.infosystems.www.misc",
            "A.b-c+d_e9",
            "x@h",
            "1abc@host.example",
            UCHARS + ";/?:&=@h.example",
            "%3Cid%3E@1.2.3.4",
        ),
        (
            Bad("", 0, either("grouppart", "article")),
            Bad("x@", 2, "host"),
            Bad("x@@h", 2, "host"),
            Bad("x@h@", 3, HOST_NAMES),
            Bad("x@h/", 3, HOST_NAMES),
            Bad("x@[1.2.3.4]", 2, HOST_NAMES),
            Bad("x@h:119", 3, HOST_NAMES),
            # Every group character is an article character: a string that is no group is
            # read as an article, and wants its "@" at the end (D15).
            Bad("1abc", 4, "article"),
            Bad("comp.*", 6, "article"),
            Bad("*foo", 4, "article"),
            Bad("<id@h>", 0, "grouppart"),
        ),
        never_in=either("group", "article"),
    ),
    # nntpurl = "nntp://" hostport "/" group [ "/" digits ] (D16)
    Oracle(
        "group",
        ("nntp://h/{}", "nntp://h:119/{}", "NNTP://h.example/{}#f"),
        ("g", "comp.lang.c", "A-b+c_d.e9", ALPHA + DIGIT + "-.+_", "g/1", "g/0123"),
        (
            Bad("", 0, "group"),
            Bad("1g", 0, "group"),
            Bad("*", 0, "group"),
            Bad("g$", 1, "group"),
            Bad("g%41", 1, "group"),
            Bad("g/", 2, "digits"),
            Bad("g/1a", 3, "digits"),
            Bad("g/1/2", 3, "digits"),
            Bad("g/x", 2, "digits"),
        ),
        escapes=False,
        never_in="group",
    ),
    # telneturl = "telnet://" login [ "/" ]
    Oracle(
        "telneturl",
        ("telnet://h{}", "telnet://u:p@h:23{}"),
        ("", "/"),
        (Bad("/x", 1, "telneturl"), Bad("//", 1, "telneturl"), Bad("/?", 1, "telneturl")),
        escapes=False,
    ),
    # waisurl = waisdatabase | waisindex | waisdoc: "/" database [ "?" search | "/" wtype "/"
    # wpath ]; database, wtype and wpath = *uchar (D17)
    Oracle(
        "waisurl",
        ("wais://h/{}", "wais://h:210/{}", "WAIS://h.example/{}#f"),
        (
            "",
            "db",
            UCHARS,
            "db?",
            "db?q;:@&=",
            "db/t/p",
            "db//",
            "%2F/%2F/%3F",
            f"{UCHARS}/{UCHARS}/{UCHARS}",
        ),
        (
            Bad("db/", 3, "waisdoc"),
            Bad("db/t", 4, "waisdoc"),
            Bad("db/t/p?q", 6, "wpath"),
            Bad("db/t/p/q", 6, "wpath"),
            Bad("db/t;/p", 4, "wtype"),
            Bad("db;", 2, "database"),
            Bad("db?x/y", 4, "search"),
            Bad("db?x?y", 4, "search"),
        ),
        never_in="database",
    ),
    # prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]; ppath = psegment *[ "/"
    # psegment ]; psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]; fieldspec = ";" fieldname
    # "=" fieldvalue; fieldname, fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ] (D18)
    Oracle(
        "prosperourl",
        ("prospero://h/{}", "prospero://h:1525/{}", "PROSPERO://h.example/{}#f"),
        (
            "",
            "p",
            "/pros/name",
            UCHARS + "?:@&=/" + UCHARS,
            ";=",
            "p;a=b;c=d",
            "p;" + UCHARS + "?:@&=" + UCHARS + "?:@&",
            "p;OBJECT-VERSION=3;x=",
        ),
        (
            Bad("p;a", 3, "fieldspec"),
            Bad("p;", 2, "fieldspec"),
            Bad("p;a=b=c", 5, "fieldvalue"),
            Bad("p;a~=b", 3, "fieldname"),
            Bad("p;a/b=c", 3, "fieldname"),
            Bad("p;a=b/c", 5, "fieldvalue"),
            Bad("p~", 1, "psegment"),
        ),
        never_in="psegment",
    ),
    # genericurl = scheme ":" schemepart; schemepart = *xchar | ip-schemepart (D1)
    Oracle(
        "schemepart",
        ("x-y:{}", "z39.50s:{}", "HTTPS:{}", "x:{}#f"),
        ("", "opaque", XCHARS, "//u:p@h:1/a?b", "//h"),
        (Bad("a~b", 1, "schemepart"), Bad("//[::1]/", 2, "schemepart")),
        never_in="schemepart",
    ),
    # The fragment (D4): everything after the first "#", *xchar (RFC 1808).
    Oracle(
        "fragment",
        ("http://h/#{}", "ftp://h/f#{}", "news:g#{}", "x:#{}"),
        ("", "WARNING", XCHARS),
        (Bad("a#b", 1, "fragment"), Bad("#", 0, "fragment")),
        never_in="fragment",
    ),
    # scheme = 1*[ lowalpha | digit | "+" | "-" | "." ] (D2: any case)
    Oracle(
        "scheme",
        ("{}:x", "{}://h/"),
        ("x", "X", "x-y", "z39.50s", "1abc", "+.-", "abcdefghijklmnopqrstuvwxyz0123456789+-.", "HTTPS"),
        (
            Bad("", 0, "scheme"),
            Bad("x_y", 1, "scheme"),
            Bad("x y", 1, "scheme"),
            Bad("x%41", 1, "scheme"),
            Bad("\u212aelvin", 0, "scheme"),
        ),
        escapes=False,
        never_in="scheme",
    ),
]

CASES = [(oracle, template) for oracle in ORACLES for template in oracle.templates]
NEVER_CASES = [(oracle, template) for oracle, template in CASES if oracle.never_in is not None]
ESCAPE_CASES = [(oracle, template) for oracle, template in CASES if oracle.escapes]


def _case_id(case: object) -> str:
    return case.production if isinstance(case, Oracle) else str(case)


def _fill(template: str, atom: str) -> tuple[str, int]:
    """The URL, and where in it the atom starts."""
    return template.replace("{}", atom), template.index("{}")


def _named(production: str, expected: str | frozenset[str]) -> bool:
    return production == expected if isinstance(expected, str) else production in expected


@pytest.mark.parametrize(("oracle", "template"), CASES, ids=_case_id)
def test_valid_atoms_validate(oracle: Oracle, template: str) -> None:
    wrong = []
    for atom in oracle.valid:
        url, _ = _fill(template, atom)
        verdict = urlsift.validate(url)
        if not verdict.valid:
            wrong.append((url, str(verdict.error)))
    assert not wrong


def _misjudged(url: str, at: int, production: str | frozenset[str]) -> tuple[str, str] | None:
    """None when ``url`` fails at ``at`` in ``production``; else what it said instead."""
    error = urlsift.validate(url).error
    if error is not None and error.position == at and _named(error.production, production):
        return None
    return (url, f"wanted at {at} ({production}), got {error}")


@pytest.mark.parametrize(("oracle", "template"), CASES, ids=_case_id)
def test_invalid_atoms_fail_where_and_in_what(oracle: Oracle, template: str) -> None:
    wrong = []
    for bad in oracle.invalid:
        url, start = _fill(template, bad.atom)
        wrong.append(_misjudged(url, start + bad.at, bad.production))
    assert not [w for w in wrong if w]


@pytest.mark.parametrize(("oracle", "template"), NEVER_CASES, ids=_case_id)
def test_unsafe_characters_fail_where_they_stand(oracle: Oracle, template: str) -> None:
    production = oracle.never_in
    assert production is not None
    wrong = []
    for char in NEVER:
        url, start = _fill(template, f"a{char}b")
        wrong.append(_misjudged(url, start + 1, production))
    assert not [w for w in wrong if w]


@pytest.mark.parametrize(("oracle", "template"), ESCAPE_CASES, ids=_case_id)
def test_bad_escapes_fail_at_their_percent(oracle: Oracle, template: str) -> None:
    wrong = []
    for bad in BAD_ESCAPES:
        url, start = _fill(template, f"a{bad}")
        wrong.append(_misjudged(url, start + 1, "escape"))
    assert not [w for w in wrong if w]


# --- whole URLs: each scheme's literals and required parts --------------------------------------

STRUCTURE = [
    # the literal "//" of every ip-based scheme
    ("http:/h/", 6, "httpurl"),
    ("http:h", 5, "httpurl"),
    ("ftp:/h/", 5, "ftpurl"),
    ("gopher:h", 7, "gopherurl"),
    ("telnet:", 7, "telneturl"),
    ("wais:/h/", 6, WAIS),
    ("prospero:h", 9, "prosperourl"),
    ("nntp://", 7, "host"),
    ("file:/x", 6, "fileurl"),
    # required "/" (D12, D16, D17, D18) and what may follow a hostport
    ("file://h", 8, "fileurl"),
    ("nntp://h", 8, "nntpurl"),
    ("wais://h", 8, WAIS),
    ("prospero://h", 12, "prosperourl"),
    ("http://h?q", 8, HOST_NAMES),  # D10: a search only after "/" hpath
    ("http://h/p?q#a#b", 14, "fragment"),
    # the typecode: lower-case literal, at the very end, only after "/" fpath (D3, D11)
    ("ftp://h/p;TYPE=a", 10, "ftpurl"),
    ("ftp://h/p;type=a/q", 16, "ftpurl"),
    # no login where the production has only hostport (3.3, 3.11, D10, D18)
    ("http://u@h/", 8, "hostport"),
    ("gopher://u:p@h/", 12, "hostport"),
    ("prospero://@h/p", 11, "hostport"),
    ("wais://u@h/db", 8, "hostport"),
    ("nntp://u@h/g", 8, "hostport"),
]


@pytest.mark.parametrize(("url", "at", "production"), STRUCTURE)
def test_structure(url: str, at: int, production: str | frozenset[str]) -> None:
    assert _misjudged(url, at, production) is None


# --- the oracles cover the grammar -------------------------------------------------------------

# Productions an oracle above reaches without naming it: by the production its template puts
# the atom in (hpath through hsegment), or through the URL around it (ftpurl holds fpath).
REACHED_THROUGH = {
    "hpath": "hsegment",
    "httpurl": "hsegment",
    "fpath": "fsegment",
    "ftpurl": "fsegment",
    "host": "hostport",
    "hostname": "hostport",
    "domainlabel": "hostport",
    "toplabel": "hostport",
    "hostnumber": "hostport",
    "digits": "hostport",
    "port": "hostport",
    "user": "login",
    "password": "login",
    "gopherurl": "gopher-path",
    "gtype": "gopher-path",
    "selector": "gopher-path",
    "gopher+_string": "gopher-path",
    "mailtourl": "encoded822addr",
    "newsurl": "grouppart",
    "article": "grouppart",
    "nntpurl": "group",
    "waisdatabase": "waisurl",
    "waisindex": "waisurl",
    "waisdoc": "waisurl",
    "database": "waisurl",
    "wtype": "waisurl",
    "wpath": "waisurl",
    "ppath": "prosperourl",
    "psegment": "prosperourl",
    "fieldspec": "prosperourl",
    "fieldname": "prosperourl",
    "fieldvalue": "prosperourl",
    "genericurl": "schemepart",
    "ip-schemepart": "schemepart",
    "urlpath": "schemepart",
}


def test_every_production_of_section_5_has_an_oracle() -> None:
    """A production added to the grammar with no oracle here fails this test (the names are the
    grammar's; what each production accepts is checked above, not here)."""
    from urlsift.grammar._bnf import rules
    from urlsift.grammar.strict import STRICT_RULES

    named = {oracle.production for oracle in ORACLES}
    assert set(REACHED_THROUGH.values()) <= named
    in_grammar = {rule.name for root in STRICT_RULES for rule in rules(root)}
    assert in_grammar - named - set(REACHED_THROUGH) == set()


def test_the_schemes_of_section_5() -> None:
    # url = httpurl | ftpurl | newsurl | nntpurl | telneturl | gopherurl | waisurl | mailtourl |
    #       fileurl | prosperourl | otherurl
    from urlsift.grammar import rfc1738

    assert set(rfc1738.SCHEME_RULES) == {
        "http", "ftp", "news", "nntp", "telnet", "gopher", "wais", "mailto", "file", "prospero"
    }  # fmt: skip
