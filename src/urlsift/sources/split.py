"""One big mbox -> byte ranges that start at message boundaries, so many workers can read it.

A range starts where the mbox reader (``mbox.messages``) would start a message: a ``From `` line
that looks like a separator, after an empty line. Read on its own (``range_messages``), each range
gives exactly the messages whose separators lie in it, with the offsets they have in the whole file;
their numbers start at 0 in each range, and the caller adds the count of the ranges before (the
order of ranges is the order of the file).

Cuts are found by seeking near each multiple of the range size and searching forward in blocks
for the next separator, so cutting a 10 GB file reads a few KiB per cut, not the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from .mbox import MAX_SEPARATOR_BYTES, RawMessage, is_separator, messages

_SEARCH_BYTES = 1 << 16
_AFTER_EMPTY_LINE = re.compile(rb"\n\r?\nFrom ")


def cuts(file: IO[bytes], size: int, length: int) -> list[int]:
    """Where the ranges of the ``length`` bytes of ``file`` start: 0, then the first separator at
    or after each multiple of ``size`` past the previous cut. ``file`` must be seekable."""
    if size < 1:
        raise ValueError(f"a range size must be at least one byte, not {size}")
    found = [0]
    while True:
        start = _next_separator(file, max(found[-1] + 1, len(found) * size), length)
        if start is None:
            return found
        found.append(start)


def _next_separator(file: IO[bytes], at: int, length: int) -> int | None:
    """The offset of the first separator line that starts at or after ``at``."""
    # The "\n" or "\r\n" of the empty line before it, and the "\n" before that, come first.
    position = max(0, at - 3)
    while position < length:
        file.seek(position)
        # Matches that start in the first _SEARCH_BYTES are looked at here (they end within 16
        # bytes after), with the whole of their line; the next block starts where this one stops.
        block = file.read(_SEARCH_BYTES + 16 + MAX_SEPARATOR_BYTES)
        for m in _AFTER_EMPTY_LINE.finditer(block, 0, _SEARCH_BYTES + 16):
            line_start = m.end() - len(b"From ")
            if position + line_start < at:
                continue
            line_end = block.find(b"\n", line_start, line_start + MAX_SEPARATOR_BYTES)
            if line_end >= 0 and is_separator(block[line_start:line_end]):
                return position + line_start
        position += _SEARCH_BYTES
    return None


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


def range_messages(file: IO[bytes], start: int, end: int, limit: int = 1 << 62) -> Iterator[RawMessage]:
    """The messages whose separators lie in ``[start, end)`` (a range from ``cuts``), with their
    offsets in the whole file and numbers from 0."""
    for message in messages(_Window(file, start, end), limit):  # type: ignore[arg-type]
        yield message._replace(offset=message.offset + start)
