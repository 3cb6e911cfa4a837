"""What a grammar profile gives ``validate``: the interface the strict profile (and later the modern
one) fills. ``validate`` knows only this; it never names a scheme or a character class."""

from __future__ import annotations

import abc
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, TypeAlias

from .. import _select
from .._model import Caveat, Part, Problem, ProfileName
from . import _rendered
from ._bnf import Failure, Pattern, Rule, compile_pattern, to_regex

if TYPE_CHECKING:
    import regex

    from .. import _core


@dataclass(slots=True)
class Decomposed:
    """A valid URL's parts, and where some of them start (for the warnings that point at them).
    Not frozen: its dicts are filled in place anyway, and a frozen one costs 2.5x to build."""

    parts: dict[str, Part]
    starts: dict[str, int] = field(default_factory=dict)


RegexMatch: TypeAlias = "re.Match[str] | regex.Match[str] | _core.Match"
"""A regex match of a scheme's rule (not ``urlsift.Match``, the public record of a URL found): the
``re`` or ``regex`` module's, or the native core's, which reads the same."""

Decompose = Callable[[RegexMatch, str], Decomposed]
"""(fullmatch of the scheme's rule, lower-cased scheme) -> parts."""


def authority_span(url: str, start: int, endpos: int, ends: str) -> tuple[int, int] | None:
    """Where the authority is in ``url[:endpos]`` whose scheme part starts at ``start`` (after the
    colon): from after its "//" to the first of ``ends`` (a profile's ``authority_ends``); None when
    the scheme part does not start with "//". The one place the authority is located by hand."""
    if not url.startswith("//", start, endpos):
        return None
    begin = start + 2
    stops = (url.find(char, begin, endpos) for char in ends)
    return begin, min((at for at in stops if at >= 0), default=endpos)


def host_span(url: str, start: int, endpos: int, ends: str) -> tuple[int, int] | None:
    """Where the host is in the authority of a valid URL (see ``authority_span``): after the last
    "@" and before a ":port" (an IP literal's colons are inside its brackets)."""
    span = authority_span(url, start, endpos, ends)
    if span is None:
        return None
    begin, end = span
    begin = url.rfind("@", begin, end) + 1 or begin
    bracket = url.rfind("]", begin, end)
    port = url.rfind(":", max(begin, bracket), end)
    return begin, end if port < 0 else port


@cache
def compile_fullmatcher(text: str) -> Pattern:
    """``compile_pattern``, cached: several schemes share a production (http and https, every
    generic scheme)."""
    return compile_pattern(text)


@dataclass(frozen=True)
class SchemeSyntax:
    """One scheme's production, with what the profile knows of it. The pattern is compiled when
    first used: a process that never meets a scheme (or a profile) never pays for it."""

    rule: Rule
    decompose: Decompose
    default_port: int | None = None
    dot_segments: bool = True
    """Whether "." and ".." segments of the path are RFC 3986's (a gopher selector is opaque)."""

    @cached_property
    def pattern(self) -> Pattern:
        return compile_fullmatcher(to_regex(self.rule))


class Profile(abc.ABC):
    """A set of grammars a URL can be judged by."""

    name: ProfileName
    fragment: SchemeSyntax
    """The production a fragment (after the first "#") must match."""
    unreserved: str
    """The characters that mean the same escaped or not (``canonical`` decodes their escapes)."""
    scheme_less_www: bool = False
    """Whether the scanner also takes "www." host names with no scheme (judged as http URLs)."""
    authority_ends: str = "/"
    """What ends the authority after "//" (RFC 1738's user may hold "?"; RFC 3986's may not)."""
    dot_segments: bool = False
    """Whether "." and ".." path segments mean "here" and "up" (``canonical`` removes them)."""
    fragment_escapes: bool = False
    """Whether ``canonical`` normalises the escapes of a fragment as those of the URL (RFC 3986
    6.2.2 covers the whole URI reference; RFC 1808 puts the fragment outside an RFC 1738 URL)."""
    native: _core.Grammar | None = None
    """The native core's compiled productions (keyed by rule name), when the core is loaded."""
    native_rules: frozenset[str] = frozenset()
    """The rules ``native`` holds (not those of ``export.POSSESSIVE_ONLY``)."""
    scheme_rule: Rule
    """The scheme name's rule, read from a URL's start (``scheme_end``)."""

    def _compile_native(self) -> None:
        """Hand the rule trees, rendered for the Rust crate (``export.plan``, shipped rendered in
        ``_rendered``), to the native core when it is loaded (at the profile's construction: a
        pattern the core refuses fails the import, naming the production)."""
        module = _select.NATIVE
        if module is not None:
            plan = _rendered.PLANS[self.name]
            self.native = module.Grammar(plan)
            self.native_rules = frozenset(key for key, _, _ in plan)

    @abc.abstractmethod
    def syntaxes(self) -> Iterator[SchemeSyntax]:
        """Every production ``syntax`` may give, and the fragment's."""

    @abc.abstractmethod
    def scheme_syntaxes(self) -> tuple[dict[str, SchemeSyntax], SchemeSyntax]:
        """What ``syntax`` reads: the schemes with a production of their own, and the one that
        judges every other scheme (handed to the native extractor as data)."""

    @abc.abstractmethod
    def scheme_end(self, url: str, endpos: int) -> int | Problem:
        """Index of the ":" that ends the scheme, or why the string does not start with one."""

    @abc.abstractmethod
    def syntax(self, scheme: str) -> SchemeSyntax:
        """The production that judges a (lower-cased) scheme."""

    @abc.abstractmethod
    def explain(self, url: str, endpos: int, failure: Failure, syntax: SchemeSyntax) -> Problem:
        """Turn where the grammar stopped into a Problem a user understands."""

    @abc.abstractmethod
    def caveats(self, url: str, scheme: str, syntax: SchemeSyntax, found: Decomposed) -> tuple[Caveat, ...]:
        """The warnings a valid URL deserves."""
