"""What a grammar profile gives ``validate``: the interface the strict profile (and later the modern
one) fills. ``validate`` knows only this; it never names a scheme or a character class."""

from __future__ import annotations

import abc
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


Decompose = Callable[[regex.Match[str], str], Decomposed]
"""(fullmatch of the scheme's rule, lower-cased scheme) -> parts."""


@dataclass(frozen=True)
class SchemeSyntax:
    """One scheme's production, compiled, with what the profile knows of it."""

    rule: Rule
    decompose: Decompose
    default_port: int | None = None
    pattern: regex.Pattern[str] = field(init=False, repr=False)
    has_login: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", regex.compile(to_regex(self.rule)))
        object.__setattr__(self, "has_login", any(r.name == "login" for r in rules(self.rule)))


class Profile(abc.ABC):
    """A set of grammars a URL can be judged by."""

    name: str
    fragment: SchemeSyntax
    """The production a fragment (after the first "#") must match."""

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
