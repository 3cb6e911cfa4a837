"""The strict profile: RFC 1738 as written (section 5), with its section 2, 3 and 6 prose.

Parts are decoded only where the RFC says a component is decoded before use (ftp segments 3.2.2,
the gopher selector 3.4.2, the prospero hsoname 3.11 ...); decoding is ``urllib.parse.unquote``'s
(octets read as UTF-8, invalid sequences replaced). Search parts and paths whose reserved characters
carry meaning are reported as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, cached_property
from typing import TYPE_CHECKING
from urllib.parse import unquote

from .._model import Caveat, CaveatKind, Part, Problem
from . import rfc1738 as g
from ._bnf import Failure, Rule, compile_pattern, furthest_failure, to_regex
from ._chars import ALPHADIGIT, UNRESERVED, UNSAFE, class_text, is_printable_ascii
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

if TYPE_CHECKING:
    from ._explain import Stop, Wording

# --- parts -----------------------------------------------------------------------------------


def _decoded(value: str | None) -> str | None:
    return None if value is None else unquote(value)


def _int(value: str | None) -> int | str | None:
    return None if value is None else number(value)


def _starts(m: RegexMatch, *names: str) -> dict[str, int]:
    # A loop: a comprehension costs a function object per call (Python 3.11), 2x this one's time.
    starts = {}
    for name in names:
        at = m.start(name)
        if at >= 0:  # -1: the part is not there
            starts[name] = at
    return starts


def _hostport(m: RegexMatch) -> Decomposed:
    host, port = m.group("host", "port")
    starts = {"host": m.start("host")}  # hostport = host [ ":" port ]: there is always a host
    if port is not None:
        starts["port"] = m.start("port")
    return Decomposed({"host": host, "port": _int(port)}, starts)


def _login(m: RegexMatch) -> Decomposed:
    # D9: None is "no user"/"no password", "" is an empty one.
    found = _hostport(m)
    user, password = m.group("user", "password")
    found.parts.update(user=_decoded(user), password=_decoded(password))
    if password is not None:
        found.starts["password"] = m.start("password")
    return found


def _segments(path: str | None) -> tuple[str, ...]:
    # D11: split on "/" first, then decode each segment, so "%2F" stays inside its segment.
    return () if path is None else tuple(unquote(segment) for segment in path.split("/"))


def _ftp(m: RegexMatch, scheme: str) -> Decomposed:
    found = _login(m)
    path = m.group("fpath")
    found.parts.update(path=path, segments=_segments(path), typecode=m.group("ftptype"))
    return found


def _file(m: RegexMatch, scheme: str) -> Decomposed:
    # D12: no host is the empty host, "the machine from which the URL is being interpreted".
    path = m.group("fpath")
    parts: dict[str, Part] = {"host": m.group("host") or "", "path": path, "segments": _segments(path)}
    return Decomposed(parts, _starts(m, "host"))


def _http(m: RegexMatch, scheme: str) -> Decomposed:
    found = _hostport(m)
    path, search = m.group("path", "search")
    found.parts.update(path=path, search=search)
    return found


def _gopher(m: RegexMatch, scheme: str) -> Decomposed:
    return gopher_parts(m, _hostport(m))


def _mailto(m: RegexMatch, scheme: str) -> Decomposed:
    return Decomposed({"address": unquote(m.group("address"))}, _starts(m, "address"))


def _news(m: RegexMatch, scheme: str) -> Decomposed:
    # D15: "A message identifier may be distinguished from a news group name by the presence of
    # the commercial at "@" character."
    grouppart = m.group("grouppart")
    if "@" in grouppart:
        return Decomposed({"group": None, "article": unquote(grouppart)})
    return Decomposed({"group": grouppart, "article": None})


def _nntp(m: RegexMatch, scheme: str) -> Decomposed:
    found = _hostport(m)
    found.parts.update(group=m.group("group"), article=_int(m.group("article_number")))
    return found


def _telnet(m: RegexMatch, scheme: str) -> Decomposed:
    return _login(m)


def _wais(m: RegexMatch, scheme: str) -> Decomposed:
    found = _hostport(m)
    found.parts.update(
        database=unquote(m.group("database")),
        search=m.group("search"),
        wtype=_decoded(m.group("wtype")),
        wpath=_decoded(m.group("wpath")),
    )
    return found


def _prospero(m: RegexMatch, scheme: str) -> Decomposed:
    # D18: the hsoname decoded ("//pros/name" -> "/pros/name"), the fields in order.
    # Neither a fieldname nor a fieldvalue holds ";" or "=", so the fields split on them exactly.
    found = _hostport(m)
    pairs = (spec.partition("=") for spec in m.string[m.end("ppath") : m.end()].split(";")[1:])
    fields = tuple((unquote(name), unquote(value)) for name, _, value in pairs)
    found.parts.update(path=unquote(m.group("ppath")), fields=fields)
    return found


# How a generic URL's login parts are read (its pattern compiled at the first one).
_IP_SCHEMEPART = SchemeSyntax(g.ip_schemepart, lambda m, scheme: _login(m))


def _generic(m: RegexMatch, scheme: str) -> Decomposed:
    # D1/A2: the verdict is *xchar's; the login parts are reported when the schemepart also reads
    # as "//" login [ "/" urlpath ].
    schemepart = m.group("schemepart")
    ip = _IP_SCHEMEPART.pattern.fullmatch(m.string, m.start("schemepart"), m.end("schemepart"))
    if ip is None:
        return Decomposed({"scheme": scheme, "schemepart": schemepart})
    login = _IP_SCHEMEPART.decompose(ip, scheme)
    parts = {"scheme": scheme, "schemepart": schemepart, **login.parts, "urlpath": ip.group("urlpath")}
    return Decomposed(parts, login.starts)


# Section 3's default ports; file, mailto and news have no port.
_SCHEMES: dict[str, tuple[Rule, Decompose, int | None]] = {
    "http": (g.httpurl, _http, 80),
    "ftp": (g.ftpurl, _ftp, 21),
    "news": (g.newsurl, _news, None),
    "nntp": (g.nntpurl, _nntp, 119),
    "telnet": (g.telneturl, _telnet, 23),
    "gopher": (g.gopherurl, _gopher, 70),
    "wais": (g.waisurl, _wais, 210),
    "mailto": (g.mailtourl, _mailto, None),
    "file": (g.fileurl, _file, None),
    "prospero": (g.prosperourl, _prospero, 1525),
}

# --- warnings ----------------------------------------------------------------------------------

# RFC 822 addr-spec (D14): local-part "@" domain, words and sub-domains of atoms, quoted strings
# and domain literals. CHAR is US-ASCII; specials = ( ) < > @ , ; : \ " . [ ]
_ATOM = r'[^()<>@,;:\\".\[\] \x00-\x1f\x7f-\U0010ffff]++'
_QUOTED = r'"(?:[^"\\\r\x80-\U0010ffff]|\\[\x00-\x7f])*+"'
_DOMAIN_LITERAL = r"\[(?:[^\[\]\\\r\x80-\U0010ffff]|\\[\x00-\x7f])*+\]"
_WORD = f"(?:{_ATOM}|{_QUOTED})"
_SUB_DOMAIN = f"(?:{_ATOM}|{_DOMAIN_LITERAL})"


@cache
def _addr_spec() -> re.Pattern[str]:
    """Compiled at the first mailto URL (its classes up to U+10FFFF take 20 ms to compile)."""
    return re.compile(f"{_WORD}(?:\\.{_WORD})*+@{_SUB_DOMAIN}(?:\\.{_SUB_DOMAIN})*+")


def _host_caveats(host: str, start: int) -> list[Caveat]:
    out: list[Caveat] = []
    labels = host.split(".")
    if len(labels) == 4 and all(label.isdigit() for label in labels):
        offset = start
        for label in labels:
            value = label.lstrip("0")
            if len(value) > 3 or int(value or "0") > 255:  # (no int of a label of 5,000 digits)
                message = f"host number group {clip(label)} is over 255 (D7)"
                out.append(Caveat(CaveatKind.HOSTNUMBER_RANGE, offset, message))
            offset += len(label) + 1
        return out
    return long_label_caveats(host, start)


# --- explaining failures -----------------------------------------------------------------------

_HOST_CHARS_AND_FOLLOWERS = ALPHADIGIT + ".-:/?@"


def _char_message(char: str) -> str:
    """Section 2.2 on a character no production allows unencoded."""
    if char in UNSAFE:
        return f"{shown(char)} is unsafe (section 2.2) and must be encoded as %{ord(char):02X}"
    if ord(char) < 0x80:
        return f"the control character U+{ord(char):04X} must be encoded as %{ord(char):02X}"
    octets = utf8_escapes(char)
    if octets is None:  # a lone surrogate has no octets to suggest
        return f"{shown(char)} is not a US-ASCII character and cannot be in a URL"
    return f"{shown(char)} is not US-ASCII: encode its octets (as UTF-8: {octets})"


# The run of host characters at a point, in one C-speed pass (a loop per character took 5 MB/s
# on a host of a megabyte).
_HOST_RUN = re.compile(f"[{class_text(ALPHADIGIT + '.-')}]*+")


def _host_problem(url: str, start: int, endpos: int) -> Problem | None:
    """D7, on the run of host characters at ``start``: read by the grammar's ``host``; when it is
    none, the words of the production that failed, at the place the grammar stopped."""
    match = _HOST_RUN.match(url, start, endpos)
    end = match.end() if match else start
    failure = furthest_failure(g.host, url, start, end) if end > start else None
    if failure is None:
        return None
    position = failure.position
    char = url[position] if position < end else None
    before = url[position - 1] if position > start else "."
    if before == "-":  # a label read up to hyphens it may not end with
        return Problem(position - 1, "domainlabel", g.LABEL_ENDS)
    if before == "." and char in ("-", "."):  # a label begun with no letter or digit, or none
        said = g.domainlabel.refused if char == "-" else g.domainlabel.missing
        return Problem(position, "domainlabel", _said(said))
    if char is not None:
        return None  # the explanation of the whole URL says it
    if before == ".":
        return Problem(position - 1, "hostname", _said(g.hostname.missing))
    token = url[start:end]
    if token.replace(".", "").isdigit():  # digit groups only: meant as a host number
        groups = token.count(".") + 1
        return Problem(start, "hostnumber", f"{_said(g.hostnumber.missing)}; '{clip(token)}' has {groups}")
    last_label = max(url.rfind(".", start, end) + 1, start)
    return Problem(last_label, "toplabel", _said(g.toplabel.refused))


def _said(message: str | None) -> str:
    """A D7 message the host grammar carries (``rfc1738.domainlabel`` ...)."""
    if message is None:
        raise TypeError("the host grammar lost one of its D7 messages")
    return message


def _unencodable(char: str) -> str | None:
    return _char_message(char) if char in UNSAFE or not is_printable_ascii(char) else None


def _host_check(stop: Stop) -> Problem | None:
    """D7: a host is judged whole (its labels, dots, digit groups), but for a character no host may
    hold, which is the culprit itself ("a-~b" fails at "~", not "-")."""
    host_start = next((start for rule, start in stop.stack if rule.name == "host"), None)
    if host_start is None:
        return None
    position, char, production = stop.position, stop.char, stop.production
    if char is not None and char not in _HOST_CHARS_AND_FOLLOWERS:
        return Problem(position, production, f"{shown(char)} cannot be in a host name")
    problem = _host_problem(stop.url, host_start, stop.endpos)
    if problem is not None:
        return problem
    if char is None or position == host_start:
        return Problem(host_start, "host", "the host is missing")
    return Problem(position, production, f"{shown(char)} cannot be in a host name")


def _scheme_stopped(char: str, at: int) -> str:
    """Why ``char`` cannot continue a scheme name: section 2.2 for what is never in a URL."""
    return _char_message(char) if char in UNSAFE or not is_printable_ascii(char) else not_in_scheme(char)


class StrictProfile(Profile):
    """RFC 1738, strictly: the default profile."""

    name = "strict"
    # D30, section 2.2: "characters that are not required to be encoded ... may be encoded".
    unreserved = UNRESERVED

    def __init__(self) -> None:
        self._schemes = {
            scheme: SchemeSyntax(rule, decompose, port)
            for scheme, (rule, decompose, port) in _SCHEMES.items()
        }
        self._generic = SchemeSyntax(g.genericurl, _generic)
        self.fragment = SchemeSyntax(g.fragment, lambda m, scheme: Decomposed({}))
        self.scheme_rule = g.scheme
        self._scheme = compile_pattern(to_regex(g.scheme.body))
        self._compile_native()

    @cached_property
    def wording(self) -> Wording:
        """How this profile tells a failure: made, with ``_explain``, when the first is explained
        (a run under the native core may never explain one)."""
        from ._explain import Wording, descriptions

        return Wording(
            escape="escape",
            authority="hostport",
            authority_ends=self.authority_ends,
            char_message=_unencodable,
            describe=descriptions(*STRICT_RULES),
            checks=(_host_check,),
        )

    def syntaxes(self) -> Iterator[SchemeSyntax]:
        yield from self._schemes.values()
        yield self._generic
        yield self.fragment

    def syntax(self, scheme: str) -> SchemeSyntax:
        return self._schemes.get(scheme, self._generic)  # D1

    def scheme_syntaxes(self) -> tuple[dict[str, SchemeSyntax], SchemeSyntax]:
        return dict(self._schemes), self._generic  # D1

    def scheme_end(self, url: str, endpos: int) -> int | Problem:
        # D2: any case of US-ASCII letters (the class is explicit: no Unicode case folding).
        return scheme_end(self._scheme, url, endpos, _scheme_stopped)

    def explain(self, url: str, endpos: int, failure: Failure, syntax: SchemeSyntax) -> Problem:
        from ._explain import explain

        return explain(url, endpos, failure, syntax, self.wording)

    def caveats(self, url: str, scheme: str, syntax: SchemeSyntax, found: Decomposed) -> tuple[Caveat, ...]:
        parts, starts = found.parts, found.starts
        out = port_caveat(scheme, parts, starts, syntax.default_port)
        if parts.get("password"):
            message = "the URL carries a password, which section 6 calls 'clearly unwise'"
            out.append(Caveat(CaveatKind.PASSWORD, starts["password"], message))
        host = parts.get("host")
        # No label can pass 63 characters, nor a digit group 255, in a host shorter than 64
        # that is not all digits and dots: most hosts need no split.
        if isinstance(host, str) and host and (len(host) > 63 or host[-1].isdigit()):
            out.extend(_host_caveats(host, starts["host"]))
        address = parts.get("address")
        if isinstance(address, str) and not _addr_spec().fullmatch(address):
            message = f"'{clip(address)}' is not an RFC 822 addr-spec (local-part@domain) (D14)"
            out.append(Caveat(CaveatKind.NOT_ADDR_SPEC, starts["address"], message))
        out.extend(control_caveats(url, starts))
        return tuple(out)


STRICT_RULES: tuple[Rule, ...] = (
    g.genericurl,
    g.ip_schemepart,
    g.fragment,
    *(rule for rule, _, _ in _SCHEMES.values()),
)
"""Every top-level production of the strict grammar (for tests that walk it)."""
