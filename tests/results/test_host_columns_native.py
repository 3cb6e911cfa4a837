"""The host columns the native core works out (``rust/core/src/hosts.rs``, issues 31/32) held to
``hosts.py``'s, column for column: on every valid URL the corpora give in both profiles, on valid
URLs of the grammar's strategies, and on hypothesis-made http, https and ftp URLs of the shapes
that decide (ports, userinfo, numeric hosts as ``inet_aton`` reads them, escapes, dot segments,
session ids, ``..`` in hosts, trailing dots, upper case, empty queries), valid or not: whatever
the core takes, it must say as Python says; what it leaves (None) Python works out. And a deferred
verdict's scheme, read without ``validate``, is ``validate``'s."""

from __future__ import annotations

import shutil
import string
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import growth
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from results.test_host_columns import SURTS
from scan.test_core_scan import INSTRUCTION_LIMIT, _example
from strategies import any_profile_url

import urlsift
from urlsift import _select, hosts
from urlsift._model import www_url
from urlsift.extract import _DeferredVerdict
from urlsift.hosts import HostColumns
from urlsift.validate import validate

ROOT = Path(__file__).resolve().parents[2]

native = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")


def _core_columns(url: str, scheme: str | None) -> HostColumns | None:
    assert _select.NATIVE is not None
    taken: HostColumns | None = hosts._native_hosts(_select.NATIVE).columns(
        www_url(url) if scheme is None else url, scheme or "http"
    )
    return taken


def _python_columns(url: str, scheme: str | None, parts: Any) -> HostColumns:
    return hosts._columns(url, scheme, parts)


@cache
def _corpus_verdicts() -> list[tuple[str, str | None, Any, str | None]]:
    """(url, scheme, parts, said scheme) of every distinct valid URL of the corpora, both profiles,
    found by the native extractor (its verdicts deferred)."""
    found: dict[tuple[str, str], tuple[str, str | None, Any, str | None]] = {}
    files = sorted(p for p in (ROOT / "corpora").rglob("*") if p.is_file() and p.suffix != ".md")
    with _select.using("rust"):
        for path in files:
            text = path.read_bytes().decode("utf-8", "replace")
            for profile in ("strict", "modern"):
                for match in urlsift.extract(text, profile=profile):
                    verdict = match.verdict
                    if not verdict.valid or (match.url, profile) in found:
                        continue
                    said = verdict.said_scheme() if isinstance(verdict, _DeferredVerdict) else verdict.scheme
                    found[match.url, profile] = (match.url, verdict.scheme, verdict.parts, said)
    return list(found.values())


@native
def test_every_corpus_url_has_the_same_columns_from_the_core() -> None:
    verdicts = _corpus_verdicts()
    taken = 0
    for url, scheme, parts, said in verdicts:
        assert said == scheme, url
        columns = _core_columns(url, scheme)
        if columns is not None:
            taken += 1
            assert columns == _python_columns(url, scheme, parts), url
    # Nearly every URL of mail is an ASCII http, https or ftp one: the core must take them.
    assert taken > len(verdicts) // 2, (taken, len(verdicts))


@native
@settings(max_examples=400, deadline=None)
@given(any_profile_url)
def test_valid_urls_of_the_grammar_have_the_same_columns(pair: tuple[str, str]) -> None:
    profile, url = pair
    verdict = validate(url, profile)
    if not verdict.valid:  # (D-rules of text may refuse what the bare grammar makes)
        return
    columns = _core_columns(url, verdict.scheme)
    if columns is not None:
        assert columns == _python_columns(url, verdict.scheme, verdict.parts)


