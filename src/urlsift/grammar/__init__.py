"""Grammar profiles: which productions judge a URL. ``STRICT`` (RFC 1738) is the default."""

from __future__ import annotations

from ._profile import Decomposed, Profile, SchemeSyntax
from .modern import ModernProfile
from .strict import StrictProfile

STRICT: Profile = StrictProfile()
MODERN: Profile = ModernProfile()

PROFILES: dict[str, Profile] = {STRICT.name: STRICT, MODERN.name: MODERN}


def get_profile(profile: Profile | str) -> Profile:
    """A profile object, given one or its name; an unknown name is the caller's error."""
    if isinstance(profile, Profile):
        return profile
    try:
        return PROFILES[profile]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise ValueError(f"unknown profile {profile!r} (known: {known})") from None


__all__ = ["MODERN", "PROFILES", "STRICT", "Decomposed", "Profile", "SchemeSyntax", "get_profile"]
