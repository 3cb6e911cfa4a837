"""Every <URL:...> of RFC 1738 and of its Chinese translation, found and rejoined.

The lists below were checked by hand once against the texts (grep for "URL:" and reading each
wrapper, including the reference list's wrappers broken across lines); the counts are asserted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pictures import check_consistent

import urlsift

pytestmark = pytest.mark.usefixtures("core")  # issue 31: each test on both cores

CORPORA = Path(__file__).parents[2] / "corpora"

# The 30 wrappers of RFC 1738 in text order (the clean copy and the translation agree).
RFC1738_URLS = [
    "http://www.acl.lanl.gov/URI/archive/uri-archive.index.html",
    "ftp://@host.com/",
    "ftp://host.com/",
    "ftp://foo:@host.com/",
    "ftp://myname@host.dom/%2Fetc/motd",
    "ftp://myname@host.dom/etc/motd",
    "ftp://myname@host.dom//etc/motd",
    "news:*",
    "file://vms.host.edu/disk$user/my/notes/note12345.txt",
    "prospero://host.dom//pros/name",
    "ftp://info.cern.ch/pub/www/doc;type=d",
    "ftp://ds.internic.net/rfc",
    "http://ds.internic.net/instructions/overview.html#WARNING",
    "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
    "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
    "ftp://ds.internic.net/rfc/rfc1630.txt",
    "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z",
    "ftp://ds.internic.net/rfc/rfc1123.txt",
    "ftp://ds.internic.net/rfc/rfc822.txt",
    "ftp://quake.think.com/pub/wais/doc/protspec.txt",
    "ftp://ds.internic.net/rfc/rfc1036.txt",
    "ftp://quake.think.com/pub/wais/doc/doc-ids.txt",
    "ftp://ds.internic.net/rfc/rfc977.txt",
    "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
    "ftp://ds.internic.net/rfc/rfc1034.txt",
    "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
    "ftp://ds.internic.net/rfc/rfc959.txt",
    "ftp://ds.internic.net/rfc/rfc1737.txt",
    "ftp://ds.internic.net/rfc/rfc1625.txt",
    "ftp://uu.psi.com/wp/nir.txt",
]


def _unproxied(url: str) -> str:
    """The proxy wrote ``ftp://HOST/rest`` as ``ftp://meilu.jpshuntong.com/url-HEX/rest`` with HEX the
    hexadecimal of "http://HOST"."""
    rewritten = re.fullmatch(r"ftp://meilu\.jpshuntong\.com/url-([0-9a-f]+)(.*)", url)
    if rewritten is None:
        return url
    origin = bytes.fromhex(rewritten.group(1)).decode("ascii")
    return "ftp://" + origin.removeprefix("http://") + rewritten.group(2)


def _extract(name: str) -> tuple[str, list[urlsift.Match]]:
    text = (CORPORA / name).read_text(encoding="utf-8")
    return text, list(urlsift.extract(text))


def test_rfc1738_every_wrapper() -> None:
    text, matches = _extract("rfc/rfc1738.txt")
    assert [m.url for m in matches] == RFC1738_URLS
    assert len(matches) == text.count("<URL:") == 30
    assert all(m.wrapper == "URL:" and not m.alternatives for m in matches)
    for match in matches:
        check_consistent(text, match)


def test_rfc1738_proxy_rewritten_copy() -> None:
    _, matches = _extract("rfc/rfc1738-proxy-rewritten.txt")
    assert [_unproxied(m.url) for m in matches] == RFC1738_URLS
    assert sum(1 for m in matches if _unproxied(m.url) != m.url) == 15
    assert [m.line for m in matches][-3:] == [1348, 1354, 1358]


def test_the_chinese_translation() -> None:
    text, matches = _extract("text/rfc1738-zh-translation.txt")
    assert [m.url for m in matches] == RFC1738_URLS
    # One reference lost its brackets in the translation and keeps only the URL: prefix; one
    # wrapper is "< " + line break + "URL:"; full-width punctuation follows several ">".
    assert [m.wrapper for m in matches].count("URL:") == 29
    (prefixed,) = (m for m in matches if m.naked)
    assert text[prefixed.span[0] : prefixed.pieces[0][0]] == "URL:"
    broken = matches[2]
    assert text[broken.span[0] : broken.pieces[0][0]] == "< \n            URL:"
    assert "\u00a0" in text[matches[-1].span[0] - 20 : matches[-1].span[0]]
    for match in matches:
        check_consistent(text, match)
