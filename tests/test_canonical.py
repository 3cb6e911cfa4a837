"""canonical(): D30 on examples, and its properties on generated URLs of every scheme."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from strategies import any_profile_url

import urlsift
from urlsift import canonical

EXAMPLES = [
    # scheme and host lower-cased (2.1; host names are case-insensitive), a default port dropped
    # (section 3's table), an http URL's empty path written "/" (3.3)
    ("HTTP://WWW.Example.COM:80", "http://www.example.com/"),
    ("http://host:0080/a", "http://host/a"),
    ("http://host:8080/a", "http://host:8080/a"),
    ("FTP://User:Pass@FTP.Host:21/Dir/File;type=a", "ftp://User:Pass@ftp.host/Dir/File;type=a"),
    ("gopher://H:70/1x%09y", "gopher://h/1x%09y"),
    ("nntp://News.H:119/comp.lang.c/12", "nntp://news.h/comp.lang.c/12"),
    ("telnet://Me@H:23/", "telnet://Me@h/"),
    ("wais://H:210/db?x", "wais://h/db?x"),
    ("prospero://H:1525/x;a=b", "prospero://h/x;a=b"),
    ("file://LocalHost/Etc/Motd", "file://localhost/Etc/Motd"),
    ("xyz://User@Host:1/p", "xyz://User@host:1/p"),  # generic: no default port known
    # escapes: hex upper-cased; an unreserved character decoded; reserved and unsafe ones kept
    ("http://h/%7e%41%62%2d", "http://h/%7EAb-"),
    ("http://h/a%2Fb%3bc?x%3dy%20z", "http://h/a%2Fb%3Bc?x%3Dy%20z"),
    ("ftp://a%3Ab@h/", "ftp://a%3Ab@h/"),
    ("mailto:Joe%40Example.COM", "mailto:Joe%40Example.COM"),  # an address's case is its own
    ("news:Comp.Lang.C", "news:Comp.Lang.C"),
    # a user may hold "?" in RFC 1738: the host is still the one after "@"
    ("ftp://A?b@HOST:21/x", "ftp://A?b@host/x"),
    # the fragment is left as it came
    ("http://H/a#%7e%41B", "http://h/a#%7e%41B"),
]


@pytest.mark.parametrize(("url", "expected"), EXAMPLES)
def test_examples(url: str, expected: str) -> None:
    assert canonical(url) == expected
    assert canonical(expected) == expected


def test_an_invalid_url_has_no_canonical_form() -> None:
    with pytest.raises(ValueError, match="not a valid URL"):
        canonical("http://host/~user/")


def test_each_match_knows_its_canonical_form() -> None:
    text = "see <URL:HTTP://Host.COM:80> and <URL:ftp://h/a b~>"
    found = [(m.url, m.canonical) for m in urlsift.extract(text, invalid=True)]
    assert found == [("HTTP://Host.COM:80", "http://host.com/"), ("ftp://h/ab~", None)]


@given(any_profile_url)
def test_canonical_is_idempotent_and_valid(pair: tuple[str, str]) -> None:
    profile, url = pair
    once = canonical(url, profile)
    assert canonical(once, profile) == once
    assert urlsift.validate(once, profile).valid, once
    assert urlsift.validate(once, profile).scheme == urlsift.validate(url, profile).scheme


@given(any_profile_url)
def test_spellings_of_one_url_have_one_canonical_form(pair: tuple[str, str]) -> None:
    profile, url = pair
    scheme, rest = url.split(":", 1)
    assert canonical(scheme.upper() + ":" + rest, profile) == canonical(url, profile)
    # Escaping an unreserved character (outside the fragment) changes nothing either.
    body, hash_mark, fragment = rest.partition("#")
    spots = [m.start() for m in re.finditer(r"[A-Za-z0-9]", body) if not _in_escape(body, m.start())]
    for at in spots[-3:]:
        escaped = body[:at] + f"%{ord(body[at]):02x}" + body[at + 1 :]
        variant = scheme + ":" + escaped + hash_mark + fragment
        if urlsift.validate(variant, profile).valid:  # (not where the grammar takes no escape)
            assert canonical(variant, profile) == canonical(url, profile), variant


def _in_escape(text: str, at: int) -> bool:
    return any(m.start() < at < m.end() for m in re.finditer(r"%[0-9A-Fa-f]{2}", text))
