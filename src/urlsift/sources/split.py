"""One big mbox or text file -> byte ranges that start at message boundaries, so many workers can
read it.

A range starts where the mbox reader (``mbox.messages``) would start a message: a ``From `` line
that looks like a separator, after an empty line. Read on its own (``range_messages``), each range
gives exactly the messages whose separators lie in it, with the offsets they have in the whole file;
their numbers start at 0 in each range, and the caller adds the count of the ranges before (the
order of ranges is the order of the file).

A plain text is cut at the start of a line that no candidate can cross (``text_cut``): after a
blank line (no wrapper crosses one, D21), or where no ``<`` came in the wrapper's reach before it
(only wrappers cross line breaks: naked and quoted URLs end at one, D19, D26). So a range scanned
alone finds what a scan of the whole text finds in it, and a wrapper is found by the range it starts
in, whole; line numbers start at 1 in each range and the caller adds the lines of the ranges before.

Cuts are found by seeking near each multiple of the range size and searching forward in blocks
for the next boundary, so cutting a 10 GB file reads a few KiB per cut, not the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import IO

from .. import _select
from .mbox import MAX_SEPARATOR_BYTES, Chunk, RawMessage, chunks, is_separator, messages

_SEARCH_BYTES = 1 << 16
_AFTER_EMPTY_LINE = re.compile(rb"\n\r?\nFrom ")
TEXT_SEARCH_BYTES = 1 << 24
"""How far past a multiple of the range size a text cut is looked for before the next multiple is
tried (a text with no place to cut gives fewer, longer ranges)."""

Finder = Callable[[IO[bytes], int, int], "int | None"]


def cuts(file: IO[bytes], size: int, length: int, finder: Finder | None = None) -> list[int]:
    """Where the ranges of the ``length`` bytes of ``file`` start: 0, then the first boundary
    ``finder`` finds (an mbox separator by default) at or after each multiple of ``size`` past the
    previous cut. ``file`` must be seekable."""
    if size < 1:
        raise ValueError(f"a range size must be at least one byte, not {size}")
    finder = _next_separator if finder is None else finder
    found = [0]
    target = size
    while target < length:
        start = finder(file, max(found[-1] + 1, target), length)
        if start is not None and start < length:
            found.append(start)
        target = max(target + size, (start or 0) + size)
        if start is None and finder is _next_separator:
            return found  # a separator search goes to the end of the file: there is none after
    return found


def _next_separator(file: IO[bytes], at: int, length: int) -> int | None:
    """The offset of the first separator line that starts at or after ``at``."""
    # The "\n" or "\r\n" of the empty line before it, and the "\n" before that, come first.
    position = max(0, at - 3)
    while position < length:
        file.seek(position)
        # Matches that start in the first _SEARCH_BYTES are looked at here (they end within 16
        # bytes after), with the whole of their line; the next block starts where this one stops.
        block = file.read(_SEARCH_BYTES + 16 + MAX_SEPARATOR_BYTES)
        native = _select.native()
        search = _separator_in if native is None else native.next_separator  # issue 32
        found: int | None = search(block, max(0, at - position), _SEARCH_BYTES + 16)
        if found is not None:
            return position + found
        position += _SEARCH_BYTES
    return None


def _separator_in(block: bytes, first: int, endpos: int) -> int | None:
    """Where in ``block`` the first separator line at or after ``first`` starts, among the matches
    of an empty line and ``From `` that end by ``endpos``; None when there is none."""
    for m in _AFTER_EMPTY_LINE.finditer(block, 0, endpos):
        line_start = m.end() - len(b"From ")
        if line_start < first:
            continue
        line_end = block.find(b"\n", line_start, line_start + MAX_SEPARATOR_BYTES)
        if line_end >= 0 and is_separator(block[line_start:line_end]):
            return line_start
    return None


def text_cutter(reach: int) -> Finder:
    """A finder of text cuts for a scanner whose wrappers reach at most ``reach`` bytes from their
    ``<`` (the scanner's, passed in: sources know nothing of the scanner)."""
    return partial(_text_cut, reach=reach)


def _text_cut(file: IO[bytes], at: int, length: int, *, reach: int) -> int | None:
    """The first line start at or after ``at`` that no candidate crosses (see the module's
    docstring), looked for up to TEXT_SEARCH_BYTES past ``at``."""
    position = max(0, at - reach - 2)
    stop = min(length, at + TEXT_SEARCH_BYTES)
    while position < stop:
        file.seek(position)
        block = file.read(reach + 2 + _SEARCH_BYTES)
        first = at - position  # line starts before this belong to an earlier search
        newline = block.find(b"\n", max(0, first - 1), reach + 2 + _SEARCH_BYTES)
        while newline >= 0:
            line_start = newline + 1
            if (
                line_start >= first
                and position + line_start < length
                and _clean(block, line_start, position, reach)
            ):
                return position + line_start
            newline = block.find(b"\n", line_start)
        if len(block) <= reach + 2:
            return None
        position += len(block) - reach - 2  # the next block sees the reach before its lines
    return None


def _clean(block: bytes, line_start: int, position: int, reach: int) -> bool:
    """Whether no candidate crosses the line start ``block[line_start]``: the line before it is
    blank, or no ``<`` came in the ``reach`` bytes before it (the file's start counts)."""
    previous = block.rfind(b"\n", 0, line_start - 1)
    if previous >= 0 and not block[previous + 1 : line_start - 1].strip():
        return True
    first = line_start - reach
    if first < 0 and position > 0:
        return False  # the reach is not all in the block (only its first lines)
    return block.find(b"<", max(0, first), line_start) < 0


class _Window:
    """The bytes ``[start, end)`` of a file, read as a file of their own."""

    def __init__(self, file: IO[bytes], start: int, end: int) -> None:
        file.seek(start)
        self.file, self.left = file, end - start

    def read(self, size: int = -1) -> bytes:
        size = self.left if size < 0 else min(size, self.left)
        data = self.file.read(size)
        self.left -= len(data)
        return data


def range_reader(file: IO[bytes], start: int, end: int) -> IO[bytes]:
    """The bytes ``[start, end)`` of ``file`` as a file of their own (read only)."""
    return _Window(file, start, end)  # type: ignore[return-value]


def range_chunks(file: IO[bytes], start: int, end: int, limit: int = 1 << 62) -> Iterator[Chunk] | None:
    """``range_messages`` a block's at a time, as the native splitter's columns (``mbox.chunks``)."""
    return chunks(_Window(file, start, end), limit, start)  # type: ignore[arg-type]


def range_messages(file: IO[bytes], start: int, end: int, limit: int = 1 << 62) -> Iterator[RawMessage]:
    """The messages whose separators lie in ``[start, end)`` (a range from ``cuts``), with their
    offsets in the whole file and numbers from 0."""
    yield from messages(_Window(file, start, end), limit, start)  # type: ignore[arg-type]
