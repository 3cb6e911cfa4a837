"""What the strict and the modern profile share: quoting input in messages, the section 6
warnings, and gopher's split at "%09" (RFC 1738 3.4 and RFC 4266 2 read it the same way)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from urllib.parse import unquote

from .._model import Caveat, CaveatKind, Part, Problem
from ._bnf import Pattern
from ._profile import Decomposed, RegexMatch


def clip(text: str, limit: int = 40) -> str:
    """Text of the input quoted in a message, cut short: a message is one readable sentence."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(char: str) -> str:
    return "a space" if char == " " else f"'{char}' (U+{ord(char):04X})"


def utf8_escapes(char: str) -> str | None:
    """``char``'s UTF-8 octets as escapes; None for a lone surrogate, which has none."""
    try:
        return "".join(f"%{octet:02X}" for octet in char.encode("utf-8"))
    except UnicodeEncodeError:
        return None


def scheme_end(scheme: Pattern, url: str, endpos: int, why: Callable[[str, int], str]) -> int | Problem:
    """The ":" that ends the scheme ``scheme`` reads at the start of ``url``, or why there is none:
    an empty scheme, the end of the text, or (``why(char, index)`` says) a character that stops it."""
    m = scheme.match(url, 0, endpos)
    colon = m.end() if m else 0
    if colon < endpos and url[colon] == ":":
        return colon if colon else Problem(0, "scheme", "the scheme name before ':' is empty")
    if colon >= endpos:
        return Problem(colon, "scheme", "no ':' after a scheme name: a URL starts with its scheme and ':'")
    return Problem(colon, "scheme", why(url[colon], colon))


def not_in_scheme(char: str) -> str:
    return f"{shown(char)} cannot be in a scheme name (letters, digits, '+', '-' and '.')"


# --- numbers -----------------------------------------------------------------------------------

MAX_NUMBER_DIGITS = 640
"""The most significant digits a port or an article number is turned into an int with: CPython
refuses to convert longer digit strings (4,300 by default, as few as 640 where a program lowers
its limit), and no port or article has that many."""


def number(digits: str) -> int | str:
    """A port's or an article number's value, from the digits the grammar read (``1*digit``, any
    length: RFC 1738 5 and RFC 3986 3.2.3 set no bound): an int, or, past ``MAX_NUMBER_DIGITS``
    significant digits, the digits as written, so that such a URL is judged like any other."""
    significant = digits.lstrip("0")  # CPython's limit counts leading zeros too
    if len(significant) > MAX_NUMBER_DIGITS:
        return digits
    return int(significant or "0")


# --- warnings ----------------------------------------------------------------------------------

_CONTROL_ESCAPE = re.compile(r"%(?:[01][0-9A-Fa-f]|7[Ff])")
_CONTROL_NAMES = {0x09: "TAB", 0x0A: "LF", 0x0D: "CR", 0x00: "NUL"}


def port_caveat(
    scheme: str, parts: Mapping[str, Part], starts: Mapping[str, int], default: int | None
) -> list[Caveat]:
    """Section 6 of RFC 1738: a port other than the scheme's default deserves a word."""
    port = parts.get("port")
    # A port kept as its digits (``number``) is past any default.
    if isinstance(port, (int, str)) and default is not None and port != default:
        message = f"port {clip(str(port))} is not the default port {default} of {scheme} (RFC 1738 section 6)"
        return [Caveat(CaveatKind.PORT, starts["port"], message)]
    return []


def control_caveats(url: str, starts: Mapping[str, int]) -> list[Caveat]:
    """Section 6: encoded control octets. D13: the %09 that separate gopher's search and gopher+
    string are its syntax, not smuggled."""
    if "%" not in url:
        return []
    separators = {at for key, at in starts.items() if key.startswith("tab-before-")}
    out = []
    for escape in _CONTROL_ESCAPE.finditer(url):
        if escape.start() in separators:
            continue
        octet = int(escape.group()[1:], 16)
        name = _CONTROL_NAMES.get(octet, f"0x{octet:02X}")
        message = f"encoded control octet {escape.group()} ({name}): section 6 warns of such delimiters"
        out.append(Caveat(CaveatKind.CONTROL, escape.start(), message))
    return out


def long_label_caveats(host: str, start: int) -> list[Caveat]:
    """D7: a host name label over RFC 1034's 63 characters."""
    out = []
    offset = start
    for label in host.split("."):
        if len(label) > 63:
            message = f"host name label of {len(label)} characters is over RFC 1034's 63 (D7)"
            out.append(Caveat(CaveatKind.LONG_LABEL, offset, message))
        offset += len(label) + 1
    return out


# --- gopher ------------------------------------------------------------------------------------

_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def gopher_parts(m: RegexMatch, found: Decomposed) -> Decomposed:
    """D13: gtype is the first xchar (an escape counts as one), the selector runs to the first %09,
    the search to the next, the gopher+ string is the rest. An empty gopher-path means type "1"
    and the empty selector (3.4.1), which only this decoded view says."""
    path = m.group("gopher_path") or ""
    gtype, rest = "1", ""
    if path:
        width = 3 if _ESCAPE.match(path) else 1  # an escape is one xchar (D5)
        gtype, rest = unquote(path[:width]), path[width:]
    selector, _, after = rest.partition("%09")
    search: str | None = None
    gopher_plus: str | None = None
    separators: dict[str, int] = {}
    if "%09" in rest:
        path_start = m.end("gopher_path") - len(rest)
        separators["search"] = path_start + len(selector)
        search, tab, plus = after.partition("%09")
        if tab:
            gopher_plus = plus
            separators["gopher_plus"] = separators["search"] + 3 + len(search)
    found.starts.update({f"tab-before-{name}": at for name, at in separators.items()})
    found.parts.update(
        gtype=gtype,
        selector=unquote(selector),
        search=None if search is None else unquote(search),
        gopher_plus=None if gopher_plus is None else unquote(gopher_plus),
    )
    return found
