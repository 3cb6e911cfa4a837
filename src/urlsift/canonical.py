"""URL -> its canonical form (D30): the one spelling of the URLs that mean the same.

Scheme and host lower-cased (section 2.1: schemes are case-insensitive; so are host names in the
DNS), a default port dropped (the port table of section 3, as the profile knows it), escape hex in
upper case, escapes of unreserved characters decoded (section 2.2: they "may be encoded" and mean
the same either way), and an http URL's empty path written "/" (section 3.3: "the '/' may also be
omitted"). Never decoded: an escaped reserved or unsafe character (``%2F``, ``%3B``, ``%20``); never
changed: the case of a path, a fragment. Idempotent, and the result validates whenever the URL did.

The modern profile's forms follow RFC 3986 6.2.2 and 6.2.3 the same way (its unreserved set, its
schemes' default ports, an empty port dropped), normalise the fragment's escapes too (6.2.2 covers
the whole reference), and remove dot segments from every RFC 3986 path, with or without an
authority, as 5.2.4 does ("/a/./b/../c" is "/a/c", "/a/.." is "/"; a query is no path), which RFC
1738 never gave a meaning; an IRI's canonical form is that of its URI form (RFC 3987 5.3.2.3
compares IRIs so), so "http://bücher.de/" and "http://xn--bcher-kva.de/" are one.
"""

from __future__ import annotations

import re

from ._model import Match, www_url
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
    syntax = judge.syntax(scheme)
    url = verdict.uri or url
    hash_at = url.find("#")
    end = len(url) if hash_at < 0 else hash_at
    body, fragment = url[len(scheme) + 1 : end], url[end:]
    if judge.fragment_escapes:
        fragment = _ESCAPE.sub(lambda m: _escape(m.group(1), judge.unreserved), fragment)

    def form(rest: str) -> str:
        head = ""
        if verdict.parts.get("host") is not None and rest.startswith("//"):
            head, rest = _authority(rest, syntax.default_port, judge.authority_ends)
            if scheme in _EMPTY_PATH_IS_SLASH and not rest.startswith("/"):
                rest = "/" + rest
        if judge.dot_segments and syntax.dot_segments:
            rest = _without_dot_segments(rest, after_authority=bool(head))
        return scheme + ":" + head + rest + fragment

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


def _authority(rest: str, default_port: int | None, ends_at: str) -> tuple[str, str]:
    """``//[login@]host[:port]`` with the host lower-cased and a default port dropped, and what
    follows it. The URL is valid, so no "/" comes before the host, the login ends at the last "@"
    before the end of the authority (the first of ``ends_at``: RFC 1738's user may hold "?", RFC
    3986's may not), and the host and port end at the next "/" or "?"."""
    span = host_span(rest, 0, len(rest), ends_at)
    login_end = 2 if span is None else span[0]  # None not reached: the caller saw the "//"
    ends = (rest.find("/", login_end), rest.find("?", login_end))
    stop = min((at for at in ends if at >= 0), default=len(rest))
    login, hostport, after = rest[2:login_end], rest[login_end:stop], rest[stop:]
    # An IP literal's colons are inside its brackets.
    host, colon, port = hostport.rpartition(":") if ":" in hostport.rpartition("]")[2] else (hostport, "", "")
    # RFC 3986 6.2.3: an empty port (modern only; strict refuses it) is no port.
    # (the default compared as digits: no int of a port of 5,000 digits)
    if colon and (not port or (default_port is not None and port.lstrip("0") == str(default_port))):
        colon = port = ""
    host = _ESCAPE.sub(lambda m: "%" + m.group(1).upper(), host.lower())  # escapes stay upper case
    return "//" + login + host + colon + port, after


def match_canonical(match: Match) -> str | None:
    """``Match.canonical``: the canonical form of a match's URL under the profile that judged it;
    None if it was rejected."""
    verdict = match.verdict
    if not verdict.valid:
        return None
    return canonical(match.url if verdict.scheme else www_url(match.url), verdict.profile)


def _without_dot_segments(rest: str, after_authority: bool) -> str:
    """RFC 3986 6.2.2.3 on ``rest``, what follows the authority (or the colon, with none): its
    path, up to the query, through remove_dot_segments (5.2.4), which applies to every path."""
    query = rest.find("?")
    end = len(rest) if query < 0 else query
    path = rest[:end]
    if "." not in path:
        return rest
    path = remove_dot_segments(path)
    if not after_authority and path.startswith("//"):
        # RFC 3986 3.3: with no authority a path cannot begin with "//" ("x:/.//a" would become
        # "x://a", a host "a"). The WHATWG URL standard writes "/." before such a path, which
        # 5.2.4 removes again: the form keeps its meaning and stays the same when normalised.
        path = "/." + path
    return path + rest[end:]


def remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4, its rules A to E in its order, with an index into ``path`` for the input
    buffer (linear time) and a list of the pieces rule E moved for the output buffer, so that rule
    C removes "the last segment and its preceding '/' (if any)" by dropping the last piece."""
    out: list[str] = []
    at, end = 0, len(path)
    while at < end:
        if path.startswith("../", at) or path.startswith("./", at):  # A
            at = path.index("/", at) + 1
        elif path.startswith("/./", at):  # B: "/./" becomes "/"
            at += 2
        elif at + 2 == end and path.startswith("/.", at):  # B: a final "/." becomes "/"
            out.append("/")
            at = end
        elif path.startswith("/../", at):  # C
            at += 3
            if out:
                out.pop()
        elif at + 3 == end and path.startswith("/..", at):  # C: a final "/.." becomes "/"
            if out:
                out.pop()
            out.append("/")
            at = end
        elif end - at <= 2 and path[at:] in {".", ".."}:  # D
            at = end
        else:  # E: the first segment, with its "/", up to the next "/"
            stop = path.find("/", at + 1)
            stop = end if stop < 0 else stop
            out.append(path[at:stop])
            at = stop
    return "".join(out)