_NAME = st.text(string.ascii_letters + string.digits + "-", min_size=1, max_size=6)
_HOSTS = st.one_of(
    st.lists(_NAME, min_size=1, max_size=4).map(".".join),
    st.sampled_from(
        ["www.Example.COM", "www2.a.co.uk", "x.github.io", "a..b.com", "a.b.ck", "www.ck", "co.uk."]
    ),
    st.sampled_from(
        ["3232235521", "0300.0250.0.1", "192.168.1", "08.1.1.1", "1.2.3.4.5", "0x7f.1", "99999999999"]
    ),
    st.sampled_from(
        ["127.0.0.1", "256.1.1.1", "1.2.3", "00", "0", "017700000001", "4294967296", "%31.2.3.4"]
    ),
    st.sampled_from(
        [
            "h%2Eexample.com",
            "%77ww.x.org",
            "H%252ex.com",
            "a%00b.com",
            "%C3%A9.example",
            "xn--bcher-kva.example",
        ]
    ),
    st.sampled_from(["[::1]", "[v1.x]", "", ".", "..", "a.", ".a", "%20a.com"]),
)
_SEGMENT = st.one_of(
    _NAME,
    st.sampled_from(
        [".", "..", "", "%2e", "%2E%2E", "a%2Fb", "%25", "%2525", "~u", "A;b=c", "x.ASPX", "p.aspx"]
    ),
    st.sampled_from(
        [f"(a({'b' * 24}))", f"({'C' * 24})", f"(a({'b' * 23}))", f"(x({'1' * 24})y({'2' * 24}))"]
    ),
)
_ARGUMENT = st.one_of(
    st.tuples(_NAME, st.sampled_from(["", "=", "=1", "=B", "=%41", "=a=b"])).map("".join),
    st.sampled_from(["cfid=1", "cftoken=2", "CFID=", "x=cfid=", "cftoken=", "jsessionid=" + "a" * 32]),
    st.sampled_from(
        ["sid=" + "Z9" * 16, "phpsessid=" + "0" * 32, "ASPSESSIONIDabcdefgh=" + "q" * 24, "sid=" + "a" * 31]
    ),
)
_URLS = st.builds(
    lambda scheme, user, host, port, path, query, fragment: (
        f"{scheme}://{user}{host}{port}{path}{query}{fragment}"
    ),
    st.sampled_from(["http", "https", "ftp", "HTTP", "Https"]),
    st.sampled_from(["", "u@", "u:p@", "a@b@", "%40@"]),
    _HOSTS,
    st.sampled_from(
        ["", ":", ":80", ":443", ":8080", ":0", ":00080", ":65536", ":x", ":1:2", ":99999999999999999999"]
    ),
    st.lists(_SEGMENT, max_size=5).map(lambda segments: "".join("/" + s for s in segments)),
    st.one_of(st.just(""), st.just("?"), st.lists(_ARGUMENT, max_size=5).map(lambda a: "?" + "&".join(a))),
    st.sampled_from(["", "#", "#f", "#a?b/c"]),
)


@native
@settings(max_examples=2000, deadline=None)
@given(_URLS)
def test_hypothesis_urls_have_the_same_columns_whatever_their_verdict(url: str) -> None:
    # Parts none: the host is the authority's (hosts._written_host), as the core reads it.
    scheme = url.partition(":")[0].lower()
    columns = _core_columns(url, scheme)
    if columns is not None:
        assert columns == _python_columns(url, scheme, {}), url


@native
@pytest.mark.parametrize(
    ("url", "taken"),
    [
        ("http://www.Example.com:80/a/./b/../c/?b=2&a=1#x", True),
        ("http://3232235521/x", True),
        ("ftp://u:p@ftp.x.org/pub/", True),
        ("http://[::1]/", False),  # an IP literal: Python's
        ("http://xn--bcher-kva.example/", False),  # IDNA: Python's
        ("http://%C3%A9.example/", False),  # not ASCII once unescaped
        ("mailto:a@b.example", True),  # one plain address: its domain
        ("mailto:a@b.example?subject=x", True),
        ("mailto:a@b.example?cc=c@d.example", False),  # strict's address runs on to the "?"
        ("mailto:a%40b@c.example", False),  # the parts are decoded: a "@" may move
        ("mailto:a@b.example,c@d.example", False),
        ("mailto:a@b.example?subject=Re:%20x", True),  # escapes in the header fields, no "@"
        ("mailto:a@b.example?body=%40x", False),
        ("news:comp.lang.python", True),  # opaque: no host
        ("urn:ietf:rfc:1738", True),
        ("sip:u@h.example", False),  # the modern profile's SIP-URI has a host outside "//"
        ("ldap://h.example/o=x", True),  # any other scheme's "//" authority
        ("telnet://u@h.example:23/", True),
        ("imap://;AUTH=*@h.example/INBOX", True),
        ("gopher://[::1]/", False),
        ("https://a?@b.example/", False),  # "?" in a user name (RFC 1738): the verdict's host
        ("ftp://u:p?@h.example/x", False),
    ],
)
def test_the_core_takes_the_plain_hosts_and_leaves_the_rest(url: str, taken: bool) -> None:
    scheme = url.partition(":")[0].lower()
    assert (_core_columns(url, scheme) is not None) is taken


@native
@pytest.mark.parametrize(
    "url",
    ["https://a?@b.example/", "ftp://a?@b.example/x", "https://a?b@c.example", "ftp://u;x?=&@h.example/"],
)
def test_a_question_mark_in_the_userinfo_gives_the_verdicts_host(url: str) -> None:
    # RFC 1738 lets a user name hold "?": the strict verdict's host is after the "@", where
    # urlsplit's reading of the authority stops at the "?".
    verdict = urlsift.validate(url, profile="strict")
    assert verdict.valid
    columns = _core_columns(url, verdict.scheme)
    assert columns is None or columns == _python_columns(url, verdict.scheme, verdict.parts)


