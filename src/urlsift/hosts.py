"""A valid URL's host columns (issue 30, D38): ``host`` as its scheme decomposes it, lower-cased,
in IDNA's ASCII form; ``host_unicode``, the same in IDNA's Unicode form; ``registered_domain``,
the host's domain bought from a registry, through the Public Suffix List's ICANN section (the
``publicsuffixlist`` package's offline snapshot); and ``surt``, the Internet Archive's SURT key of
an http, https or ftp URL, as its CDX and WACZ indexes write it. Worked out once per URL and per
host (rows repeat them: a list's footer in every message)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from types import ModuleType
from typing import Any
from urllib.parse import quote_from_bytes, unquote, unquote_to_bytes, urlsplit

from . import _select
from ._model import Part, www_url
from .grammar._profile import host_span

ARCHIVED = frozenset({"http", "https", "ftp"})
"""The schemes the Wayback Machine holds, and so the only ones given a ``wayback`` address and a
``surt`` key (D38)."""

HostColumns = tuple[str | None, str | None, str | None, str | None]
"""host, host_unicode, registered_domain, surt."""
NO_HOST: HostColumns = (None, None, None, None)

_CACHE_SIZE = 1 << 14
"""Hosts remembered (a host is short)."""
_URLS_HELD = 1 << 12
"""URLs whose columns are remembered: a URL and its SURT key may each be a few KiB long."""


def host_columns(url: str, scheme: str | None, parts: Mapping[str, Part]) -> HostColumns:
    """The four columns of a valid URL (``scheme`` None: a "www." host with no scheme, the http URL
    it stands for). ``parts``: its verdict's."""
    found = _seen.get(url)  # (the URL says its scheme: a scheme-less one is a "www." host's)
    return _held(url, _columns(url, scheme, parts)) if found is None else found


def native_host_columns(url: str, scheme: str | None, native: ModuleType) -> HostColumns | None:
    """``host_columns`` without the verdict's parts, where the ``native`` core works the columns
    out exactly as this module does (``rust/core/src/hosts.rs``'s ``columns`` decides: a URL of
    printable ASCII whose host is an ASCII name, no ``xn--``, no IP literal, in a ``//``
    authority or a mailto's one plain address; or an opaque URL, which has none); None where
    Python must."""
    found = _seen.get(url)
    if found is not None or not url.isascii():
        return found
    if scheme is None:
        url_of, scheme = www_url(url), "http"
    else:
        url_of = url
    worked_out: HostColumns | None = _native_hosts(native).columns(url_of, scheme)
    return None if worked_out is None else _held(url, worked_out)


def _held(url: str, columns: HostColumns) -> HostColumns:
    if len(_seen) >= _URLS_HELD:
        _seen.clear()
    _seen[url] = columns
    return columns


_seen: dict[str, HostColumns] = {}


@lru_cache(maxsize=2)
def _native_hosts(native: ModuleType) -> Any:
    """The core's host columns, given the Public Suffix List's file that the package reads (one
    list: the core parses the same bytes, at first use)."""
    from publicsuffixlist import PSLFILE

    with open(PSLFILE, "rb") as file:
        return native.HostColumns(file.read())


def _columns(url: str, scheme: str | None, parts: Mapping[str, Part]) -> HostColumns:
    if scheme is None:
        url, scheme = www_url(url), "http"
    written = _written_host(url, scheme, parts)
    if written is None:
        return NO_HOST
    host, host_unicode = _forms(written)
    key = surt(url) if scheme in ARCHIVED else None
    if written.startswith("["):  # an IP literal (IPv6, IPvFuture): no domain, no labels to reverse
        return host, host_unicode, None, None if key is None else _literal_key(url, written, key)
    return host, host_unicode, registered_domain(host), key


def _literal_key(url: str, written: str, key: str) -> str:
    """The SURT key of a URL whose host is an IP literal: the literal as written (lower-cased),
    not reversed as a name's labels are, and a port that is not the scheme's own."""
    try:
        split = urlsplit(url.strip())
        port = split.port
    except ValueError:
        return key
    if port is not None and port != _DEFAULT_PORTS.get(split.scheme.lower()):
        written = f"{written}:{port}"
    return written.lower() + key[key.index(")") :] if ")" in key else key


