"""The records every stage shares. Frozen, slotted, stdlib only."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

Part = str | int | tuple[str, ...] | tuple[tuple[str, str], ...] | None
"""A component of a URL: text, a number (port, article number), decoded segments or fields; None
when the URL does not have that component (which differs from having it empty, D9)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a string is not a URL: where, which production could not be matched there, and why."""

    position: int
    """Index into the string given to ``validate`` of the first character that cannot be read."""
    production: str
    """The RFC's name of the production that could not be matched there (``hsegment``, ``escape``)."""
    message: str
    """One plain sentence."""

    def __str__(self) -> str:
        return f"at {self.position} ({self.production}): {self.message}"


class CaveatKind(enum.Enum):
    """The kinds of things a valid URL may still deserve a warning for."""

    PORT = "non-default-port"  # section 6: a port other than the scheme's default
    CONTROL = "encoded-control"  # section 6: encoded CR, LF and other control octets
    PASSWORD = "password"  # section 6: "URLs containing passwords ... clearly unwise"
    LONG_LABEL = "long-label"  # D7: a host label over 63 characters (RFC 1034)
    HOSTNUMBER_RANGE = "hostnumber-range"  # D7: a host number group over 255
    NOT_ADDR_SPEC = "not-addr-spec"  # D14: a mailto address that is not an RFC 822 addr-spec


@dataclass(frozen=True, slots=True)
class Caveat:
    """A warning about a valid URL; it never makes the URL invalid."""

    kind: CaveatKind
    position: int
    message: str

    def __str__(self) -> str:
        return f"warning at {self.position} ({self.kind.value}): {self.message}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``validate`` says of one string."""

    url: str
    """The string judged, exactly as given."""
    valid: bool
    scheme: str | None
    """The scheme, lower-cased; None when the string does not start with one."""
    parts: Mapping[str, Part]
    """The scheme's components (read-only); empty when the URL is invalid."""
    error: Problem | None
    warnings: tuple[Caveat, ...]
    profile: str
    """The name of the profile that judged it ("strict")."""
