"""What a grammar profile gives ``validate``: the interface the strict profile (and later the modern
one) fills. ``validate`` knows only this; it never names a scheme or a character class."""

from __future__ import annotations

import abc
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import regex

from .._model import Caveat, Part, Problem
from ._bnf import Failure, Rule, rules, to_regex


@dataclass(frozen=True)
class Decomposed:
    """A valid URL's parts, and where some of them start (for the warnings that point at them)."""

    parts: dict[str, Part]
    starts: dict[str, int] = field(default_factory=dict)


Match = re.Match[str] | regex.Match[str]
Pattern = re.Pattern[str] | regex.Pattern[str]

Decompose = Callable[[Match, str], Decomposed]
"""(fullmatch of the scheme's rule, lower-cased scheme) -> parts."""


def compile_fullmatcher(text: str) -> Pattern:
    """The stdlib engine where the pattern is one it takes (it runs these productions ~5x faster
    than ``regex``); ``regex`` where it is not (a name used by several alternatives, as waisurl's)."""
    try:
        return re.compile(text)
    except re.error:
        return regex.compile(text)


@dataclass(frozen=True)
class SchemeSyntax:
    """One scheme's production, compiled, with what the profile knows of it."""

    rule: Rule
    decompose: Decompose
    default_port: int | None = None
    pattern: Pattern = field(init=False, repr=False)
    has_login: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", compile_fullmatcher(to_regex(self.rule)))
        object.__setattr__(self, "has_login", any(r.name == "login" for r in rules(self.rule)))


class Profile(abc.ABC):
    """A set of grammars a URL can be judged by."""

    name: str
    fragment: SchemeSyntax
    """The production a fragment (after the first "#") must match."""
    unreserved: str
    """The characters that mean the same escaped or not (``canonical`` decodes their escapes)."""

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
