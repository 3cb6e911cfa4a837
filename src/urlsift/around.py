"""The text around a match, for the ``quote_depth`` and ``context`` columns: from a message's text
(held whole), or from a plain text read as a stream (``StreamText`` keeps its recent characters,
and reads ``ahead`` characters before the scanner sees them)."""

from __future__ import annotations

import codecs
from typing import IO

from ._model import Match
from .scanner import _QUOTE_PREFIX, LOOKAHEAD, LOOKBEHIND, RESUME_SLACK

_PREFIX_CHARS = 8 + 16 * 5
"""The longest quote prefix ``_QUOTE_PREFIX`` takes: 8 spaces, then 16 marks with 4 spaces each."""
_PREFIX_FIRST = frozenset(" \t>|:")
"""What a quote prefix starts with."""


class StreamText:
    """A binary file read as text (UTF-8, undecodable bytes as U+FFFD, as ``stream.extract_stream``
    decodes), handed to ``extract_stream`` as a text file; the characters around what it has read
    stay at hand (``slice``): those a window of the scan can still hold, and ``ahead`` more."""

    def __init__(self, file: IO[bytes], ahead: int = 0) -> None:
        self._file = file
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._ahead = ahead
        self._text = ""  # the characters kept, from ``_base`` on
        self._base = 0
        self._given = 0  # the characters handed to the scanner so far
        self._ended = False
        self._keep = LOOKBEHIND + LOOKAHEAD + 8 * RESUME_SLACK + ahead
        self._line: tuple[int, str] = (0, "")
        """Where the line holding ``_base`` starts, and its first characters (its quote prefix)."""
        self.lines = 0
        """Line breaks handed out."""

    @property
    def characters(self) -> int:
        """Characters handed out."""
        return self._given

    def read(self, size: int = -1) -> str:
        if size < 0:
            raise ValueError("StreamText is read in chunks")
        # Windows of the scan hold up to about two reads past its lookbehind (``stream``).
        self._keep = max(self._keep, LOOKBEHIND + LOOKAHEAD + 8 * RESUME_SLACK + 2 * size + self._ahead)
        while not self._ended and self._base + len(self._text) < self._given + size + self._ahead:
            data = self._file.read(max(size, 1 << 16))
            self._ended = not data
            self._text += self._decoder.decode(data, final=self._ended)
        start = self._given - self._base
        found = self._text[start : start + size]
        self._given += len(found)
        self.lines += found.count("\n")
        self._forget(self._given - self._keep)
        return found

    def _forget(self, before: int) -> None:
        """Drop the characters before ``before``, keeping the start of the line that holds it."""
        cut = before - self._base
        if cut <= 0:
            return
        newline = self._text.rfind("\n", 0, cut)
        # A line that starts in what is dropped; or the text's first, which no line break begins.
        if newline >= 0 or self._line[0] == self._base:
            start = newline + 1
            self._line = (self._base + start, self._text[start : start + _PREFIX_CHARS])
        self._text = self._text[cut:]
        self._base = before

    def slice(self, start: int, end: int) -> str:
        """The text's characters ``[start, end)`` (fewer where the text ends), from those kept."""
        if start >= self._base:
            return self._text[start - self._base : end - self._base]
        line_start, prefix = self._line
        if start == line_start and end - start <= len(prefix):
            return prefix[: end - start]
        raise RuntimeError(f"characters {start}-{end} of a text stream are no longer kept")


Text = str | StreamText


def _slice(text: Text, start: int, end: int) -> str:
    return text[start:end] if isinstance(text, str) else text.slice(start, end)


def quote_depth(text: Text, match: Match) -> int:
    """How many quote marks (D25: ``>``, ``|``, ``:``, as ``>``, ``>>`` or ``> >``) begin the line
    where the match starts: a URL quoted in a reply is a repeat of an earlier message's."""
    column = match.column
    if not column:  # nothing before it on its line (a header value's URL, most often)
        return 0
    start = match.span[0]
    line_start = start - column
    end = min(start, line_start + _PREFIX_CHARS)
    if isinstance(text, str):  # a message's text: matched where it lies, no slice cut
        if text[line_start] not in _PREFIX_FIRST:  # most lines: quick
            return 0
        prefix = _QUOTE_PREFIX.match(text, line_start, end)
    elif text.slice(line_start, line_start + 1) not in _PREFIX_FIRST:
        return 0
    else:
        prefix = _QUOTE_PREFIX.match(text.slice(line_start, end))
    if prefix is None:
        return 0
    marks = prefix.group()
    return len(marks) - marks.count(" ") - marks.count("\t")


def context(text: Text, start: int, end: int, size: int) -> str:
    """The characters from ``size`` before ``start`` to ``size`` after ``end``, as they are: a
    machine format carries them so (JSON escapes itself, CSV quotes), since an escape written here
    would read the same as those very characters in the text (issue 30)."""
    return _slice(text, max(0, start - size), end + size)
