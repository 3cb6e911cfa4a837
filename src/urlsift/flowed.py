"""D31: ``text/plain; format=flowed`` (RFC 3676) unflowed for scanning, and matches of the
unflowed text given back in the decoded part's own text.

RFC 3676 4.1-4.5: a line's quote depth is its count of leading ``>``; then one space-stuffing
space is removed; a line that ends in a space is soft-broken and joins the next line of the same
depth (with ``DelSp=yes`` that one space goes too); the signature separator ``-- `` never flows.
The unflowed text keeps every line as written but for the joins: a join drops the line break, the
next line's quote marks and stuffing space (and the soft space when ``DelSp=yes``), so a naked URL
a client broke across flowed lines is one candidate, and quoted text still reads as quoted (D25).

The unflowed text is copies of stretches of the original, in order: ``Unflowed.segments`` says
where each starts in both, and ``original`` maps a match back (a piece cut by a join becomes two
pieces, which skip the join).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping
from typing import NamedTuple

from ._lines import Lines
from ._model import Match, Span

SIGNATURE_SEPARATOR = "-- "
"""RFC 3676 4.3: never soft-broken, whatever its trailing space says."""


class Unflowed(NamedTuple):
    text: str
    """The unflowed text: the original less the joins."""
    segments: tuple[tuple[int, int], ...]
    """(start in ``text``, start in the original) of each stretch copied whole, in order."""
    starts: tuple[int, ...]
    """Each stretch's start in ``text`` (``segments``' first halves: ``original`` searches them for
    every match, so they are laid out once, not once a match)."""


_QUOTE_MARKS = re.compile(">+")
_SOFT_BREAK = re.compile(r" \r?\n(>*)( ?)")
"""The space that ends a line, and the line break after it: where a line may be soft-broken; then
the next line's quote marks and space-stuffing space (a space that ends a line there is stuffing,
never a soft break: its line's content starts after it)."""


def _depth_and_content(text: str, start: int) -> tuple[int, int]:
    """The quote depth of the line that starts at ``text[start]``, and where its content starts
    (after one stuffing space), counted from ``start``."""
    # Most lines are not quoted: tested first, as a regex call costs more than the test.
    marks = _QUOTE_MARKS.match(text, start) if text.startswith(">", start) else None
    depth = marks.end() - start if marks else 0
    return depth, depth + 1 if text.startswith(" ", start + depth) else depth


def unflow(text: str, delsp: bool) -> Unflowed:
    """``text`` with its soft line breaks joined (RFC 3676 4.2, 4.5). Only the lines that end in a
    space are looked at (a sixth of a flowed part's lines on list mail): each joins the next line
    when that one has the same quote depth."""
    if " \n" not in text and " \r\n" not in text:  # no line ends in a space: nothing to join
        return Unflowed(text, ((0, 0),), (0,))
    out: list[str] = []
    segments: list[tuple[int, int]] = [(0, 0)]
    length = 0  # of the unflowed text so far
    copied_from = 0  # where in the original the current stretch starts
    for soft_break in _SOFT_BREAK.finditer(text):
        space, next_start = soft_break.start(), soft_break.start(1)
        if next_start == len(text):
            break  # the last line break: no line follows to join
        start = text.rfind("\n", 0, space) + 1
        depth, content = _depth_and_content(text, start)
        # The soft space must be the content's (not its stuffing space); "-- " never flows.
        if start + content > space or text[start + content : space + 1] == SIGNATURE_SEPARATOR:
            continue
        next_depth = len(soft_break.group(1))
        if next_depth != depth:
            continue
        # Join: drop what lies between the soft break (and its space when DelSp=yes) and the next
        # line's content.
        cut_from = space + 1 - delsp
        out.append(text[copied_from:cut_from])
        length += cut_from - copied_from
        copied_from = soft_break.end()
        segments.append((length, copied_from))
    out.append(text[copied_from:])
    return Unflowed("".join(out), tuple(segments), tuple(u for u, _ in segments))


def original(match: Match, unflowed: Unflowed, text: str, lines: Lines) -> Match:
    """``match`` (of ``unflowed.text``) with its span, pieces, line and column in ``text``."""
    starts = unflowed.starts

    def at(u: int) -> int:
        k = bisect_right(starts, u) - 1
        return unflowed.segments[k][1] + u - starts[k]

    def end_at(u: int) -> int:  # an end is just after the character before it
        return at(u - 1) + 1 if u > 0 else 0

    pieces: list[Span] = []
    for start, end in match.pieces:
        k = bisect_right(starts, start)
        while k < len(starts) and starts[k] < end:  # a join inside the piece: two pieces
            pieces.append((at(start), end_at(starts[k])))
            start = starts[k]
            k += 1
        pieces.append((at(start), end_at(end)))
    span = (at(match.span[0]), end_at(match.span[1]))
    line, column = lines.at(span[0])
    return match._replace(span=span, pieces=tuple(pieces), line=line, column=column)


def is_flowed(params: Mapping[str, str]) -> bool | None:
    """From a ``text/plain`` part's Content-Type parameters: None when it is not flowed, else
    whether ``DelSp=yes``."""
    if params.get("format", "").strip().lower() != "flowed":
        return None
    return params.get("delsp", "").strip().lower() == "yes"
