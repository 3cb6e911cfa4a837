"""canonical(): D30 on examples, and its properties on generated URLs of every scheme."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import any_profile_url, urls

import urlsift
from urlsift import canonical
from urlsift.canonical import remove_dot_segments
from urlsift.grammar import get_profile

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


STRICT_DOT_SEGMENTS = [
    # RFC 1738 gives "." and ".." segments no meaning (D30): the strict form keeps them, decoded
    "http://h/a/..",
    "http://h/a/./b/../c",
    "file:///.",
    "ftp://h/../a;type=i",
    "x://h/./a?next=/a/../b",
]


@pytest.mark.parametrize("url", STRICT_DOT_SEGMENTS)
def test_strict_keeps_dot_segments(url: str) -> None:
    assert canonical(url) == url
    assert canonical("http://h/%2e%2E/a/%2E") == "http://h/../a/."


MODERN_EXAMPLES = [
    # RFC 3986 5.2.4: a final "." or ".." leaves its "/", never "//"
    ("http://h/a/..", "http://h/"),
    ("http://h/a/.", "http://h/a/"),
    ("http://h/a/b/../../../..", "http://h/"),
    ("http://h/a/..?q", "http://h/?q"),
    ("file:///.", "file:///"),
    ("file:///a/b/..", "file:///a/"),
    # the query is no path: its dot segments stay, with or without a path before it
    ("x://h?next=/a/../b", "x://h?next=/a/../b"),
    ("x://h/p/./?next=/a/../b", "x://h/p/?next=/a/../b"),
    ("http://h?./..", "http://h/?./.."),
    # 5.2.4 applies to every path, with or without an authority
    ("file:/a/../b", "file:/b"),
    ("x:/a/./b/../c", "x:/a/c"),
    ("x:a/b/../c", "x:a/c"),
    ("x:a/../b", "x:/b"),  # rule C leaves the "/" that followed "a"
    ("x:./a:b", "x:a:b"),
    ("x:..", "x:"),
    # escapes of "." are dot segments once decoded (6.2.2.2 comes before 6.2.2.3)
    ("http://h/a/%2e%2E/%2E", "http://h/"),
    # RFC 3986 3.3: with no authority the path cannot begin with "//"; "/." keeps it from it
    ("x:/.//a", "x:/.//a"),
    ("x:/a/..//b", "x:/.//b"),
    ("file:/.//etc", "file:/.//etc"),
    # 6.2.2.1 and 6.2.2.2 apply to the fragment's escapes too; its dot segments are no path's
    ("http://H/a#%7e%41B", "http://h/a#~AB"),
    ("x://h/#%2f%3a/../%2E", "x://h/#%2F%3A/../."),
    # selectors, newsgroups and addresses are no RFC 3986 paths
    ("gopher://h/1/a/../b", "gopher://h/1/a/../b"),
    ("news:a.b", "news:a.b"),
]


@pytest.mark.parametrize(("url", "expected"), MODERN_EXAMPLES)
def test_modern_examples(url: str, expected: str) -> None:
    assert canonical(url, "modern") == expected
    assert canonical(expected, "modern") == expected
    assert urlsift.validate(expected, "modern").valid


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


# --- an independent RFC 3986 normaliser ----------------------------------------------------------
# Written from RFC 3986 itself, not from urlsift: appendix B splits a URI reference, 6.2.2.1
# upper-cases escape hex and lower-cases scheme and host, 6.2.2.2 decodes escapes of unreserved
# characters, 6.2.2.3 runs 5.2.4's remove_dot_segments on the path, 6.2.3 drops an empty port.

_RFC3986_APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?")
_RFC3986_UNRESERVED = string.ascii_letters + string.digits + "-._~"


def _rfc_escapes(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        char = chr(int(m.group(1), 16))
        return char if char in _RFC3986_UNRESERVED else "%" + m.group(1).upper()

    return re.sub("%([0-9A-Fa-f]{2})", one, text)


def rfc_remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4's pseudo-code, line by line, with two string buffers."""
    inp, out = path, ""
    while inp:
        if inp.startswith("../"):  # A
            inp = inp[3:]
        elif inp.startswith("./"):  # A
            inp = inp[2:]
        elif inp.startswith("/./"):  # B
            inp = "/" + inp[3:]
        elif inp == "/.":  # B
            inp = "/"
        elif inp.startswith("/../") or inp == "/..":  # C
            inp = "/" + inp[4:]
            out = out[: out.rfind("/")] if "/" in out else ""
        elif inp in {".", ".."}:  # D
            inp = ""
        else:  # E
            stop = inp.find("/", 1)
            stop = len(inp) if stop < 0 else stop
            out, inp = out + inp[:stop], inp[stop:]
    return out


