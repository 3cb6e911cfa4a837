"""Where the grammar stopped -> a Problem a user understands: one driver for every profile.

The grammar's nodes say what they are and what is wrong with them (``Rule.describe``, ``missing``,
``refused``, ``at_sign``; ``Lit.other_case``); a profile adds only its own words (``Wording``): how
it names an escape, what it says of a character no production allows, and the checks that judge a
whole piece at once (D7's host names, RFC 3986's IP literals).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .._model import Problem
from ._bnf import END, Expectation, Failure, Lit, Rule, Stack, rules
from ._profile import SchemeSyntax, authority_span

_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


@dataclass(frozen=True)
class Stop:
    """Where and how the grammar stopped reading a URL, as the checks see it."""

    url: str
    endpos: int
    failure: Failure
    syntax: SchemeSyntax
    expectation: Expectation
    """The reading that explains the failure (``pick``)."""
    production: str
    """The name of the innermost production being read there."""

    @property
    def position(self) -> int:
        return self.failure.position

    @property
    def at_end(self) -> bool:
        return self.failure.position >= self.endpos

    @property
    def char(self) -> str | None:
        """The character the reading stopped at; None at the end of the URL."""
        return None if self.at_end else self.url[self.failure.position]

    @property
    def stack(self) -> Stack:
        return self.expectation.stack


Check = Callable[[Stop], Problem | None]


@dataclass(frozen=True)
class Wording:
    """What a profile says in its own words."""

    escape: str
    """The production a bad escape is reported against ("escape", "pct-encoded")."""
    authority: str
    """The production an "@" in an authority without user information is reported against."""
    authority_ends: str
    """What ends the authority (``Profile.authority_ends``)."""
    char_message: Callable[[str], str | None]
    """What is said of a character no production allows as itself; None for one some does."""
    describe: Mapping[str, str]
    """What each production is, by name (``descriptions``)."""
    checks: tuple[Check, ...] = ()
    """Run first, in order: the first Problem found is the explanation."""
    cites: Mapping[str, str] = field(default_factory=dict)
    """The section cited when a character is not allowed, per URL rule name."""


def descriptions(*roots: Rule) -> dict[str, str]:
    """Each production's ``describe``, by name, over the rules reachable from ``roots``."""
    return {rule.name: rule.describe for root in roots for rule in rules(root) if rule.describe}


def pick(failure: Failure, at_end: bool) -> Expectation:
    """The reading that explains a failure. Mid-text, the first reading to stop there is the
    production that was being extended (a path segment that met a "~"); at the end, the last
    required piece is what is missing (the optional ones were tried first and skipped)."""
    found = failure.expectations
    if at_end:
        hard = [e for e in found if e.hard]
        return hard[-1] if hard else found[-1]
    return found[0]


def explain(url: str, endpos: int, failure: Failure, syntax: SchemeSyntax, wording: Wording) -> Problem:
    """The Problem of ``url[:endpos]``, which ``syntax`` refused as ``failure`` says. The most
    particular explanation first: an "@" where no user may be, the profile's checks, a bad escape, a
    character no production allows, a production none of which was there, the end of the URL, a
    character a production refuses, a literal begun and left; else what was expected there."""
    expectation = pick(failure, failure.position >= endpos)
    stack = expectation.stack
    innermost = stack[-1][0] if stack else syntax.rule
    production = innermost.name
    position = failure.position
    if stack and innermost.until_read is not None and stack[-1][1] == position:
        production = innermost.until_read  # nothing of it was read: the failure is another's
    stop = Stop(url, endpos, failure, syntax, expectation, production)
    at_sign = _at_sign(stop, wording)
    if at_sign is not None:
        return at_sign
    for check in wording.checks:
        problem = check(stop)
        if problem is not None:
            return problem
    char = stop.char
    if char == "%" and not _ESCAPE.match(url, position, position + 3):
        found = url[position : position + 3]
        message = f"'%' must start an escape of two hexadecimal digits (%HH), not '{found}'"
        return Problem(position, wording.escape, message)
    unencodable = None if char is None else wording.char_message(char)
    if unencodable is not None:
        return Problem(position, production, unencodable)
    wanted = next((rule for rule, start in reversed(stack) if start == position and rule.missing), None)
    if wanted is not None and wanted.missing is not None:
        return Problem(position, wanted.name, wanted.missing)
    node = expectation.node
    if char is None:
        what = f"'{node.text}'" if isinstance(node, Lit) and node is not END else _what(production, wording)
        return Problem(position, production, f"the URL ends where {what} was expected")
    if innermost.refused is not None and innermost.name == production:
        return Problem(position, production, innermost.refused.replace("{char}", char))
    start = expectation.start
    if isinstance(node, Lit) and start < position:  # the text started like the literal
        text = node.text
        if node.other_case and url[start : start + len(text)].lower() == text.lower():
            return Problem(position, production, node.other_case)
        if node.stray:
            return Problem(start, production, node.stray)
    return Problem(position, production, _unexpected(char, stop, wording))


def _what(production: str, wording: Wording) -> str:
    return wording.describe.get(production, production)


def _unexpected(char: str, stop: Stop, wording: Wording) -> str:
    wanted: list[str] = []
    for expectation in stop.failure.expectations:
        node = expectation.node
        if isinstance(node, Lit) and expectation.hard:
            text = "the end of the URL" if node is END else f"'{node.text}'"
            if text not in wanted:
                wanted.append(text)
    message = f"'{char}' is not allowed here in {_what(stop.production, wording)}"
    cite = wording.cites.get(stop.syntax.rule.name)
    message += f" ({cite})" if cite else ""
    return message + (f"; expected {' or '.join(wanted)}" if wanted else "")


def _at_sign(stop: Stop, wording: Wording) -> Problem | None:
    """An "@" in the authority of a URL whose rule has no user information (D10, D18; RFC 9110
    4.2.4), when the reading stopped at or before it: that "@" is the trouble."""
    rule = stop.syntax.rule
    if rule.at_sign is None or not stop.stack or "@" not in stop.url:  # most URLs: no authority to find
        return None
    span = authority_span(stop.url, stop.stack[0][1], stop.endpos, wording.authority_ends)
    if span is None:
        return None
    at = stop.url.find("@", *span)
    if at < 0 or stop.position > at:
        return None
    return Problem(at, wording.authority, rule.at_sign)