def _written_host(url: str, scheme: str, parts: Mapping[str, Part]) -> str | None:
    """The host as the URL writes it (D38): the ``host`` of a scheme that has one; a mailto's
    first address's domain; else the host of a ``scheme://`` authority. None for the rest (a
    news group, a Message-ID, a phone number: no host of the network)."""
    if "host" in parts:
        host = parts["host"]
        return host if isinstance(host, str) and host else None
    if scheme == "mailto":
        to = parts.get("to", parts.get("address"))
        first = to[0] if isinstance(to, tuple) and to else to.split(",")[0] if isinstance(to, str) else ""
        if isinstance(first, str) and "@" in first:
            # D38: the domain ends at "?": RFC 1738's address may hold one (an xchar), but what
            # follows is RFC 6068's header fields ("?subject=..."), never a host's name.
            return unquote(first.rpartition("@")[2].partition("?")[0]).strip() or None
        return None
    start = len(scheme) + 1
    if not url.startswith("//", start):
        return None
    fragment = url.find("#")
    span = host_span(url, start, len(url) if fragment < 0 else fragment, "/?")
    return url[span[0] : span[1]] or None if span is not None else None


@lru_cache(maxsize=_CACHE_SIZE)
def _forms(written: str) -> tuple[str, str]:
    """``host`` and ``host_unicode`` of a host as written: escapes decoded, lower-cased, an IPv6
    literal without its brackets, a final root dot dropped; each label of a name through IDNA
    (a label IDNA refuses kept as it is)."""
    host = unquote(written) if "%" in written else written
    host = host.lower().strip()
    if host.startswith("[") and host.endswith("]"):
        return host[1:-1], host[1:-1]
    if host.endswith(".") and len(host) > 1:
        host = host[:-1]
    if host.isascii():
        return host, _unicode(host) if "xn--" in host else host
    import idna  # (only for a host that is not ASCII: a strict run never loads it)

    try:
        ascii_form = idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        return host, host
    return ascii_form, _unicode(ascii_form)


def _unicode(host: str) -> str:
    import idna

    labels = []
    for label in host.split("."):
        try:
            labels.append(idna.decode(label) if label.startswith("xn--") else label)
        except (idna.IDNAError, UnicodeError):
            labels.append(label)
    return ".".join(labels)


_IPV4 = re.compile(r"\d+(\.\d+){3}")


@lru_cache(maxsize=_CACHE_SIZE)
def registered_domain(host: str) -> str | None:
    """The domain of ``host`` one label below its public suffix, by the Public Suffix List's ICANN
    section (D38: ``github.io`` for ``someone.github.io``, whose private section the list also
    has); None for an IP address, a public suffix itself, or a one-label name."""
    if ":" in host or _IPV4.fullmatch(host) or "." not in host:
        return None
    found: str | None
    if not host.isascii() or "xn--" in host.lower():
        found = _suffixes().privatesuffix(host)
    elif (native := _select.native()) is not None:
        # The core's parse of the same file answers a plain host: one list, parsed once a run.
        found = _native_hosts(native).registered_domain(host)
    else:
        found = _ascii_suffixes().privatesuffix(host)
    return found


@lru_cache(maxsize=1)
def _suffixes() -> Any:  # (the package is untyped)
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList(only_icann=True)


_ICANN = ("// ===BEGIN ICANN DOMAINS===", "// ===END ICANN DOMAINS===")  # D38: that section only


@lru_cache(maxsize=1)
def _ascii_suffixes() -> Any:
    """The package's list made of the ICANN section's ASCII rules alone, read from its own file:
    they decide every host that is ASCII with no ``xn--`` label, which no IDN rule (nor the IDNA
    form the package adds for one) can end. IDNA-encoding the IDN rules is most of the whole
    list's parse, which only a host that needs them pays (tests/results/test_host_columns.py
    holds the two to the whole list's answers, over every rule of the file)."""
    from publicsuffixlist import PSLFILE, PublicSuffixList

    with open(PSLFILE, "rb") as file:
        lines = file.read().split(b"\n")  # (as the package iterates the file: "\n" ends a line)
    ascii_rules: list[bytes] = []
    inside = False
    for line in lines:
        if line.startswith(b"// ==="):  # the package's only_icann: its section's markers
            marker = line.decode("utf8", "surrogateescape").rstrip()
            inside = marker == _ICANN[0] if marker in _ICANN else inside
        elif inside and (line.isascii() or _rule(line).isascii()):
            ascii_rules.append(line)
    return PublicSuffixList(ascii_rules, accept_encoded_idn=False)


