"""The modern profile: URLs by today's rules (D29).

RFC 3986's generic syntax widened to IRIs (RFC 3987), and the scheme RFCs that replaced RFC 1738's
sections: http and https (RFC 9110), mailto (RFC 6068), news and nntp (RFC 5538), file (RFC 8089),
gopher (RFC 4266), telnet (RFC 4248); ftp keeps RFC 1738's shape on RFC 3986's pieces; tel, urn,
sip, sips, cid and mid are their own RFCs' (``opaque``). Every other scheme is RFC 3986's ``URI``.
The grammar is in ``rfc3986``, ``schemes`` and ``opaque``; this module says what the parts are,
what deserves a warning, and why a string fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

import idna
import regex

from .._model import Caveat, CaveatKind, Part, Problem
from . import opaque
from . import rfc3986 as u
from . import schemes as s
from ._bnf import Failure, Rule, compile_pattern, to_regex
from ._explain import Stop, Wording, descriptions, explain
from ._profile import Decompose, Decomposed, Profile, RegexMatch, SchemeSyntax
from ._shared import (
    clip,
    control_caveats,
    gopher_parts,
    long_label_caveats,
    not_in_scheme,
    number,
    port_caveat,
    scheme_end,
    shown,
    utf8_escapes,
)
from .iri import ascii_host, mixes_scripts

# --- parts -----------------------------------------------------------------------------------


def _port(m: RegexMatch) -> int | str | None:
    # RFC 3986 6.2.3: an empty port is no port.
    text = m.group("port")
    return number(text) if text else None


def _server(m: RegexMatch) -> Decomposed:
    """host and port, and the userinfo where the rule has one (None: none; "" an empty one)."""
    parts: dict[str, Part] = {"host": m.group("host"), "port": _port(m)}
    starts = {"host": m.start("host")} if m.group("host") is not None else {}
    if m.group("port"):
        starts["port"] = m.start("port")
    if "userinfo" in m.re.groupindex:
        userinfo = m.group("userinfo")
        parts.update(user=None, password=None)
        if userinfo is not None:
            user, colon, password = userinfo.partition(":")
            parts.update(user=unquote(user), password=unquote(password) if colon else None)
            if colon:
                starts["password"] = m.start("userinfo") + len(user) + 1
    return Decomposed(parts, starts)


def _path(m: RegexMatch) -> str:
    """What follows the authority (or the colon, when there is none) up to the query."""
    start = m.end("authority") if m.group("authority") is not None else m.start()
    end = m.start("query") - 1 if m.group("query") is not None else m.end()
    return m.string[start:end]


def _generic(m: RegexMatch, scheme: str) -> Decomposed:
    found = _server(m) if m.group("authority") is not None else Decomposed({"host": None, "port": None})
    found.parts.update(scheme=scheme, path=_path(m), query=m.group("query"))
    return found


def _http(m: RegexMatch, scheme: str) -> Decomposed:
    found = _server(m)
    found.parts.update(path=_path(m), query=m.group("query"))
    return found


_TYPECODE = re.compile(r";type=([AIDaid])\Z")


def _ftp(m: RegexMatch, scheme: str) -> Decomposed:
    found = _server(m)
    path = _path(m)
    typecode = _TYPECODE.search(path)
    if typecode is not None:  # RFC 1738 3.2.2 (D11): ";type=" ends the last segment
        path = path[: typecode.start()]
    segments = tuple(unquote(segment) for segment in path[1:].split("/")) if path else ()
    found.parts.update(
        path=path[1:] if path else None,
        segments=segments,
        typecode=typecode.group(1) if typecode else None,
        query=m.group("query"),
    )
    return found


def _mailto(m: RegexMatch, scheme: str) -> Decomposed:
    to = m.group("to")
    headers = m.group("hfields")
    pairs = (field.partition("=") for field in headers[1:].split("&")) if headers else ()
    found = Decomposed(
        {
            "to": tuple(unquote(address) for address in to.split(",")) if to else (),
            "headers": tuple((unquote(name), unquote(value)) for name, _, value in pairs),
        }
    )
    if to:
        found.starts["to"] = m.start("to")
    return found


def _news(m: RegexMatch, scheme: str) -> Decomposed:
    # RFC 5538 2.1: "@" tells an article from newsgroups, as in RFC 1738.
    found = _server(m) if m.group("host") is not None else Decomposed({"host": None, "port": None})
    target = m.string[m.end("authority") + 1 if m.group("authority") is not None else m.start() : m.end()]
    is_article = "@" in target
    found.parts.update(
        article=unquote(target) if is_article else None,
        newsgroups=None if is_article else unquote(target),
    )
    return found


def _nntp(m: RegexMatch, scheme: str) -> Decomposed:
    found = _server(m)
    article = m.group("article_number")  # RFC 5538's 1*16DIGIT: never past ``number``'s bound
    found.parts.update(group=unquote(m.group("group")), article=None if article is None else number(article))
    return found


def _file(m: RegexMatch, scheme: str) -> Decomposed:
    # RFC 8089 2: no file-auth is the local host, as "localhost" and the empty host are.
    host = m.group("host")
    start = m.end("host") if host is not None else m.start()
    path = m.string[start : m.end()]
    segments = tuple(unquote(segment) for segment in path[1:].split("/"))
    found = Decomposed({"host": host or "", "path": path[1:], "segments": segments})
    if host:
        found.starts["host"] = m.start("host")
    return found


def _gopher(m: RegexMatch, scheme: str) -> Decomposed:
    return gopher_parts(m, _server(m))


def _telnet(m: RegexMatch, scheme: str) -> Decomposed:
    return _server(m)


# The schemes with a rule of their own, and their default ports (RFC 9110 4.2.1 and 4.2.2, RFC 5538
# 2.1 and 2.2, RFC 4266 2.1, RFC 4248 2; ftp RFC 1738 3.2).
_SCHEMES: dict[str, tuple[Decompose, int | None]] = {
    "http": (_http, 80),
    "https": (_http, 443),
    "ftp": (_ftp, 21),
    "mailto": (_mailto, None),
    "news": (_news, 119),
    "nntp": (_nntp, 119),
    "file": (_file, None),
    "gopher": (_gopher, 70),
    "telnet": (_telnet, 23),
}
# Schemes whose path is not RFC 3986's: a gopher selector, a newsgroup, mail addresses.
_OPAQUE_PATHS = frozenset({"gopher", "news", "nntp", "mailto"})
# Default ports of schemes judged by RFC 3986's generic syntax: wais and prospero (RFC 4156 and
# 4157), ws and wss (RFC 6455 3), ldap (RFC 4516 2), imap (RFC 5092 2), pop (RFC 2384 3), rtsp
# (RFC 2326 3.2), and snews and nntps (563, IANA's port for NNTP over TLS).
_GENERIC_PORTS = {
    "wais": 210,
    "prospero": 1525,
    "ws": 80,
    "wss": 443,
    "ldap": 389,
    "imap": 143,
    "pop": 110,
    "rtsp": 554,
    "snews": 563,
    "nntps": 563,
}

# --- explaining failures -------------------------------------------------------------------------

# Every character a URI may hold as itself somewhere (RFC 3986 2): what is not among them must
# always be encoded.
_URI_CHARS = frozenset(u.UNRESERVED + u.SUB_DELIMS + u.GEN_DELIMS + "%")
_IN_UCSCHAR = regex.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in u.UCSCHAR + u.IPRIVATE) + "]")
_CITES = {"http-URI": "RFC 9110 4.2", "mailtoURI": "RFC 6068 2", "newsURI": "RFC 5538 2.1"}


def _char_message(char: str) -> str | None:
    """RFC 3986 2 / RFC 3987 2.2 on a character no rule allows unencoded; None for one some rule
    allows (the trouble is where it stands)."""
    if char in _URI_CHARS or (char > "\x7f" and _IN_UCSCHAR.match(char)):
        return None
    if char < "\x80":
        return f"{shown(char)} cannot be in a URI (RFC 3986 section 2): encode it as %{ord(char):02X}"
    octets = utf8_escapes(char)
    if octets is None:
        return f"{shown(char)} is no character an IRI may hold"
    return f"{shown(char)} cannot be in an IRI (RFC 3987 2.2): encode its UTF-8 octets, {octets}"


def _scheme_stopped(char: str, at: int) -> str:
    if at == 0 and char.isascii() and char.isalnum():
        return "a scheme name starts with a letter (RFC 3986 3.1)"
    return not_in_scheme(char)


def _ip_literal_check(stop: Stop) -> Problem | None:
    """Inside an IP literal, the whole literal is what is wrong (RFC 3986 3.2.2)."""
    start = next((start for rule, start in stop.stack if rule.name == "IP-literal"), stop.position)
    if start >= stop.position:
        return None
    close = stop.url.find("]", start, stop.endpos)
    literal = clip(stop.url[start : close + 1 if close >= 0 else stop.endpos])
    message = f"'{literal}' is not an IPv6 address or an IPvFuture literal (RFC 3986 3.2.2)"
    return Problem(start, "IP-literal", message)


class ModernProfile(Profile):
    """URLs by today's rules: RFC 3986 and 3987, and the scheme RFCs after RFC 1738 (D29)."""

    name = "modern"
    # RFC 3986 2.3 and 6.2.2.2: escapes of unreserved characters are normalised by decoding.
    unreserved = u.UNRESERVED
    # RFC 3986 6.2.2.3: "/./" and "/../" are removed in a normalised URI.
    dot_segments = True
    fragment_escapes = True
    authority_ends = "/?"
    # Mail since the late 1990s says "see www.example.com": the scanner takes such host names.
    scheme_less_www = True

    def __init__(self) -> None:
        self._schemes = {
            scheme: SchemeSyntax(s.SCHEME_RULES[scheme], decompose, port, scheme not in _OPAQUE_PATHS)
            for scheme, (decompose, port) in _SCHEMES.items()
        }
        self._schemes.update(opaque.SCHEMES)  # tel, urn, sip, cid, mid: by their own RFCs (D35)
        self._generic = SchemeSyntax(u.URI, _generic)
        self._generic_with_port = {
            scheme: SchemeSyntax(u.URI, _generic, port) for scheme, port in _GENERIC_PORTS.items()
        }
        self.fragment = SchemeSyntax(u.fragment, lambda m, scheme: Decomposed({}))
        self.scheme_rule = u.scheme
        self._scheme = compile_pattern(to_regex(u.scheme.body))
        self.wording = Wording(
            escape="pct-encoded",
            authority="authority",
            authority_ends=self.authority_ends,
            char_message=_char_message,
            describe=descriptions(*MODERN_RULES),
            checks=(_ip_literal_check,),
            cites=_CITES,
        )
        self._compile_native()

    def syntaxes(self) -> Iterator[SchemeSyntax]:
        yield from self._schemes.values()
        yield from self._generic_with_port.values()
        yield self._generic
        yield self.fragment

    def syntax(self, scheme: str) -> SchemeSyntax:
        return self._schemes.get(scheme) or self._generic_with_port.get(scheme, self._generic)

    def scheme_syntaxes(self) -> tuple[dict[str, SchemeSyntax], SchemeSyntax]:
        return {**self._generic_with_port, **self._schemes}, self._generic

    def scheme_end(self, url: str, endpos: int) -> int | Problem:
        # RFC 3986 3.1: a letter, then letters, digits, "+", "-", "."; any case (2.1 of RFC 1738).
        return scheme_end(self._scheme, url, endpos, _scheme_stopped)

    def explain(self, url: str, endpos: int, failure: Failure, syntax: SchemeSyntax) -> Problem:
        return explain(url, endpos, failure, syntax, self.wording)

    def caveats(self, url: str, scheme: str, syntax: SchemeSyntax, found: Decomposed) -> tuple[Caveat, ...]:
        parts, starts = found.parts, found.starts
        out = port_caveat(scheme, parts, starts, syntax.default_port)
        if parts.get("password") is not None:
            message = "the URL carries a password: RFC 3986 3.2.1 deprecates 'user:password'"
            out.append(Caveat(CaveatKind.PASSWORD, starts["password"], message))
        host = parts.get("host")
        if isinstance(host, str) and host and not host.startswith("["):
            out.extend(_host_caveats(host, starts["host"]))
        out.extend(control_caveats(url, starts))
        return tuple(out)


