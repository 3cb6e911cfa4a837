"""urlsift: find URLs in mail and news text as RFC 1738's appendix says, and validate them strictly.

The public face; no logic lives here.
"""

from __future__ import annotations

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
from .canonical import canonical
from .extract import extract, extract_urls
from .grammar import MODERN, PROFILES, STRICT, Profile
from .library import Report, Row, extract_message, scan
from .scanner import KNOWN_SCHEMES, REGISTERED_SCHEMES
from .stream import extract_stream
from .validate import validate

__all__ = [
    "KNOWN_SCHEMES",
    "MODERN",
    "PROFILES",
    "REGISTERED_SCHEMES",
    "STRICT",
    "Candidate",
    "Caveat",
    "CaveatKind",
    "Match",
    "NotInText",
    "Part",
    "Problem",
    "Profile",
    "Reading",
    "Report",
    "Row",
    "Span",
    "Unclosed",
    "Verdict",
    "Wrapper",
    "__version__",
    "canonical",
    "extract",
    "extract_message",
    "extract_stream",
    "extract_urls",
    "scan",
    "validate",
]
