"""A grammar written once as data, read two ways.

A profile writes each production of its RFC as a ``Rule`` over a handful of node kinds. From that
one tree come:

* ``to_regex``: the text of a ``regex`` pattern that decides validity and captures the parts in one
  C-speed ``fullmatch`` (the fast path every valid URL takes);
* ``furthest_failure``: a backtracking walk with the same semantics that, when the pattern says no,
  finds how far the text can be read as the production and which productions were expected there
  (the slow path, run only on failure, so a verdict can say where and why);
* the test suite's hypothesis strategies (``tests/strategies.py``), one per production.

Linear time: leaves are possessive and every repetition of a compound is atomic per iteration, in
the regex and in the walk alike, so neither can backtrack into a run it has read; what is left to
backtrack over is a fixed number of alternatives per production.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from dataclasses import FrozenInstanceError, dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeAlias, dataclass_transform

from ._chars import ALPHADIGIT, ESCAPE_TEXT, class_text

Stack = tuple[tuple["Rule", int], ...]
"""The named productions being read at a point, outermost first, each with its start offset."""

if TYPE_CHECKING:
    import regex

# The regex module is imported by the first pattern that needs it (its import is a large part of a
# start): under the native core, a run that explains no failure compiles none.
Pattern: TypeAlias = "re.Pattern[str] | regex.Pattern[str]"


def compile_pattern(text: str) -> Pattern:
    """The stdlib engine where the pattern is one it takes (it runs these productions ~5x faster
    than ``regex``, and a call to it costs a third); ``regex`` where it is not (a name used by
    several alternatives, as waisurl's)."""
    try:
        return re.compile(text)
    except re.error:
        import regex

        return regex.compile(text)


@dataclass_transform(frozen_default=True)
class Node:
    """One piece of a production. What a node compiles (the walk's patterns) is compiled when first
    used: importing a grammar builds trees and nothing more, and a run that never explains a failure
    never compiles them (tests compile every rule).

    Subclasses are frozen records as a ``@dataclass(frozen=True)`` makes them (their annotated
    fields in order, defaults, equality and hashing by those fields, a repr naming them, no
    assignment), made by the methods below, shared, rather than by ``dataclass``: it writes and
    compiles six methods for each class, most of this module's import, on every start."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, object]] = {}
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Annotations are strings here (``from __future__ import annotations``): only names are read.
        own = [name for name in inspect.get_annotations(cls) if not name.startswith("_")]
        cls._fields = (*cls._fields, *own)
        defaults = {name: cls.__dict__[name] for name in own if name in cls.__dict__}
        cls._defaults = {**cls._defaults, **defaults}
        type.__setattr__(cls, "__match_args__", cls._fields)  # (mypy holds __match_args__ read-only)

    def __init__(self, *args: object, **kwargs: object) -> None:
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments, {len(args)} given")
        given = dict(zip(names, args, strict=False))  # fewer arguments than fields: the rest by name
        for name in kwargs:
            if name not in names or name in given:
                raise TypeError(f"{type(self).__name__}() got an unexpected or repeated argument {name!r}")
        given.update(kwargs)
        state = self.__dict__
        for name in names:
            if name in given:
                state[name] = given[name]
            elif name in self._defaults:
                state[name] = self._defaults[name]
            else:
                raise TypeError(f"{type(self).__name__}() missing argument {name!r}")

    def _values(self) -> tuple[object, ...]:
        return tuple(self.__dict__[name] for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            assert isinstance(other, Node)
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._fields)
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    @cached_property
    def single(self) -> bool:
        """Whether the walk reads at most one end for this node (nothing in it offers a choice but
        inside a repetition, whose iterations the walk does not enumerate): it is then read by a
        plain call, not a generator (the walk's time on a failure is mostly generators)."""
        if isinstance(self, (Alt, Opt)):
            return False
        if isinstance(self, Seq):
            return all(item.single for item in self.items)
        if isinstance(self, Rule):
            return self.body.single
        return True


class Lit(Node):
    """A literal string, matched exactly (case-sensitive: D3)."""

    text: str
    other_case: str | None = None
    """Said when the text there is this literal in another case (D3: literals are case-sensitive)."""
    stray: str | None = None
    """Said at its start when the text there starts like it and then is something else."""
    whole: bool = False
    """Read whole or not at all: text that only starts like it fails at its start (an escape, D5)."""


class Chars(Node):
    """A run of characters from ``members`` (and escapes, when ``escapes``), min..max long."""

    members: str
    escapes: bool
    min: int = 0
    max: int | None = None
    wide: tuple[tuple[int, int], ...] = ()
    """Ranges of code points (first, last) beyond ``members``: RFC 3987's ``ucschar`` is too big
    to spell as a string."""

    @cached_property
    def _pattern(self) -> Pattern:
        return compile_pattern(_chars_regex(self))


class Label(Node):
    """A domain label: one of ``first``, then alphadigits with inner hyphens, never a last hyphen.

    The RFC's ``alphadigit *[ alphadigit | "-" ] alphadigit`` written so it cannot backtrack:
    ``first (-* alphadigit)*``. Its reach (how far a longer label could still go) runs over the
    trailing hyphens too, so ``a-~b`` fails at the ``~``, not at the ``-``.
    """

    first: str

    @cached_property
    def _pattern(self) -> Pattern:
        return compile_pattern(_label_regex(self))

    @cached_property
    def _reach(self) -> Pattern:
        return compile_pattern(f"[{class_text(self.first)}][{class_text(ALPHADIGIT + '-')}]*+")


class Seq(Node):
    items: tuple[Node, ...]


class Alt(Node):
    options: tuple[Node, ...]


class Opt(Node):
    item: Node


class Rep(Node):
    """Zero or more of ``item``, possessive: every iteration that can be read is kept.

    Section 5 never lets what follows a repetition start like one of its iterations (no "." after
    a host, no "/" after a path, no ";" after the last field), so giving an iteration back could
    never turn a failure into a match; refusing to is what keeps ``a.a.a.a...`` linear (the
    ``regex`` module takes quadratic time to back off a long repetition).
    """

    item: Node

    @cached_property
    def _pattern(self) -> Pattern:
        # Group 1 holds the last iteration read, so the walk can step back to it in one match.
        return compile_pattern(f"(?:({to_regex(self.item)}))*+")


class Rule(Node):
    """A named production. ``name`` is the RFC's spelling; ``group`` names the captured part."""

    name: str
    body: Node
    group: str | None = None
    describe: str | None = None
    """What the production is, in a message ("the host"); the name itself when None."""
    missing: str | None = None
    """Said where the production was wanted and none of it could be read."""
    refused: str | None = None
    """Said of a character the production stopped at ("{char}" stands for it)."""
    at_sign: str | None = None
    """For a URL's rule with no user information: said of an "@" in its authority."""
    until_read: str | None = None
    """The production a failure is said of while nothing of this one has been read (an IP
    literal's "[" is not there: the host is what is wrong)."""


def seq(*items: Node | str) -> Seq:
    """A sequence; plain strings are literals, to keep productions close to the BNF's text."""
    return Seq(tuple(Lit(item) if isinstance(item, str) else item for item in items))


def alt(*options: Node | str) -> Alt:
    return Alt(tuple(Lit(option) if isinstance(option, str) else option for option in options))


def opt(*items: Node | str) -> Opt:
    return Opt(items[0] if len(items) == 1 and isinstance(items[0], Node) else seq(*items))


def rep(*items: Node | str) -> Rep:
    return Rep(items[0] if len(items) == 1 and isinstance(items[0], Node) else seq(*items))


# --- the regex reading -------------------------------------------------------------------------


def _quantifier(low: int, high: int | None) -> str:
    if (low, high) == (1, 1):
        return ""
    if high is None:
        return {0: "*+", 1: "++"}.get(low, f"{{{low},}}+")
    return f"{{{low},{high}}}+"


def char_class(node: Chars) -> str:
    """The regex text of ``node``'s class, brackets included (escapes not included)."""
    wide = "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in node.wide)
    return f"[{class_text(node.members)}{wide}]"


def _chars_regex(node: Chars) -> str:
    members = char_class(node)
    if not node.escapes:
        return members + _quantifier(node.min, node.max)
    unit = f"(?:{members}|{ESCAPE_TEXT})"
    if node.max is not None:
        return unit + _quantifier(node.min, node.max)
    # Unrolled: the group repeats once per escape, not once per character. The `regex` module
    # is ~200x slower, and not linear, repeating (?:[c]|%HH) over a megabyte of [c].
    run = f"{members}*+(?:{ESCAPE_TEXT}{members}*+)*+"
    return {0: run, 1: f"(?={members[:-1]}%]){unit}{run}"}.get(node.min, unit * node.min + run)


def _label_regex(node: Label) -> str:
    alnum = class_text(ALPHADIGIT)
    return f"[{class_text(node.first)}](?:-*+[{alnum}])*+"


def to_regex(node: Node) -> str:
    """The regex text of ``node``: unanchored, to be used with ``fullmatch``."""
    if isinstance(node, Lit):
        return re.escape(node.text)  # (the same text as regex.escape's: punctuation only)
    if isinstance(node, Chars):
        return _chars_regex(node)
    if isinstance(node, Label):
        return _label_regex(node)
    if isinstance(node, Seq):
        return "".join(to_regex(item) for item in node.items)
    if isinstance(node, Alt):
        return "(?:" + "|".join(to_regex(option) for option in node.options) + ")"
    if isinstance(node, Opt):
        return f"(?:{to_regex(node.item)})?"
    if isinstance(node, Rep):
        return f"(?:{to_regex(node.item)})*+"
    if isinstance(node, Rule):
        body = to_regex(node.body)
        return f"(?P<{node.group}>{body})" if node.group else f"(?:{body})"
    raise TypeError(f"not a grammar node: {node!r}")


def nodes(node: Node) -> Iterator[Node]:
    """Every node reachable from ``node``, each once, outermost first."""
    seen: set[int] = set()
    todo: list[Node] = [node]
    while todo:
        current = todo.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, Rule):
            todo.append(current.body)
        elif isinstance(current, Seq):
            todo.extend(current.items)
        elif isinstance(current, Alt):
            todo.extend(current.options)
        elif isinstance(current, (Opt, Rep)):
            todo.append(current.item)


def rules(node: Node) -> Iterator[Rule]:
    """Every named production reachable from ``node``, each once, outermost first."""
    return (current for current in nodes(node) if isinstance(current, Rule))


# --- the diagnostic reading ----------------------------------------------------------------------


class Expectation(NamedTuple):
    """What one reading of the grammar wanted at the furthest point any reading reached (a named
    tuple: a walk builds several, and a frozen dataclass costs three times as much to build)."""

    stack: Stack
    node: Node  # the Lit or leaf that stopped there
    hard: bool  # False: a leaf that could have gone on; True: something required was missing
    start: int  # where the node's reading began (inside a literal, before the furthest point)


@dataclass(frozen=True)
class Failure:
    position: int
    expectations: tuple[Expectation, ...]


class _Walk:
    def __init__(self, text: str, endpos: int) -> None:
        self.text = text
        self.endpos = endpos
        self.far = -1
        # Expectation's fields as plain tuples: most are dropped as the walk gets further, and only
        # those kept at the end are made Expectations.
        self.found: list[tuple[Stack, Node, bool, int]] = []

    def note(self, position: int, stack: Stack, node: Node, hard: bool, start: int | None = None) -> None:
        if position > self.far:
            self.far = position
            self.found = []
        if position == self.far:
            self.found.append((stack, node, hard, position if start is None else start))

    def leaf(self, node: Chars | Label, pos: int, stack: Stack) -> int | None:
        match = node._pattern.match(self.text, pos, self.endpos)
        if type(node) is Label:
            reach = node._reach.match(self.text, pos, self.endpos)
            if reach is not None and (match is None or reach.end() > match.end()):
                self.note(reach.end(), stack, node, hard=True)
        if match is None:
            self.note(pos, stack, node, hard=True)
            return None
        bounded = type(node) is Chars and node.max is not None  # gtype: one unit, no more
        if not bounded:
            self.note(match.end(), stack, node, hard=False)  # a longer run would have been read
        return match.end()

    # The walk tells the kinds of node apart by ``type(node) is``: no node kind has a subclass, and
    # a walk makes a hundred of these tests, each cheaper so than an ``isinstance``.

    def run(self, node: Node, pos: int, stack: Stack) -> Iterator[int]:
        if node.single:
            end = self.step(node, pos, stack)
            if end is not None:
                yield end
        elif type(node) is Seq:
            yield from self.run_seq(node.items, 0, pos, stack)
        elif type(node) is Alt:
            for option in node.options:
                yield from self.run(option, pos, stack)
        elif type(node) is Opt:
            yield from self.run(node.item, pos, stack)
            yield pos
        elif type(node) is Rule:
            yield from self.run(node.body, pos, (*stack, (node, pos)))
        else:
            raise TypeError(f"not a grammar node: {node!r}")

    def step(self, node: Node, pos: int, stack: Stack) -> int | None:
        """The one end of a ``single`` node read at ``pos``; None when it cannot be read there."""
        # The kinds in the order a walk meets them most.
        if type(node) is Rule:
            return self.step(node.body, pos, (*stack, (node, pos)))
        if type(node) is Seq:
            for item in node.items:
                end = self.step(item, pos, stack)
                if end is None:
                    return None
                pos = end
            return pos
        if type(node) is Lit:
            text = node.text
            if self.text.startswith(text, pos, self.endpos):
                return pos + len(text)
            same = 0
            limit = min(len(text), self.endpos - pos)
            while same < limit and self.text[pos + same] == text[same]:
                same += 1
            if node.whole:
                same = 0
            self.note(pos + same, stack, node, hard=True, start=pos)
            return None
        if type(node) is Chars or type(node) is Label:
            return self.leaf(node, pos, stack)
        if type(node) is Rep:
            # The compiled item reads the iterations; only the last one and the attempt after it
            # are walked, because only they can note anything at the furthest point.
            m = node._pattern.match(self.text, pos, self.endpos)
            end = m.end() if m else pos
            if m and m.start(1) >= 0:
                self.first(node.item, m.start(1), stack)
            self.first(node.item, end, stack)
            return end
        raise TypeError(f"not a single-ended grammar node: {node!r}")

    def first(self, node: Node, pos: int, stack: Stack) -> int | None:
        """The first end of ``node`` read at ``pos`` (None when there is none)."""
        return self.step(node, pos, stack) if node.single else next(self.run(node, pos, stack), None)

    def run_seq(self, items: tuple[Node, ...], index: int, pos: int, stack: Stack) -> Iterator[int]:
        end: int | None = pos
        while index < len(items) and items[index].single:  # no choice to come back to: a loop
            end = self.step(items[index], pos, stack)
            if end is None:
                return
            pos, index = end, index + 1
        if index == len(items):
            yield pos
            return
        for end in self.run(items[index], pos, stack):
            yield from self.run_seq(items, index + 1, end, stack)


END = Lit("")
"""Stands for "the end of the text" in an expectation."""


def furthest_failure(root: Rule, text: str, pos: int, endpos: int) -> Failure | None:
    """Read ``text[pos:endpos]`` as ``root``; None if it is one, else where every reading stopped."""
    walk = _Walk(text, endpos)
    for end in walk.run(root, pos, ()):
        if end == endpos:
            return None
        walk.note(end, ((root, pos),), END, hard=True)
    return Failure(walk.far, tuple(Expectation(*found) for found in walk.found))
