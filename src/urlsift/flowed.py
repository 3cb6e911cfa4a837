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

from bisect import bisect_right
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


def _depth_and_content(line: str) -> tuple[int, int]:
    """The line's quote depth and where its content starts (after one stuffing space)."""
    depth = len(line) - len(line.lstrip(">"))
    return depth, depth + 1 if line.startswith(" ", depth) else depth


def unflow(text: str, delsp: bool) -> Unflowed:
    """``text`` with its soft line breaks joined (RFC 3676 4.2, 4.5)."""
    if " \n" not in text and " \r\n" not in text:  # no line ends in a space: nothing to join
        return Unflowed(text, ((0, 0),))
    out: list[str] = []
    segments: list[tuple[int, int]] = [(0, 0)]
    length = 0  # of the unflowed text so far
    copied_from = 0  # where in the original the current stretch starts
    start = 0
    previous: tuple[int, int] | None = None  # a soft-broken line waiting for its next: (depth, end)
    while start < len(text):
        newline = text.find("\n", start)
        end = len(text) if newline < 0 else newline
        line = text[start:end].removesuffix("\r")
        depth, content = _depth_and_content(line)
        if previous is not None and previous[0] == depth:
            # Join: drop what lies between the soft break and this line's content.
            cut_from = previous[1]
            out.append(text[copied_from:cut_from])
            length += cut_from - copied_from
            copied_from = start + content
            segments.append((length, copied_from))
        body = line[content:]
        soft = newline >= 0 and body.endswith(" ") and body != SIGNATURE_SEPARATOR
        # Where the soft-broken line's text ends: before its line break, and before its one soft
        # space when DelSp=yes.
        previous = (depth, start + len(line) - (1 if delsp else 0)) if soft else None
        start = end + 1
    out.append(text[copied_from:])
    return Unflowed("".join(out), tuple(segments))


def original(match: Match, unflowed: Unflowed, text: str, lines: Lines) -> Match:
    """``match`` (of ``unflowed.text``) with its span, pieces, line and column in ``text``."""
    starts = [u for u, _ in unflowed.segments]

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


def is_flowed(params: dict[str, str]) -> bool | None:
    """From a ``text/plain`` part's Content-Type parameters: None when it is not flowed, else
    whether ``DelSp=yes``."""
    if params.get("format", "").strip().lower() != "flowed":
        return None
    return params.get("delsp", "").strip().lower() == "yes"
