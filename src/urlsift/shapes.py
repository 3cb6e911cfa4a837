"""What the scanner asks of a URL found in text beyond its grammar (D33, D35): a candidate that is
valid by the grammar but has none of the shapes below is no URL of the text.

- D33: ``scheme:`` with nothing after the colon (``"https:"``, ``<news:>``) is a scheme named,
  never a URL, in either profile (the generic grammar would take the empty schemepart).
- D35: a naked candidate of an opaque registered scheme must have the shape its own RFC gives it:
  ``tel:`` RFC 3966, ``urn:`` RFC 8141, ``sip:``/``sips:`` RFC 3261, ``cid:``/``mid:`` RFC 2392,
  ``xmpp:`` RFC 5122. Signature labels (``Tel:(416) 324.8704``, ``URN:`` in a form) are not.
  ``mailto:`` and ``news:`` have their own productions already (D14, D15). Wrappers vouch for what
  they hold, and a ``//`` form is judged by the grammar alone.

The shape is the scheme's own rule, stated once in ``grammar/opaque.py`` (the one the modern
profile judges these schemes by): it fullmatches, or the URL has no shape. Only the words of the
refusal are said here.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any, Protocol

from . import _select
from ._model import NotInText, Problem
from .grammar._bnf import to_regex
from .grammar._profile import compile_fullmatcher


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
    scheme = url[:colon].lower() if colon > 0 else ""
    if scheme not in _PRODUCTIONS or url.startswith("//", colon + 1):
        return None
    end = url.find("#", colon + 1)  # D4: a fragment is no part of the scheme's shape
    # (the core reads a str as UTF-8: a lone surrogate's URL goes to Python's pattern)
    native = _select.native() if url.isascii() else None
    if _shape(scheme, native).fullmatch(url, colon + 1, len(url) if end < 0 else end) is not None:
        return None
    message = f"in running text a {scheme}: URL is {_SAYS[scheme]} (D35)"
    return Problem(colon + 1, _PRODUCTIONS[scheme], message, NotInText.OPAQUE_SHAPE)


class _Fullmatcher(Protocol):
    def fullmatch(self, string: str, pos: int, endpos: int) -> object | None: ...


class _NativeShape:
    """A shape as the native core compiled it from its rendering (``grammar._rendered.SHAPES``,
    the language of the Python pattern: tests/grammar/test_export.py): a run under the Rust core
    that meets one URL refused by its shape pays the core's compile of that one shape, a small
    part of Python's (issue 31)."""

    def __init__(self, grammar: Any, scheme: str):
        self._fullmatch_at, self._scheme = grammar.fullmatch_at, scheme

    def fullmatch(self, string: str, pos: int, endpos: int) -> object | None:
        found: object | None = self._fullmatch_at(self._scheme, string, pos, endpos)
        return found


@cache
def _shape(scheme: str, native: ModuleType | None) -> _Fullmatcher:
    """The scheme's rule, compiled when first met: by the ``native`` core where it renders the
    shape, else by Python (the modern profile shares the pattern)."""
    if native is not None:
        from .grammar._rendered import SHAPES

        rendered = [entry for entry in SHAPES if entry[0] == scheme]
        if rendered:
            return _NativeShape(native.Grammar(rendered), scheme)
    from .grammar.opaque import IN_TEXT  # when first needed: a run with no tel: or sip: never pays

    return compile_fullmatcher(to_regex(IN_TEXT[scheme]))


# The schemes D35 checks (those of ``opaque.IN_TEXT``), and what a refusal names: the production of
# the scheme's RFC that the URL is not, and what it should be.
_PRODUCTIONS = {
    "tel": "telephone-subscriber",
    "urn": "namestring",
    "sip": "SIP-URI",
    "sips": "SIPS-URI",
    "cid": "content-id",
    "mid": "mid",
    "xmpp": "xmppuri",
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
OPAQUE_SHAPED_SCHEMES = frozenset(_PRODUCTIONS)
"""The schemes D35 checks the shape of in running text."""
