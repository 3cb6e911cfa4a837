"""Grammar profiles: which productions judge a URL. ``STRICT`` (RFC 1738) is the default.

The modern profile (its modules: the RFC 3986 and scheme grammars, IRIs, IDNA) is imported when it
is first asked for (``MODERN``, ``PROFILES["modern"]``, ``get_profile("modern")``): a strict run,
the command line's default, never pays for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from ._profile import Decomposed, Profile, SchemeSyntax
from .strict import StrictProfile

STRICT: Profile = StrictProfile()

if TYPE_CHECKING:
    MODERN: Profile


def _modern() -> Profile:
    # The module's own instance: one for the process, as an import is (a functools cache here
    # would be emptied by whoever empties the package's caches, and a second profile made).
    from .modern import MODERN

    return MODERN


class _Profiles(Mapping[str, Profile]):
    """The profiles by name; the names are known without building the profiles."""

    def __getitem__(self, name: str) -> Profile:
        if name == STRICT.name:
            return STRICT
        if name == "modern":
            return _modern()
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter((STRICT.name, "modern"))

    def __len__(self) -> int:
        return 2


PROFILES: Mapping[str, Profile] = _Profiles()


def __getattr__(name: str) -> Profile:
    if name == "MODERN":
        return _modern()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