def _rule(line: bytes) -> str:
    """A line's rule, read as the package reads it (``K``, the Kelvin sign, lower-cases to ASCII)."""
    return line.decode("utf8", "surrogateescape").lower().split(" ")[0].rstrip()


# --- SURT --------------------------------------------------------------------------------------
# The Internet Archive's canonical key (the ``surt`` package's default, a port of archive-commons'
# WaybackURLKeyMaker with its GoogleURLCanonicalizer and IAURLCanonicalizer): no scheme, the host's
# labels reversed and joined by commas up to ")", "www." (and "www2." ...) dropped, the default
# port dropped, user and password dropped, dot segments resolved, path and query lower-cased, the
# query's arguments sorted, known session ids and the fragment dropped. Unlike the package, an IP
# address written in decimal or octal is read here as the C library reads it, never resolved
# through DNS.

_SAFE = b"!\"$&'()*+,-./:;<=>?@[\\]^_`{|}~"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_WWW = re.compile(r"www\d*\.")
_NUMERIC_HOST = re.compile(r"(0[0-7]*|[1-9][0-9]*)(\.[0-9]+){0,3}|[0-9]+")
_PATH_SESSION = (
    r"(.*/)\((?:[a-z]\([0-9a-z]{24}\))+\)/",
    r"(.*/)\([0-9a-z]{24}\)/",
)
"""ASP.NET's session ids in a path: the package's ``^(.*/)(ID/)([^?]+[.]aspx.*)$``, less its
third group, which made it quadratic (a ``[^?]+`` run to the end after every candidate id):
an id goes when it ends before a character and then an ``.aspx`` (``_path_sessions``)."""
_QUERY_SESSION = (
    ("jsessionid=", r"^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$"),
    ("phpsessid=", r"^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$"),
    ("sid=", r"^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$"),
    ("aspsessionid", r"^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$"),
)
"""The package's session ids of a query, but its last, ColdFusion's ``cfid=...&cftoken=...``,
whose ``[^&]+`` after every ``cfid=`` makes that pattern quadratic (``_cold_fusion`` reads it)."""


@cache
def _sessions() -> tuple[tuple[re.Pattern[str], ...], tuple[tuple[str, re.Pattern[str]], ...]]:
    """``_PATH_SESSION`` and ``_QUERY_SESSION`` compiled (case-insensitive, as the package's), when
    a SURT key is first worked out in Python: the core works them out itself (issue 31), and their
    compiling was most of this module's import."""
    path = tuple(re.compile(text, re.IGNORECASE) for text in _PATH_SESSION)
    return path, tuple((named, re.compile(text, re.IGNORECASE)) for named, text in _QUERY_SESSION)


def surt(url: str) -> str | None:
    """The SURT key of an http, https or ftp URL (``com,example)/path?a=1&b=2``); None for a URL
    that has no host to key it by."""
    text = url.strip()
    if "\t" in text or "\r" in text or "\n" in text:  # (never in a valid URL: the package's step)
        text = text.replace("\t", "").replace("\r", "").replace("\n", "")
    try:
        split = urlsplit(text)
        port = split.port
    except ValueError:
        return None
    scheme = split.scheme.lower()
    host_text = split.hostname
    if not host_text:
        return None
    host = _surt_host(host_text)
    if not host:
        return None
    if port is not None and port == _DEFAULT_PORTS.get(scheme):
        port = None
    path = _path_sessions(_escape_once(_normal_path(_unescaped(split.path))).lower())
    if path.endswith("/") and len(path) > 1:
        path = path[:-1]
    query = _escape_once(_unescaped(split.query)) if split.query else ""
    if query:
        for named, pattern in _sessions()[1]:
            if named in query.lower() and (found := pattern.match(query)) is not None:
                query = found[1] + (found[2] or "")
        query = _cold_fusion(query)
        query = "&".join(sorted(query.lower().split("&"), key=_argument))
    key = ",".join(reversed(host.split("."))) + ("" if port is None else f":{port}") + ")"
    return key + (path or ("/" if query else "")) + (f"?{query}" if query else "")


