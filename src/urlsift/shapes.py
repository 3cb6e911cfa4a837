"""What the scanner asks of a URL found in text beyond its grammar (D33, D35): a candidate that is
valid by the grammar but has none of the shapes below is no URL of the text.

- D33: ``scheme:`` with nothing after the colon (``"https:"``, ``<news:>``) is a scheme named,
  never a URL, in either profile (the generic grammar would take the empty schemepart).
- D35: a naked candidate of an opaque registered scheme must have the shape its own RFC gives it:
  ``tel:`` RFC 3966, ``urn:`` RFC 8141, ``sip:``/``sips:`` RFC 3261, ``cid:``/``mid:`` RFC 2392,
  ``xmpp:`` RFC 5122. Signature labels (``Tel:(416) 324.8704``, ``URN:`` in a form) are not.
  ``mailto:`` and ``news:`` have their own productions already (D14, D15). Wrappers vouch for what
  they hold, and a ``//`` form is judged by the grammar alone.

Only the shape is checked here, by character sets and splits (no regex that could backtrack): the
grammar's verdict stays the validator's.
"""

from __future__ import annotations

from collections.abc import Callable

from ._model import NotInText, Problem

_DIGITS = frozenset("0123456789")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_VISUAL_SEPARATORS = frozenset("-.()")  # RFC 3966 visual-separator
_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_HOST_CHARS = _ALNUM | frozenset("-.")
_MAX_NID = 32  # RFC 8141: NID = (alphanum) 0*30(ldh) (alphanum)


def empty_scheme_part(url: str) -> Problem | None:
    """D33: ``scheme:`` and nothing after it."""
    colon = url.find(":")
    if colon > 0 and colon == len(url) - 1:
        message = "no URL: nothing follows the scheme's colon (D33)"
        return Problem(len(url), "schemepart", message, NotInText.EMPTY_SCHEME_PART)
    return None


def opaque_shape(url: str) -> Problem | None:
    """D35: the shape a naked ``url`` of an opaque registered scheme must have; None when it has it
    (or its scheme is none of those, or it is written with ``//``)."""
    colon = url.find(":")
    check = _SHAPES.get(url[:colon].lower()) if colon > 0 else None
    if check is None or url.startswith("//", colon + 1):
        return None
    production, what = check
    if what(url[colon + 1 :].split("#", 1)[0]):  # D4: a fragment is no part of the scheme's shape
        return None
    scheme = url[:colon].lower()
    message = f"in running text a {scheme}: URL is {_SAYS[scheme]} (D35)"
    return Problem(colon + 1, production, message, NotInText.OPAQUE_SHAPE)


def _tel(rest: str) -> bool:
    """RFC 3966: a global number (``+``, digits, visual separators) or a local one (hex digits,
    ``*``, ``#``, separators) with a ``;phone-context=``; parameters ``;name[=value]``."""
    number, *parameters = rest.split(";")
    if not all(parameter.split("=", 1)[0] for parameter in parameters):
        return False
    if number.startswith("+"):
        digits = number[1:]
        return bool(set(digits) & _DIGITS) and set(digits) <= _DIGITS | _VISUAL_SEPARATORS
    local = _HEX_DIGITS | frozenset("*#")
    context = any(p.lower().startswith("phone-context=") and len(p) > 14 for p in parameters)
    return context and bool(set(number) & local) and set(number) <= local | _VISUAL_SEPARATORS


def _urn(rest: str) -> bool:
    """RFC 8141: NID ``:`` NSS, the NID 2-32 letters, digits and inner hyphens."""
    nid, colon, nss = rest.partition(":")
    return (
        bool(colon and nss)
        and 2 <= len(nid) <= _MAX_NID
        and set(nid) <= _ALNUM | frozenset("-")
        and nid[0] != "-"
        and nid[-1] != "-"
        and nss[0] not in "?#"
    )


def _host(hostport: str) -> bool:
    """A host name, an IPv4 address or a bracketed IPv6 one, with an optional decimal port."""
    if hostport.startswith("["):
        host, bracket, port = hostport[1:].partition("]")
        if not bracket or not host or not set(host) <= _HEX_DIGITS | frozenset(":."):
            return False
        return not port or (port[0] == ":" and port[1:].isdigit() and port[1:].isascii())
    host, colon, port = hostport.partition(":")
    if colon and not (port.isdigit() and port.isascii()):
        return False
    return bool(host) and set(host) <= _HOST_CHARS and host[0] in _ALNUM and host[-1] in _ALNUM


def _sip(rest: str) -> bool:
    """RFC 3261: ``[userinfo "@"] hostport`` then ``;parameters`` and ``?headers``."""
    end = min((at for at in (rest.find(";"), rest.find("?")) if at >= 0), default=len(rest))
    user, at, hostport = rest[:end].rpartition("@")
    return (not at or bool(user)) and _host(hostport)


def _addr_spec(text: str) -> bool:
    """RFC 2392's ``addr-spec`` (escaped as a URL): ``local@domain``, both parts there."""
    local, at, domain = text.partition("@")
    return bool(at and local and domain) and "@" not in domain and "/" not in text


def _cid(rest: str) -> bool:
    return _addr_spec(rest)


def _mid(rest: str) -> bool:
    """RFC 2392: ``message-id [ "/" content-id ]``."""
    message, slash, content = rest.partition("/")
    return _addr_spec(message) and (not slash or _addr_spec(content))


def _xmpp(rest: str) -> bool:
    """RFC 5122: ``[node "@"] host ["/" resource]``, then ``?query``."""
    address = rest.split("?", 1)[0].split("#", 1)[0]
    bare = address.split("/", 1)[0]
    node, at, host = bare.rpartition("@")
    return (not at or bool(node)) and _host(host)


_SHAPES: dict[str, tuple[str, Callable[[str], bool]]] = {
    "tel": ("telephone-subscriber", _tel),
    "urn": ("namestring", _urn),
    "sip": ("SIP-URI", _sip),
    "sips": ("SIPS-URI", _sip),
    "cid": ("content-id", _cid),
    "mid": ("mid", _mid),
    "xmpp": ("xmppuri", _xmpp),
}
_SAYS = {
    "tel": "a global number (+ and digits) or a local one with ;phone-context= (RFC 3966)",
    "urn": "NID ':' NSS (RFC 8141)",
    "sip": "a user part and host, or a host (RFC 3261)",
    "sips": "a user part and host, or a host (RFC 3261)",
    "cid": "a content id addr-spec (RFC 2392)",
    "mid": "a message id addr-spec (RFC 2392)",
    "xmpp": "an address [node@]host (RFC 5122)",
}
OPAQUE_SHAPED_SCHEMES = frozenset(_SHAPES)
"""The schemes D35 checks the shape of in running text."""