_DOTTED_NUMBERS = re.compile(r"[0-9]++(?:\.[0-9]++)++\.?")


def _is_ipv4(host: str) -> bool:
    """RFC 3986's IPv4address: four dec-octets (0-255, no leading zero)."""
    octets = host.split(".")
    # (the length first: no int of a group of 5,000 digits)
    return len(octets) == 4 and all(
        o.isdigit() and len(o) <= 3 and o == str(int(o)) and int(o) <= 255 for o in octets
    )


def _host_caveats(host: str, start: int) -> list[Caveat]:
    """A reg-name that reads like an IPv4 address but is none, long labels, and IRI hosts: those
    IDNA refuses, and labels mixing scripts."""
    if _DOTTED_NUMBERS.fullmatch(host) and not _is_ipv4(host):
        message = f"'{clip(host)}' looks like an IPv4 address but is none (four dec-octets, 0-255)"
        return [Caveat(CaveatKind.HOSTNUMBER_RANGE, start, message)]
    out = long_label_caveats(host, start) if len(host) > 63 else []
    if host.startswith(".") or ".." in host:
        at = start if host.startswith(".") else start + host.index("..") + 1
        message = f"the host '{clip(host)}' has an empty label: RFC 3986 allows it, the DNS does not"
        out.append(Caveat(CaveatKind.EMPTY_LABEL, at, message))
    if host.isascii():
        return out
    try:
        ascii_host(host)
    except (idna.IDNAError, UnicodeError) as error:
        message = f"the host '{clip(host)}' is no IDNA name ({error}): its URI form escapes it"
        out.append(Caveat(CaveatKind.NOT_IDNA, start, message))
    offset = start
    for label in host.split("."):
        mixed = mixes_scripts(unquote(label))
        if mixed:
            message = f"the host label '{clip(unquote(label))}' mixes scripts ({', '.join(mixed)})"
            out.append(Caveat(CaveatKind.MIXED_SCRIPT, offset, message))
        offset += len(label) + 1
    return out


MODERN_RULES: tuple[Rule, ...] = (
    u.URI,
    u.fragment,
    *dict.fromkeys(s.SCHEME_RULES.values()),
    *dict.fromkeys(opaque.SCHEME_RULES.values()),
)
"""Every top-level production of the modern grammar (for tests that walk it)."""


MODERN = ModernProfile()
"""The modern profile (``urlsift.grammar.MODERN``, built when this module is first imported)."""