def rfc3986_normalised(uri: str) -> str:
    m = _RFC3986_APPENDIX_B.match(uri)
    assert m is not None
    scheme, authority, path, query, fragment = m.group(2), m.group(4), m.group(5), m.group(7), m.group(9)
    out = scheme.lower() + ":"
    if authority is not None:
        userinfo, at, hostport = authority.rpartition("@")
        host, colon, port = (
            hostport.rpartition(":") if ":" in hostport.rpartition("]")[2] else (hostport, "", "")
        )
        out += "//" + _rfc_escapes(userinfo) + at + _rfc_escapes(_rfc_escapes(host).lower())
        out += colon + port if port else ""
    path = rfc_remove_dot_segments(_rfc_escapes(path))
    if authority is None and path.startswith("//"):
        path = "/." + path  # 3.3: no "//" without an authority (urlsift's one addition)
    out += path
    out += "" if query is None else "?" + _rfc_escapes(query)
    return out + ("" if fragment is None else "#" + _rfc_escapes(fragment))


_DOT_SEGMENTS = st.sampled_from(
    [".", "..", "%2E", "%2e%2E", ".%2e", "a", "B", "%7e", "%41", "", "a:b", "..a", ".b"]
)


@st.composite
def dotted_uris(draw: st.DrawFn) -> str:
    """Generic URIs whose paths, queries and fragments are full of dot segments and escapes."""
    scheme = draw(st.sampled_from(["x", "Ex-1", "web+A.b"]))
    authority = draw(st.sampled_from([None, "", "h", "U%41@Host.%7E:", "[::1]:8", "HOST:08"]))
    segments = draw(st.lists(_DOT_SEGMENTS, max_size=7))
    if authority is not None:
        path = "//" + authority + "".join("/" + segment for segment in segments)
    else:
        path = draw(st.sampled_from(["/", ""])) + "/".join(segments)
    query = draw(st.sampled_from(["", "?", "?next=/a/../b", "?%7e/./%2E."]))
    fragment = draw(st.sampled_from(["", "#", "#%7e%41/../x", "#%2f./"]))
    return scheme + ":" + path + query + fragment


def _generic_uri(url: str) -> str:
    """The URI form of a generic URI of the modern profile, with no default port known."""
    verdict = urlsift.validate(url, "modern")
    assume(verdict.valid and verdict.scheme is not None)
    syntax = get_profile("modern").syntax(verdict.scheme or "")
    assume(syntax.rule.name == "URI" and syntax.default_port is None)
    return verdict.uri or url


@given(st.one_of(dotted_uris(), urls("other", "modern")))
def test_modern_generic_forms_are_rfc3986_normalisation(url: str) -> None:
    uri = _generic_uri(url)
    once = canonical(url, "modern")
    assert once == rfc3986_normalised(uri)
    assert canonical(once, "modern") == once
    assert urlsift.validate(once, "modern").valid, once


@given(st.lists(_DOT_SEGMENTS, max_size=8), st.booleans())
def test_remove_dot_segments_is_rfc3986s(segments: list[str], absolute: bool) -> None:
    path = ("/" if absolute else "") + "/".join(segments).replace("%2E", ".").replace("%2e", ".")
    assert remove_dot_segments(path) == rfc_remove_dot_segments(path)