def _path_sessions(path: str) -> str:
    """``path`` without the session ids the package drops, each pattern's once (its last id
    before the last ``.aspx`` that has a character before it and the id)."""
    for pattern in _sessions()[0]:
        aspx = path.rfind(".aspx")
        if aspx >= 1 and (found := pattern.match(path, 0, aspx - 1)) is not None:
            path = found[1] + path[found.end() :]
    return path


def _cold_fusion(query: str) -> str:
    """What the package's ``^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$`` (case-insensitive)
    leaves of ``query``, in one pass over its arguments: the last argument that ends in
    ``cfid=`` and a value, followed by one that is ``cftoken=`` and a value, goes with it (from
    that ``cfid=`` on), and the "&" after them."""
    arguments = query.split("&")
    lowered = [argument.lower() for argument in arguments]
    for k in range(len(arguments) - 2, -1, -1):
        token = lowered[k + 1]
        if not (token.startswith("cftoken=") and len(token) > len("cftoken=")):
            continue
        at = lowered[k].rfind("cfid=")
        if at >= 0 and at + len("cfid=") == len(lowered[k]):  # no value after the last: an earlier one
            at = lowered[k].rfind("cfid=", 0, at)
        if at < 0:
            continue
        before = "&".join(arguments[:k]) + ("&" if k else "") + arguments[k][:at]
        return before + "&".join(arguments[k + 2 :])
    return query


def _argument(argument: str) -> tuple[str, ...]:
    # The package sorts (name, value) pairs: "a" before "a=1" before "ab".
    return tuple(argument.split("=", 1))


def _surt_host(host: str) -> str:
    raw = _unescaped(host)
    try:
        name = raw.decode("ascii")
    except UnicodeDecodeError:
        import idna

        try:
            name = idna.encode(raw.decode("utf-8", "ignore"), uts46=True).decode("ascii")
        except (idna.IDNAError, UnicodeError):
            name = raw.decode("utf-8", "ignore")
    while ".." in name:
        name = name.replace("..", ".")
    name = name.strip(".")
    if _NUMERIC_HOST.fullmatch(name):
        import socket  # (for a numeric host only)

        with contextlib.suppress(OSError):  # 3232235521, 0300.0250.0.1, 192.168.1: as inet_aton reads them
            name = socket.inet_ntoa(socket.inet_aton(name))
    else:
        name = _escape_once(name.lower().encode("utf-8", "surrogateescape"))
    match = _WWW.match(name)
    return name[match.end() :] if match else name


def _unescaped(text: str | bytes) -> bytes:
    """``text``'s escapes decoded again and again, till none is left (the package's way), in
    linear time: after two rounds (all most URLs need) the rest are undone in one pass. No two
    escapes overlap (a "%" is not a hex digit), so the order they are undone in cannot change
    what is left; a pass that rereads the tail after each decoded byte leaves none."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    for _ in range(2):
        decoded = unquote_to_bytes(data)
        if decoded == data:
            return data
        data = decoded
    left = bytearray()
    for byte in data:
        left.append(byte)
        while len(left) >= 3 and left[-3] == 0x25 and left[-2] in _HEX and left[-1] in _HEX:
            value = int(left[-2:], 16)
            del left[-3:]
            left.append(value)
    return bytes(left)


_HEX = frozenset(b"0123456789abcdefABCDEF")


def _escape_once(data: bytes) -> str:
    return quote_from_bytes(data, safe=_SAFE) if data else ""


def _normal_path(path: bytes) -> bytes:
    """The path with its dot segments resolved (the package's ``normalizePath``)."""
    if not path:
        return b"/"
    kept: list[bytes] = []
    for segment in path.split(b"/")[1:]:
        if segment == b".":
            continue
        if segment == b".." and kept:
            kept.pop()
        else:
            kept.append(segment)
    if not kept:
        return b"/"
    return b"/" + b"".join(segment + b"/" for segment in kept[:-1] if segment) + kept[-1]


def host_form(host: str) -> str:
    """A host name as the ``host`` column writes it (what ``--host`` compares with)."""
    return _forms(host)[0] if host else host


def clear_caches() -> None:
    """Forget the columns worked out so far (a benchmark's cold start: bench/archive_speed.py)."""
    _seen.clear()
    _forms.cache_clear()
    registered_domain.cache_clear()