@native
@pytest.mark.parametrize(("url", "key"), sorted(SURTS.items()))
def test_the_cores_keys_are_the_internet_archives(url: str, key: str) -> None:
    columns = _core_columns(url, url.partition(":")[0].lower())
    assert columns is None or columns[3] == key
    assert columns is not None or "[" in url or "xn--" in url  # (the two the core leaves)


def _www_verdicts() -> Iterator[tuple[str, Any]]:
    with _select.using("rust"):
        for match in urlsift.extract("see www.Example.com/a and http://x.example/b", profile="modern"):
            yield match.url, match.verdict


@native
def test_a_deferred_verdicts_scheme_is_validates() -> None:
    said = {url: verdict.said_scheme() for url, verdict in _www_verdicts()}
    assert said == {"www.Example.com/a": None, "http://x.example/b": "http"}
    assert _select.NATIVE is not None
    www = ("www.example.com", "www.example.com", "example.com", "com,example)/a")
    assert hosts.native_host_columns("www.Example.com/a", None, _select.NATIVE) == www


# Long URLs that may cost the core most per character, each at two lengths 10x apart.
SHAPES: dict[str, Callable[[int], bytes]] = {
    "path session ids": lambda n: b"http://a.example/" + f"(a({'b' * 24}))/".encode() * (n // 30) + b"x",
    "bare session ids": lambda n: b"http://a.example/" + f"({'b' * 24})/".encode() * (n // 27) + b"x.aspx",
    "cfid arguments": lambda n: b"http://a.example/?" + b"cfid=" * (n // 5) + b"&cftoken=1",
    "sid arguments": lambda n: b"http://a.example/?" + b"sid=" * (n // 4),
    "dot segments": lambda n: b"http://a.example" + b"/.." * (n // 3) + b"/x",
    "arguments": lambda n: b"http://a.example/?" + b"&b=1&a" * (n // 6),
    "escapes": lambda n: b"http://a.example/" + b"%25" * (n // 3),
    "dots in the host": lambda n: b"http://a" + b"." * n + b"example/",
}
COUNTED_LENGTHS = (2_000, 20_000)


@native
@growth.counted
def test_the_cores_columns_grow_linearly(tmp_path: Path) -> None:
    cargo = shutil.which("cargo")
    assert cargo is not None
    shapes, paths = growth.shape_files(tmp_path, SHAPES, COUNTED_LENGTHS, ".url")
    counts = growth.instructions(
        [_example(cargo, "host_columns"), *paths], "columns_one", len(paths), tmp_path
    )
    growth.assert_instructions_linear(shapes, counts, INSTRUCTION_LIMIT, 10_000)


_SCHEMES = st.sampled_from(
    ["telnet", "gopher", "wais", "prospero", "nntp", "news", "file", "ldap", "imap", "sip", "foo", "Tel"]
)
_AUTHORITY_URLS = st.builds(
    lambda scheme, slashes, user, host, port, path: f"{scheme}:{slashes}{user}{host}{port}{path}",
    _SCHEMES,
    st.sampled_from(["//", "", "/"]),
    st.sampled_from(["", "u@", "u:p@", ";AUTH=*@", "a?b@", "%40@"]),
    _HOSTS,
    st.sampled_from(["", ":", ":23", ":x"]),
    st.lists(_SEGMENT, max_size=3).map(lambda segments: "".join("/" + s for s in segments)),
)
_ADDRESS = st.tuples(
    st.sampled_from(["", "a", "a.b", "%61", "a%40x", "a%2Cb", "a,b"]),
    st.sampled_from(["@", "", "%40"]),
    _HOSTS,
).map("".join)
_MAILTO_URLS = st.builds(
    lambda scheme, to, fields, more, fragment: f"{scheme}:{to}{fields}{more}{fragment}",
    st.sampled_from(["mailto", "MAILTO"]),
    st.lists(_ADDRESS, max_size=3).map(",".join),
    st.sampled_from(["", "?", "?subject=x", "?cc=c@d.example", "?body=%40", "?to=x@y.example", "?a=b,c"]),
    st.sampled_from(["", "&subject=Re:%20x", "&body=%2C%3F", "&cc=%40"]),
    st.sampled_from(["", "#f", "#a@b"]),
)


@native
@settings(max_examples=1500, deadline=None)
@given(st.one_of(_AUTHORITY_URLS, _MAILTO_URLS), st.sampled_from(["strict", "modern"]))
def test_other_schemes_and_mailto_have_the_verdicts_columns(url: str, profile: str) -> None:
    # The core reads the host from the URL's text; Python from the verdict's parts (D38): for a
    # valid URL of either profile, whatever the core takes must be what the parts give.
    verdict = validate(url, profile)
    if not verdict.valid:
        return
    columns = _core_columns(url, verdict.scheme)
    if columns is not None:
        assert columns == _python_columns(url, verdict.scheme, verdict.parts), url
