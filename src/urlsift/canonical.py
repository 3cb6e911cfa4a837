"""URL -> its canonical form (D30): the one spelling of the URLs that mean the same.

Scheme and host lower-cased (section 2.1: schemes are case-insensitive; so are host names in the
DNS), a default port dropped (the port table of section 3, as the profile knows it), escape hex in
upper case, escapes of unreserved characters decoded (section 2.2: they "may be encoded" and mean
the same either way), and an http URL's empty path written "/" (section 3.3: "the '/' may also be
omitted"). Never decoded: an escaped reserved or unsafe character (``%2F``, ``%3B``, ``%20``); never
changed: the case of a path, a fragment. Idempotent, and the result validates whenever the URL did.

The modern profile's forms follow RFC 3986 6.2.2 and 6.2.3 the same way (its unreserved set, its
schemes' default ports, an empty port dropped) and also remove dot segments ("/a/./b/../c" is
"/a/c"), which RFC 1738 never gave a meaning; an IRI's canonical form is that of its URI form
(RFC 3987 5.3.2.3 compares IRIs so), so "http://bücher.de/" and "http://xn--bcher-kva.de/" are one.
"""

from __future__ import annotations

import re

from ._model import LATER, Match, www_url
from .grammar import STRICT, Profile, get_profile
from .grammar._profile import host_span
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
    url = verdict.uri or url
    hash_at = url.find("#")
    end = len(url) if hash_at < 0 else hash_at
    body, fragment = url[len(scheme) + 1 : end], url[end:]

    def form(rest: str) -> str:
        if verdict.parts.get("host") is not None and rest.startswith("//"):
            syntax = judge.syntax(scheme)
            rest = _authority(rest, syntax.default_port, scheme in _EMPTY_PATH_IS_SLASH, judge.authority_ends)
            if judge.dot_segments and syntax.dot_segments:
                rest = _without_dot_segments(rest)
        return scheme + ":" + rest + fragment

    decoded = form(_ESCAPE.sub(lambda m: _escape(m.group(1), judge.unreserved), body))
    if validate(decoded, judge).valid:
        return decoded
    # A scheme's grammar may give a decoded character a role its escape does not have (a "."
    # between the atoms of a mail address): escapes are then decoded one at a time, each only
    # if the URL stays valid, left to right.
    body = _ESCAPE.sub(lambda m: "%" + m.group(1).upper(), body)
    at = 0
    while (m := _ESCAPE.search(body, at)) is not None:
        char = _escape(m.group(1), judge.unreserved)
        trial = body[: m.start()] + char + body[m.end() :]
        if len(char) == 1 and validate(form(trial), judge).valid:
            body, at = trial, m.start() + 1
        else:
            at = m.end()
    return form(body)


def _escape(hex_digits: str, unreserved: str) -> str:
    char = chr(int(hex_digits, 16))
    return char if char in unreserved else "%" + hex_digits.upper()


def _authority(rest: str, default_port: int | None, slash_for_empty_path: bool, ends_at: str) -> str:
    """``//[login@]host[:port]...`` with the host lower-cased and a default port dropped. The URL
    is valid, so the authority ends at the first of ``ends_at`` (RFC 1738's user may hold "?",
    RFC 3986's may not), the login at its last "@", and the host and port at the next "/" or "?"."""
    span = host_span(rest, 0, len(rest), ends_at)
    if span is None:  # not reached: the caller saw the "//"
        return rest
    login_end = span[0]
    ends = (rest.find("/", login_end), rest.find("?", login_end))
    stop = min((at for at in ends if at >= 0), default=len(rest))
    login, hostport, after = rest[2:login_end], rest[login_end:stop], rest[stop:]
    # An IP literal's colons are inside its brackets.
    host, colon, port = hostport.rpartition(":") if ":" in hostport.rpartition("]")[2] else (hostport, "", "")
    # RFC 3986 6.2.3: an empty port (modern only; strict refuses it) is no port.
    if colon and (not port or (default_port is not None and int(port) == default_port)):
        colon = port = ""
    if slash_for_empty_path and not after.startswith("/"):
        after = "/" + after
    host = _ESCAPE.sub(lambda m: "%" + m.group(1).upper(), host.lower())  # escapes stay upper case
    return "//" + login + host + colon + port + after


def match_canonical(match: Match) -> str | None:
    """``Match.canonical``: the canonical form of a match's URL under the profile that judged it;
    None if it was rejected."""
    verdict = match.verdict
    if not verdict.valid:
        return None
    return canonical(match.url if verdict.scheme else www_url(match.url), verdict.profile)


LATER.canonical = match_canonical


def _without_dot_segments(rest: str) -> str:
    """RFC 3986 5.2.4 on the path of ``//authority/path?query`` (6.2.2.3)."""
    slash = rest.find("/", 2)
    if slash < 0:
        return rest
    query = rest.find("?", slash)
    end = len(rest) if query < 0 else query
    path = rest[slash:end]
    if "." not in path:
        return rest
    out: list[str] = []
    for segment in path[1:].split("/"):
        if segment == "..":
            if out:
                out.pop()
        elif segment != ".":
            out.append(segment)
    last = path.rsplit("/", 1)[1]
    trailing = "/" if last in {".", ".."} else ""
    return rest[:slash] + "/" + "/".join(out) + trailing + rest[end:]
