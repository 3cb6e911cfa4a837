"""URL -> its canonical form (D30): the one spelling of the URLs that mean the same.

Scheme and host lower-cased (section 2.1: schemes are case-insensitive; so are host names in the
DNS), a default port dropped (the port table of section 3, as the profile knows it), escape hex in
upper case, escapes of unreserved characters decoded (section 2.2: they "may be encoded" and mean
the same either way), and an http URL's empty path written "/" (section 3.3: "the '/' may also be
omitted"). Never decoded: an escaped reserved or unsafe character (``%2F``, ``%3B``, ``%20``); never
changed: the case of a path, a fragment. Idempotent, and the result validates whenever the URL did.
"""

from __future__ import annotations

import re

from .grammar import STRICT, Profile, get_profile
from .validate import validate

_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_EMPTY_PATH_IS_SLASH = frozenset({"http", "https"})
"""Schemes whose empty path and "/" are the same resource (RFC 1738 3.3, RFC 9110 4.2.3)."""


def canonical(url: str, profile: Profile | str = STRICT) -> str:
    """The canonical form of ``url`` under ``profile``; a ValueError if ``url`` is not valid."""
    judge = get_profile(profile)
    verdict = validate(url, judge)
    if not verdict.valid or verdict.scheme is None:
        raise ValueError(f"not a valid URL under the {judge.name} profile: {url!r} ({verdict.error})")
    scheme = verdict.scheme
    hash_at = url.find("#")
    end = len(url) if hash_at < 0 else hash_at
    colon = len(scheme)
    rest = _ESCAPE.sub(lambda m: _escape(m.group(1), judge.unreserved), url[colon + 1 : end])
    if verdict.parts.get("host") is not None and rest.startswith("//"):
        rest = _authority(rest, judge.syntax(scheme).default_port, scheme in _EMPTY_PATH_IS_SLASH)
    return scheme + ":" + rest + url[end:]


def _escape(hex_digits: str, unreserved: str) -> str:
    char = chr(int(hex_digits, 16))
    return char if char in unreserved else "%" + hex_digits.upper()


def _authority(rest: str, default_port: int | None, slash_for_empty_path: bool) -> str:
    """``//[login@]host[:port]...`` with the host lower-cased and a default port dropped. The URL
    is valid, so no "/" comes before the host, the login ends at the last "@" before the first "/"
    (a user may hold "?" in RFC 1738), and the host and port end at the next "/" or "?"."""
    slash = rest.find("/", 2)
    login_end = rest.rfind("@", 2, len(rest) if slash < 0 else slash) + 1 or 2
    ends = (rest.find("/", login_end), rest.find("?", login_end))
    stop = min((at for at in ends if at >= 0), default=len(rest))
    login, hostport, after = rest[2:login_end], rest[login_end:stop], rest[stop:]
    host, colon, port = hostport.rpartition(":") if ":" in hostport else (hostport, "", "")
    if colon and port.isdigit() and default_port is not None and int(port) == default_port:
        colon = port = ""
    if slash_for_empty_path and not after.startswith("/"):
        after = "/" + after
    return "//" + login + host.lower() + colon + port + after
