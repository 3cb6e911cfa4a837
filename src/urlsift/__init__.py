"""urlsift: find URLs in mail and news text as RFC 1738's appendix says, and validate them strictly.

The public face; no logic lives here.
"""

from __future__ import annotations

from ._model import Caveat, CaveatKind, Part, Problem, Verdict
from .grammar import PROFILES, STRICT, Profile
from .validate import validate

__version__ = "0.1.0"

__all__ = [
    "PROFILES",
    "STRICT",
    "Caveat",
    "CaveatKind",
    "Part",
    "Problem",
    "Profile",
    "Verdict",
    "__version__",
    "validate",
]
