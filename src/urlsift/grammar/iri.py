"""IRIs (RFC 3987): the URI form of an IRI, and the warnings its host deserves.

The URI form (RFC 3987 3.1): the host through IDNA (UTS 46 mapping, then IDNA 2008, by the
``idna`` library: Python's own ``encodings.idna`` is IDNA 2003), everything else that is not ASCII
percent-encoded as UTF-8. Bidi and confusable checks are out of scope; a host label whose letters
come from more than one script gets a warning, as browsers' IDN display policies do.
"""

from __future__ import annotations

import idna
import regex

from .._model import Verdict, www_url
from ._profile import host_span

# Scripts that real host names combine within one label: Japanese mixes Han, Hiragana and
# Katakana (and Latin), Chinese Han and Bopomofo, Korean Han and Hangul.
_SCRIPTS = (  # noqa: SIM905 (a list of 32 names reads better as words)
    "Latin Greek Cyrillic Armenian Hebrew Arabic Syriac Thaana Devanagari Bengali Gurmukhi Gujarati "
    "Oriya Tamil Telugu Kannada Malayalam Sinhala Thai Lao Tibetan Myanmar Georgian Hangul Ethiopic "
    "Cherokee Khmer Mongolian Hiragana Katakana Bopomofo Han"
).split()
_SCRIPT = regex.compile("|".join(f"(?P<{name}>\\p{{Script={name}}})" for name in _SCRIPTS))
_CJK = frozenset({"Han", "Hiragana", "Katakana", "Bopomofo", "Hangul"})
_NOT_ASCII = regex.compile(r"[^\x00-\x7f]+")


def scripts(label: str) -> list[str]:
    """The scripts of ``label``'s letters, in order of first use (digits and "-" have none)."""
    found: list[str] = []
    for m in _SCRIPT.finditer(label):
        name = m.lastgroup
        if name is not None and name not in found:
            found.append(name)
    return found


def mixes_scripts(label: str) -> list[str] | None:
    """The scripts a label mixes, when it mixes them in a way no language does; None otherwise."""
    found = scripts(label)
    if len(found) < 2:
        return None
    if set(found) <= _CJK | {"Latin"} and not (set(found) >= {"Hangul", "Hiragana"}):
        return None  # Japanese, Chinese and Korean names are written so
    return found


def ascii_host(host: str) -> str:
    """``host`` through IDNA; ``idna.IDNAError`` when IDNA refuses it. Escapes in a reg-name are
    UTF-8 octets (RFC 3986 3.2.2), so they are decoded first."""
    from urllib.parse import unquote

    text = unquote(host, errors="strict") if "%" in host else host
    return idna.encode(text, uts46=True).decode("ascii")


def _encoded(text: str) -> str:
    return _NOT_ASCII.sub(lambda m: "".join(f"%{octet:02X}" for octet in m.group().encode("utf-8")), text)


def uri_form(iri: str, host_at: tuple[int, int] | None) -> str:
    """The URI an IRI maps to. ``host_at`` is where its host is (None: no host); a host IDNA
    refuses is percent-encoded like the rest (RFC 3987 3.1 allows both)."""
    if iri.isascii():
        return iri
    if host_at is None:
        return _encoded(iri)
    start, end = host_at
    host = iri[start:end]
    if not host.isascii():
        try:
            host = ascii_host(host)
        except (idna.IDNAError, UnicodeError):
            host = _encoded(host)
    return _encoded(iri[:start]) + host + _encoded(iri[end:])


def verdict_uri(verdict: Verdict) -> str | None:
    """``Verdict.uri``: the URI form of a valid IRI, the URL itself when it is ASCII, None when it
    is invalid. A "www." reference's is that of the http URL it stands for, less the prefix."""
    if not verdict.valid:
        return None
    if verdict.url.isascii():
        return verdict.url
    if verdict.scheme is None:
        url = www_url(verdict.url)
        return uri_form(url, _host_span(url))[len(url) - len(verdict.url) :]
    return uri_form(verdict.url, _host_span(verdict.url) if verdict.parts.get("host") is not None else None)


def _host_span(url: str) -> tuple[int, int] | None:
    """Where the host of a valid hierarchical URL is (the modern profile's: a non-ASCII URL is
    valid in no other)."""
    fragment = url.find("#")
    return host_span(url, url.find(":") + 1, len(url) if fragment < 0 else fragment, "/?")
