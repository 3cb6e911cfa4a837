"""urlsift: find URLs in mail and news text as RFC 1738's appendix says, and validate them strictly.

The public face; no logic lives here. What the scanning and judging of text needs is imported with
it; the modern profile (``MODERN``) and the readers of files and archives (``scan``,
``extract_message``, ``Report``, ``Row``) when first used, so that ``python -m urlsift`` and a
program that only validates load no more than they use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._model import (
    Candidate,
    Caveat,
    CaveatKind,
    Match,
    NotInText,
    Part,
    Problem,
    Reading,
    Span,
    Unclosed,
    Verdict,
    Wrapper,
)
from ._version import __version__

# A function named as its module is imported here: were it left for __getattr__, the first import of
# its module (by another module of urlsift) would bind the module to the name instead.
from .canonical import canonical
from .errors import ClusterError, Error, MissingExtra, StateError
from .extract import extract, extract_each, extract_urls
from .grammar import PROFILES, STRICT, Profile
from .scanner import KNOWN_SCHEMES, REGISTERED_SCHEMES
from .stream import extract_stream
from .validate import validate

if TYPE_CHECKING:
    from .grammar import MODERN
    from .library import Batch, Report, Row, extract_message, scan, scan_batches

_LATER_NAMES = {
    "MODERN": ".grammar",
    **dict.fromkeys(("Batch", "Report", "Row", "extract_message", "scan", "scan_batches"), ".library"),
}
"""The public names imported when first used, and the modules they live in."""


def __getattr__(name: str) -> Any:
    home = _LATER_NAMES.get(name)
    if home is None:
        return _submodule(name)
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value  # looked up once
    return value


def _submodule(name: str) -> Any:
    """``urlsift.sources`` and the rest, as when ``import urlsift`` imported every module."""
    try:
        return import_module(f".{name}", __name__)
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise  # the module is there: something it imports is not
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "KNOWN_SCHEMES",
    "MODERN",
    "PROFILES",
    "REGISTERED_SCHEMES",
    "STRICT",
    "Batch",
    "Candidate",
    "Caveat",
    "CaveatKind",
    "ClusterError",
    "Error",
    "Match",
    "MissingExtra",
    "NotInText",
    "Part",
    "Problem",
    "Profile",
    "Reading",
    "Report",
    "Row",
    "Span",
    "StateError",
    "Unclosed",
    "Verdict",
    "Wrapper",
    "__version__",
    "canonical",
    "extract",
    "extract_each",
    "extract_message",
    "extract_stream",
    "extract_urls",
    "scan",
    "scan_batches",
    "validate",
]
